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

}  // namespace
}  // namespace ucutlass::store
