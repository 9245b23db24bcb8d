// The optimize progress view as text.
#include "report/progress.h"

#include <gtest/gtest.h>

namespace ucutlass::report {
namespace {

sched::ProblemState state(const char* name, double sol, double eager, std::optional<double> best, int attempts) {
  sched::ProblemState p;
  p.name = name;
  p.sol_ms = sol;
  p.eager_ms = eager;
  p.best_ms = best;
  p.attempts = attempts;
  return p;
}

TEST(Progress, Lines) {
  EXPECT_EQ(progress_line(state("l1_gemm", 0.5, 4, 2, 12), "open", 40, 8), "l1_gemm   open                    12/40 attempts  best 2.00x  4.0x SOL");
  EXPECT_EQ(progress_line(state("l2", 0.5, 0, 2, 3), "running", 40, 2), "l2  running                  3/40 attempts  best 2 ms  4.0x SOL");
  EXPECT_EQ(progress_line(state("l3", 0.5, 1, std::nullopt, 0), "skipped", 40, 2), "l3  skipped                  0/40 attempts  best -");
}

TEST(Progress, RemainingAttempts) {
  sched::Policy pol;
  pol.per_problem_budget = 10;
  pol.epsilon = 0.25;
  // open with 3 used (7 left); near SOL and beating PyTorch (stopped); exhausted.
  std::vector<sched::ProblemState> ps = {state("a", 1, 10, 5, 3), state("b", 1, 10, 1.1, 2), state("c", 1, 10, std::nullopt, 1)};
  ps[2].exhausted = true;
  EXPECT_EQ(remaining_attempts(ps, pol, 0), 7);
  pol.total_budget = 8;
  EXPECT_EQ(remaining_attempts(ps, pol, 6), 2);
  EXPECT_EQ(remaining_attempts(ps, pol, 9), 0);
  EXPECT_EQ(open_problems(ps, pol), 1);  // a alone: b stopped near SOL, c's candidates spent
}

TEST(Progress, RemainingAttemptsUnlessAProblemImproves) {
  sched::Policy pol;
  pol.per_problem_budget = 40;
  pol.window = 12;
  pol.epsilon = 0.25;
  // a beats PyTorch, 9 attempts since its best: 3 before its window stops it; b does not beat PyTorch yet:
  // the window does not stop it, its budget left counts (35).
  std::vector<sched::ProblemState> ps = {state("a", 1, 10, 5, 20), state("b", 1, 1, 5, 5)};
  ps[0].since_improvement = 9;
  EXPECT_EQ(remaining_attempts(ps, pol, 0), 20 + 35);
  EXPECT_EQ(remaining_attempts(ps, pol, 0, true), 3 + 35);
  // c is past its window but its ranking's lead is a path no attempt ran: the lead alone is left of it
  // unless it improves (before, its whole budget left, 25, was counted).
  ps.push_back(state("c", 1, 10, 5, 15));
  ps[2].since_improvement = 14;
  ps[2].untried_lead = true;
  EXPECT_EQ(remaining_attempts(ps, pol, 0, true), 3 + 35 + 1);
}

TEST(Progress, DurationsAndEta) {
  struct Row {
    double s;
    const char* want;
  };
  for (const Row& r : {Row{0, "0s"}, Row{42.4, "42s"}, Row{185, "3m05s"}, Row{3720, "1h02m"}, Row{-1, "?"}})
    EXPECT_EQ(format_duration(r.s), r.want) << r.s;
  EXPECT_EQ(eta_line(5, 37), "ETA 3m05s (37 attempts left at 5.0 s each)");
  EXPECT_EQ(eta_line(0, 37), "ETA ?");
  EXPECT_EQ(eta_line(5, 37, 120), "ETA 3m05s (37 attempts left unless a problem improves, at most 120; 5.0 s each)");
  EXPECT_EQ(eta_line(5, 37, 37), "ETA 3m05s (37 attempts left at 5.0 s each)");
}

TEST(Progress, RedrawMovesUpAndClears) {
  EXPECT_EQ(redraw({"a", "b"}, 0), "\x1b[2Ka\n\x1b[2Kb\n");
  EXPECT_EQ(redraw({"a"}, 2), "\x1b[2F\x1b[2Ka\n\x1b[2K\n");
}

}  // namespace
}  // namespace ucutlass::report
