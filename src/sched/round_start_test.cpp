// The wall time a round must have left before it starts.
#include "sched/round_start.h"

#include <gtest/gtest.h>

namespace ucutlass::sched {
namespace {

TEST(RoundStart, TheFirstRoundAlwaysStarts) {
  EXPECT_FALSE(round_needs_s({}, 1, 48).has_value());
  EXPECT_FALSE(round_needs_s({55.0, std::nullopt}, 1, 48).has_value());  // no evaluation timed yet
}

TEST(RoundStart, NeedsTheSlowestFirstResultAndTenEvaluationsSharedByTheGpus) {
  // Session 22's first call: first results 41 and 55 s into its rounds, 2.7 s an evaluation; its last
  // round began with 57 s left and evaluated nothing.
  const RoundPace pace{55.0, 2.7};
  EXPECT_DOUBLE_EQ(*round_needs_s(pace, 1, 48), 82.0);
  EXPECT_GT(*round_needs_s(pace, 1, 48), 57.0);
  EXPECT_DOUBLE_EQ(*round_needs_s(pace, 2, 48), 68.5);
  EXPECT_DOUBLE_EQ(*round_needs_s(pace, 0, 48), 82.0);  // no GPU count given: one
}

TEST(RoundStart, ARoundOfFewAttemptsNeedsTimeForThoseOnly) {
  const RoundPace pace{55.0, 2.7};
  EXPECT_DOUBLE_EQ(*round_needs_s(pace, 1, 4), 55.0 + 4 * 2.7);
  EXPECT_DOUBLE_EQ(*round_needs_s(pace, 1, 0), 55.0 + 2.7);  // at least the first result
}

}  // namespace
}  // namespace ucutlass::sched
