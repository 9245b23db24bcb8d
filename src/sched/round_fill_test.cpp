#include "sched/round_fill.h"

#include <climits>

#include <gtest/gtest.h>

namespace ucutlass::sched {
namespace {

TEST(RoundFill, EnoughOpenProblemsKeepTheBatch) {
  EXPECT_EQ(round_batch(2, 16, 8, true), 2);   // 8 x 2 fills the 16 slots
  EXPECT_EQ(round_batch(2, 16, 20, true), 2);
  EXPECT_EQ(round_batch(4, 2, 1, true), 4);    // a 2-core machine with one problem: unchanged
}

TEST(RoundFill, FewOpenProblemsShareTheSlots) {
  EXPECT_EQ(round_batch(2, 16, 5, true), 4);   // ceil(16 / 5)
  EXPECT_EQ(round_batch(2, 16, 3, true), 6);
  EXPECT_EQ(round_batch(2, 16, 1, true), 8);   // at most 4 x --batch
  EXPECT_EQ(round_batch(2, 16, 3, false), 2);  // --no-round-fill
  EXPECT_EQ(round_batch(2, 16, 0, true), 2);
}

ProblemState beating(int since) {
  ProblemState p;
  p.sol_ms = 0.1;
  p.eager_ms = 1.0;
  p.best_ms = 0.5;
  p.since_improvement = since;
  return p;
}

TEST(RoundFill, TheWindowBoundsARoundOfAProblemThatBeatsPyTorch) {
  Policy policy;
  policy.window = 12;
  EXPECT_EQ(window_room(beating(0), policy), 12);
  EXPECT_EQ(window_room(beating(9), policy), 3);
  EXPECT_EQ(window_room(beating(12), policy), 1);  // only reached through an exemption; never 0
}

TEST(RoundFill, TheWindowDoesNotBoundWhereItDoesNotApply) {
  Policy policy;
  ProblemState slower = beating(11);
  slower.best_ms = 2.0;  // slower than PyTorch: the window never stops it
  EXPECT_EQ(window_room(slower, policy), INT_MAX);
  ProblemState mapping = beating(11);
  mapping.new_mapping = true;
  EXPECT_EQ(window_room(mapping, policy), INT_MAX);
}

TEST(RoundFill, AnUntriedLeadPastTheWindowHasRoomForTheLeadAlone) {
  Policy policy;
  policy.window = 12;
  ProblemState lead = beating(15);
  lead.untried_lead = true;
  EXPECT_EQ(stop_reason(lead, policy), StopReason::none);  // still open: the lead is owed its attempt
  EXPECT_EQ(window_room(lead, policy), 1);
  lead.since_improvement = 4;  // inside its window, the lead is one of the window's attempts
  EXPECT_EQ(window_room(lead, policy), 8);
}

}  // namespace
}  // namespace ucutlass::sched
