#include "store/failed_pick.h"

#include <gtest/gtest.h>

namespace ucutlass::store {
namespace {

constexpr const char* kRandomReference =
    R"([{"name":"static_warnings","fired":false},{"name":"nondeterministic_reference","fired":true,"detail":"outputs [0] differ"}])";
constexpr const char* kQuietReference = R"([{"name":"nondeterministic_reference","fired":false}])";

AttemptRow attempt(int seq, const char* hash, const char* verdict, const char* signals = kQuietReference) {
  AttemptRow r;
  r.seq = seq;
  r.hash = hash;
  r.verdict = verdict;
  r.signals = signals;
  return r;
}

TEST(FailedPick, AnUntriedPickStays) {
  EXPECT_EQ(failed_pick_reason({}, "aaaa", {}), "");
  // Another program failed; the pick itself was never evaluated.
  EXPECT_EQ(failed_pick_reason({attempt(1, "bbbb", "incorrect")}, "aaaa", {}), "");
}

TEST(FailedPick, APickTheHarnessFailedGoes) {
  EXPECT_EQ(failed_pick_reason({attempt(1, "bbbb", "ok"), attempt(2, "aaaa", "compile_error")}, "aaaa", {}),
            "the harness failed its program aaaa (attempt 2: compile_error)");
  EXPECT_EQ(failed_pick_reason({attempt(1, "aaaa", "ok")}, "aaaa", {"aaaa"}), "its program aaaa failed a re-measurement");
  EXPECT_EQ(failed_pick_reason({attempt(1, "aaaa", "ok")}, "aaaa", {"bbbb"}), "");
}

TEST(FailedPick, ARandomReferenceLeavesNoSolutionToWrite) {
  // Whatever program the pick is: no candidate can pass against a reference that disagrees with itself.
  EXPECT_EQ(failed_pick_reason({attempt(1, "bbbb", "incorrect", kRandomReference)}, "aaaa", {}),
            "the reference is nondeterministic (two runs of the problem's own model disagree), so no solution can be verified");
}

TEST(FailedPick, ReadsTheSignalFromJsonOrText) {
  EXPECT_TRUE(reference_disagrees_with_itself(std::string(kRandomReference)));
  EXPECT_FALSE(reference_disagrees_with_itself(std::string(kQuietReference)));
  EXPECT_FALSE(reference_disagrees_with_itself(std::string("not json")));
  EXPECT_FALSE(reference_disagrees_with_itself(nlohmann::json::object()));
}

}  // namespace
}  // namespace ucutlass::store
