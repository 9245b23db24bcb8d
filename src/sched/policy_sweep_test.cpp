// The policy grid over a synthetic campaign: every cell is the replay of its policy, and the
// best cell is the one saving the most attempts among those keeping the geomean share.
#include "sched/policy_sweep.h"

#include <cmath>

#include <gtest/gtest.h>

namespace ucutlass::sched {
namespace {

std::vector<RecordedProblem> campaign() {
  // a: near SOL on attempt 2, then crawls; b: its best on attempt 5 after a plateau; c: never correct.
  std::vector<RecordedProblem> rec(3);
  rec[0] = {"a", 1.0, 10.0, {{3.0}, {1.2}, {1.15}, {1.1}, {1.1}, {1.05}}};
  rec[1] = {"b", 1.0, 10.0, {{4.0}, {3.9}, {3.95}, {4.1}, {2.0}, {2.1}}};
  rec[2] = {"c", 1.0, 2.0, {{std::nullopt}, {std::nullopt}, {std::nullopt}}};
  return rec;
}

TEST(PolicySweep, EveryCellIsItsReplayAndTheBestKeepsTheShare) {
  const std::vector<RecordedProblem> rec = campaign();
  Policy base;
  base.per_problem_budget = 6;
  const Sweep s = sweep_policies(rec, base, {0.25, 2.5}, {1, 4}, 0.95);
  ASSERT_EQ(s.rows.size(), 4u);
  for (const SweepRow& r : s.rows) {
    const ReplaySummary one = replay(rec, r.policy);
    EXPECT_EQ(r.summary.attempts_policy, one.attempts_policy);
    EXPECT_DOUBLE_EQ(r.summary.geomean_kept, one.geomean_kept);
    EXPECT_TRUE(r.summary.problems.empty());
  }
  EXPECT_EQ(s.rows[1].policy.epsilon, 0.25);
  EXPECT_EQ(s.rows[1].policy.window, 4);
  // epsilon 250 %, window 1 stops a after attempt 1 (3.0 <= 3.5 x SOL, beats PyTorch) and b after
  // attempt 3 (3.95 is no gain), c runs out: a keeps 1.05/3 of its speedup and b 2/3.9, so
  // cbrt(0.35 * 0.513) = 0.56 of the geomean.
  EXPECT_EQ(s.rows[2].summary.attempts_policy, 1 + 3 + 3);
  EXPECT_NEAR(s.rows[2].summary.geomean_kept, std::cbrt((1.05 / 3.0) * (2.0 / 3.9)), 1e-9);
  EXPECT_LT(s.rows[2].summary.geomean_kept, 0.95);
  ASSERT_GE(s.best, 0);
  const SweepRow& best = s.rows[static_cast<size_t>(s.best)];
  EXPECT_GE(best.summary.geomean_kept, 0.95);
  for (const SweepRow& r : s.rows) {
    if (r.summary.geomean_kept >= 0.95) {
      EXPECT_GE(r.summary.attempts_policy, best.summary.attempts_policy);
    }
  }
  const std::string text = sweep_text(s);
  EXPECT_NE(text.find("<- best"), std::string::npos) << text;
  EXPECT_NE(text.find("best: epsilon"), std::string::npos) << text;
}

TEST(PolicySweep, NoCellKeepsAnImpossibleShare) {
  const Sweep s = sweep_policies(campaign(), Policy{}, {2.5}, {1}, 1.5);
  EXPECT_EQ(s.best, -1);
  EXPECT_NE(sweep_text(s).find("no policy of the grid keeps 150 %"), std::string::npos) << sweep_text(s);
}

}  // namespace
}  // namespace ucutlass::sched
