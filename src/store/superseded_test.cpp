#include "store/superseded.h"

#include <gtest/gtest.h>

namespace ucutlass::store {
namespace {

AttemptRow row(const char* hash, const char* config) {
  AttemptRow r;
  r.hash = hash;
  r.config = config;
  return r;
}

TEST(Superseded, AnEarlierProgramOfAConfigThatRanAgainIsSuperseded) {
  const std::vector<AttemptRow> rows = {row("old", "cfg 1"), row("x", "cfg 2"), row("new", "cfg 1"), row("y", "")};
  EXPECT_EQ(superseded_attempts(rows), (std::vector<bool>{true, false, false, false}));
}

TEST(Superseded, TheSameProgramTwiceAndRowsWithoutConfigAreNot) {
  const std::vector<AttemptRow> rows = {row("a", "cfg"), row("a", "cfg"), row("b", ""), row("c", "")};
  EXPECT_EQ(superseded_attempts(rows), (std::vector<bool>{false, false, false, false}));
}

// level2/011's older attempts ran its GEMM alone (logsumexp in PyTorch); today's mapping adds a row
// kernel, and a resume measures the old best's GEMM config again with it.
TEST(Superseded, AnOlderMappingsRowIsSupersededByALaterRowThatExtendsItsKernels) {
  const std::vector<AttemptRow> rows = {row("old", "gemm 1"), row("other", "gemm 2"), row("new", "gemm 1; rows 4"),
                                        row("later", "gemm 2 fused 1")};
  EXPECT_EQ(superseded_attempts(rows), (std::vector<bool>{true, false, false, false}));
  // Only a later row supersedes: a row of today's mapping never is by an earlier shorter one.
  const std::vector<AttemptRow> reversed = {row("new", "gemm 1; rows 4"), row("old", "gemm 1")};
  EXPECT_EQ(superseded_attempts(reversed), (std::vector<bool>{false, false}));
}

}  // namespace
}  // namespace ucutlass::store
