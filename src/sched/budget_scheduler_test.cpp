// Stopping rules, cross-problem priority and replay over synthetic attempt logs.
#include "sched/budget_scheduler.h"

#include <cmath>

#include <gtest/gtest.h>

namespace ucutlass::sched {
namespace {

ProblemState state(double sol, double eager, std::optional<double> best, int attempts, int since) {
  ProblemState p;
  p.name = "p";
  p.sol_ms = sol;
  p.eager_ms = eager;
  p.best_ms = best;
  p.attempts = attempts;
  p.since_improvement = since;
  return p;
}

TEST(StopReason, Table) {
  Policy pol;
  pol.epsilon = 0.25;
  pol.window = 4;
  pol.per_problem_budget = 10;
  struct Row {
    ProblemState p;
    StopReason want;
  };
  const Row rows[] = {
      {state(1.0, 2.0, 1.2, 3, 0), StopReason::near_sol},        // 1.2 <= 1.25, beats 2.0
      {state(1.0, 2.0, 1.3, 3, 0), StopReason::none},            // not near enough, still improving
      {state(1.0, 1.1, 1.2, 3, 0), StopReason::none},            // near SOL but slower than PyTorch
      {state(1.0, 2.0, 1.5, 6, 4), StopReason::no_improvement},  // beats PyTorch, window spent
      {state(1.0, 1.4, 1.5, 6, 4), StopReason::none},            // window spent but slower than PyTorch: keep going
      {state(1.0, 1.4, 1.5, 10, 4), StopReason::budget},
      {state(1.0, 1.4, std::nullopt, 2, 2), StopReason::none},
  };
  for (const Row& r : rows) EXPECT_EQ(stop_reason_name(stop_reason(r.p, pol)), stop_reason_name(r.want));
}

// A best whose re-measurement was no faster than eager beside it does not beat PyTorch: neither the
// window nor the SOL margin stops it, the budget does.
TEST(StopReason, ABestReMeasuredNoFasterThanEagerIsNoWinAndKeepsSearching) {
  Policy pol;
  pol.epsilon = 0.25;
  pol.window = 4;
  pol.per_problem_budget = 10;
  ProblemState p = state(1.0, 2.0, 1.5, 6, 4);
  ProblemState near = state(1.0, 2.0, 1.2, 3, 4);
  ASSERT_EQ(stop_reason(p, pol), StopReason::no_improvement);
  ASSERT_EQ(stop_reason(near, pol), StopReason::near_sol);
  p.remeasured_not_faster = near.remeasured_not_faster = true;
  EXPECT_FALSE(p.beats_pytorch());
  EXPECT_EQ(stop_reason(p, pol), StopReason::none);
  EXPECT_EQ(stop_reason(near, pol), StopReason::none);
  p.attempts = 10;
  EXPECT_EQ(stop_reason(p, pol), StopReason::budget);
}

// A new mapping (kernels with no correct recorded attempt) or an untried lead path (the ranking's
// lead runs a path no recorded attempt ran) keeps a problem whose window is spent open; the other
// rules still stop it.
TEST(StopReason, ANewMappingOrAnUntriedLeadOutlivesTheWindowOnly) {
  Policy pol;
  pol.epsilon = 0.25;
  pol.window = 4;
  pol.per_problem_budget = 10;
  for (bool ProblemState::*flag : {&ProblemState::new_mapping, &ProblemState::untried_lead}) {
    ProblemState p = state(1.0, 2.0, 1.5, 6, 4);
    EXPECT_EQ(stop_reason(p, pol), StopReason::no_improvement);
    p.*flag = true;
    EXPECT_EQ(stop_reason(p, pol), StopReason::none);
    p.attempts = 10;
    EXPECT_EQ(stop_reason(p, pol), StopReason::budget);
    ProblemState near = state(1.0, 2.0, 1.2, 3, 4);
    near.*flag = true;
    EXPECT_EQ(stop_reason(near, pol), StopReason::near_sol);
  }
}

TEST(RecordAttempt, ImprovementResetsTheWindowNoiseDoesNot) {
  ProblemState p = state(1, 5, std::nullopt, 0, 0);
  record_attempt(p, std::nullopt);
  EXPECT_EQ(p.since_improvement, 1);
  record_attempt(p, 3.0);
  EXPECT_EQ(p.since_improvement, 0);
  record_attempt(p, 2.995);  // under 1 %: faster, not progress
  EXPECT_EQ(p.since_improvement, 1);
  EXPECT_DOUBLE_EQ(*p.best_ms, 2.995);
  record_attempt(p, 2.0);
  EXPECT_EQ(p.since_improvement, 0);
  EXPECT_EQ(p.attempts, 4);
}

TEST(PickNext, MostExpectedGainFirst) {
  Policy pol;
  std::vector<ProblemState> ps = {state(1, 2, 1.1, 3, 0),   // nearly at SOL
                                  state(1, 50, 20, 3, 0),   // large gap
                                  state(1, 50, 20, 3, 10)}; // large gap, but stuck
  ps[0].eager_ms = 1.05;  // not beating PyTorch: stays open
  EXPECT_EQ(pick_next(ps, pol, 0), 1);
  ps[1].since_improvement = 20;  // beats PyTorch with the window spent: stops
  EXPECT_EQ(pick_next(ps, pol, 0), 2);
  pol.total_budget = 5;
  EXPECT_EQ(pick_next(ps, pol, 5), -1);
  // An unsolved problem outranks a solved one with the same gap.
  std::vector<ProblemState> q = {state(1, 10, 10, 1, 0), state(1, 10, std::nullopt, 1, 0)};
  q[0].eager_ms = 20;
  EXPECT_EQ(pick_next(q, Policy{}, 0), 1);
}

TEST(PickNext, TheModelsExpectationLeadsTheSolGap) {
  // kbsuite-b, call 4: level1/016 (best 0.30 ms, SOL 0.112, eager 0.16; its GEMV expected at 0.13 ms)
  // against a GEMM with a wider SOL gap whose next candidate the model expects no faster.
  Policy pol;
  ProblemState gemv = state(0.112, 0.16, 0.30, 4, 3);
  ProblemState gemm = state(0.28, 2.7, 1.18, 10, 0);
  std::vector<ProblemState> ps = {gemm, gemv};
  EXPECT_EQ(pick_next(ps, pol, 0), 0);  // by SOL gap alone (before): log(1.18/0.28) > 0.85^3 log(0.30/0.112)
  ps[1].next_expected_ms = 0.13;
  ps[0].next_expected_ms = 1.24;
  EXPECT_EQ(pick_next(ps, pol, 0), 1);
  EXPECT_NEAR(expected_gain(ps[1]), std::log(0.30 / 0.13), 1e-12);
  // The GEMM still explores, at a quarter of its SOL headroom.
  EXPECT_NEAR(expected_gain(ps[0]), kExploreWeight * std::log(1.18 / 0.28), 1e-12);
  // A speculative expectation counts half: log(0.30 / 0.13) / 2 = 0.418, still ahead of 0.360.
  ps[1].next_speculative = true;
  EXPECT_NEAR(expected_gain(ps[1]), 0.5 * std::log(0.30 / 0.13), 1e-12);
  EXPECT_EQ(pick_next(ps, pol, 0), 1);
  // An unsolved problem has nothing to calibrate on: its whole gap, as before.
  ProblemState unsolved = state(1, 10, std::nullopt, 1, 0);
  unsolved.next_expected_ms = 0.5;
  EXPECT_NEAR(expected_gain(unsolved), std::log(10.0) + 1, 1e-12);
}

TEST(PickNext, AStaleBestIsMeasuredAgainFirstEvenWhenStopped) {
  // level1/020 after the split-kernel change: its best (1.34 ms) was measured on a program today's code
  // no longer writes. Stopped by its window and near nothing, it still goes first, once.
  Policy pol;
  pol.window = 4;
  ProblemState stale = state(0.05, 2.0, 1.34, 14, 4);
  ProblemState open = state(1, 50, 20, 3, 0);
  std::vector<ProblemState> ps = {open, stale};
  EXPECT_EQ(stop_reason_name(stop_reason(ps[1], pol)), "no-improvement");
  EXPECT_EQ(pick_next(ps, pol, 0), 0);
  ps[1].stale_best = true;
  EXPECT_EQ(stop_reason_name(stop_reason(ps[1], pol)), "open");
  EXPECT_EQ(pick_next(ps, pol, 0), 1);
  EXPECT_EQ(expected_gain(ps[1]), kStaleBestGain);
  pol.total_budget = 3;  // the suite's budget still holds
  EXPECT_EQ(pick_next(ps, pol, 3), -1);
}

TEST(Replay, SavesAttemptsAndKeepsTheGeomean) {
  // Problem a reaches near SOL on attempt 3; b plateaus after attempt 2; c never
  // beats PyTorch and uses every recorded attempt.
  std::vector<RecordedProblem> rec(3);
  rec[0] = {"a", 1.0, 10.0, {}};
  for (double t : {5.0, 2.0, 1.2, 1.1, 1.05, 1.0}) rec[0].attempts.push_back({t});
  rec[1] = {"b", 1.0, 10.0, {}};
  rec[1].attempts = {{4.0}, {3.0}, {std::nullopt}, {3.1}, {3.2}, {3.05}, {3.3}, {2.9}};
  rec[2] = {"c", 1.0, 2.0, {{std::nullopt}, {2.5}, {2.2}}};
  Policy pol;
  pol.epsilon = 0.25;
  pol.window = 3;
  ReplaySummary s = replay(rec, pol);
  ASSERT_EQ(s.problems.size(), 3u);
  EXPECT_EQ(s.problems[0].attempts_used, 3);
  EXPECT_EQ(stop_reason_name(s.problems[0].reason), "near-sol");
  EXPECT_EQ(s.problems[1].attempts_used, 5);
  EXPECT_EQ(stop_reason_name(s.problems[1].reason), "no-improvement");
  EXPECT_EQ(s.problems[2].attempts_used, 3);
  EXPECT_EQ(stop_reason_name(s.problems[2].reason), "exhausted");
  EXPECT_EQ(s.attempts_fixed, 17);
  EXPECT_EQ(s.attempts_policy, 11);
  EXPECT_NEAR(s.attempts_saved, 6.0 / 17, 1e-12);
  // Fixed: a 10x, b 10/2.9, c 2/2.2 (correct, slower); policy: a 10/1.2, b 10/3, c 2/2.2.
  EXPECT_NEAR(s.geomean_fixed, std::cbrt(10.0 * (10 / 2.9) * (2 / 2.2)), 1e-9);
  EXPECT_NEAR(s.geomean_policy, std::cbrt((10 / 1.2) * (10 / 3.0) * (2 / 2.2)), 1e-9);
  EXPECT_NEAR(s.efficiency_gain, s.geomean_kept * 17 / 11, 1e-12);
  EXPECT_NE(replay_text(s, pol).find("attempts 11 of 17"), std::string::npos) << replay_text(s, pol);
}

TEST(Replay, TheFixedSideIsEachProblemsFirstBudgetAttempts) {
  // 6 recorded attempts, the best (1.0 ms) the sixth: a fixed budget of 4 never saw it, so it is neither
  // the fixed side's geomean nor an attempt the policy saved.
  std::vector<RecordedProblem> rec(2);
  rec[0] = {"a", 0.1, 10.0, {{5.0}, {4.0}, {3.0}, {2.0}, {2.0}, {1.0}}};
  rec[1] = {"b", 0.1, 10.0, {{5.0}, {6.0}}};
  Policy pol;
  pol.epsilon = 0;
  pol.window = 1000;
  pol.per_problem_budget = 4;
  const ReplaySummary s = replay(rec, pol);
  EXPECT_EQ(s.problems[0].attempts_recorded, 6);
  EXPECT_EQ(s.problems[0].attempts_fixed, 4);
  EXPECT_EQ(s.problems[1].attempts_fixed, 2);
  EXPECT_EQ(s.attempts_fixed, 6);
  EXPECT_EQ(s.attempts_policy, 6);  // no stopping rule: the policy is the fixed budget
  EXPECT_EQ(s.attempts_saved, 0);
  EXPECT_NEAR(s.problems[0].speedup_fixed, 5.0, 1e-12);
  EXPECT_NEAR(s.geomean_fixed, std::sqrt(5.0 * 2.0), 1e-12);
  EXPECT_NEAR(s.geomean_kept, 1.0, 1e-12);
  pol.per_problem_budget = 0;  // no budget: every recorded attempt
  EXPECT_EQ(replay(rec, pol).attempts_fixed, 8);
}

TEST(Replay, LooserPolicySpendsLess) {
  std::vector<RecordedProblem> rec(1);
  rec[0] = {"a", 1.0, 10.0, {}};
  for (double t : {5.0, 3.0, 2.0, 1.5, 1.2, 1.1}) rec[0].attempts.push_back({t});
  Policy tight, loose;
  tight.epsilon = 0.1;
  loose.epsilon = 2.5;
  EXPECT_LT(replay(rec, loose).attempts_policy, replay(rec, tight).attempts_policy);
}

}  // namespace
}  // namespace ucutlass::sched
