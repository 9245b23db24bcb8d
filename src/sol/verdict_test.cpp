#include "sol/verdict.h"

#include <gtest/gtest.h>

namespace ucutlass::sol {
namespace {

TEST(SolExecBenchScore, HalfAtBaselineOneAtSol) {
  struct Case {
    double t_kernel, t_baseline, t_sol;
    std::optional<double> score;
  };
  const std::vector<Case> cases = {
      {10, 10, 2, 0.5},          // at the baseline
      {2, 10, 2, 1.0},           // at SOL
      {6, 10, 2, 1 / (1 + 4.0 / 8)},
      {18, 10, 2, 1 / (1 + 16.0 / 8)},  // slower than the baseline
      {1, 10, 2, 1 / (1 - 1.0 / 8)},    // faster than SOL: above 1
      {5, 2, 2, std::nullopt},   // baseline at the bound: undefined
      {5, 1, 2, std::nullopt},   // baseline below the bound: undefined
  };
  for (const Case& c : cases) {
    std::optional<double> s = sol_execbench_score(c.t_kernel, c.t_baseline, c.t_sol);
    ASSERT_EQ(s.has_value(), c.score.has_value()) << c.t_kernel << " " << c.t_baseline;
    if (s) EXPECT_DOUBLE_EQ(*s, *c.score) << c.t_kernel << " " << c.t_baseline;
  }
}

TEST(TooFast, BelowTheBoundBeyondNoise) {
  struct Case {
    double t, t_sol, delta;
    bool too_fast;
  };
  const std::vector<Case> cases = {
      {1.00, 1.0, 0.05, false}, {0.96, 1.0, 0.05, false}, {0.95, 1.0, 0.05, false},
      {0.94, 1.0, 0.05, true},  {0.50, 1.0, 0.10, true},  {0.91, 1.0, 0.10, false}, {2.0, 1.0, 0.0, false},
  };
  for (const Case& c : cases) EXPECT_EQ(is_too_fast(c.t, c.t_sol, c.delta), c.too_fast) << c.t << " vs " << c.t_sol;
}

TEST(Judge, VerdictsAndGaps) {
  Verdict ok = judge(2.0, 1.0, std::nullopt, 4.0, 0.05);
  EXPECT_EQ(ok.verdict, "ok");
  EXPECT_DOUBLE_EQ(ok.gap, 2.0);
  EXPECT_DOUBLE_EQ(*ok.score, 1 / (1 + 1.0 / 3));

  EXPECT_EQ(judge(0.5, 1.0, std::nullopt, std::nullopt, 0.05).verdict, "too-fast");
  // Degenerate problem: below the traced bound but above the reduced one.
  Verdict d = judge(0.5, 1.0, 0.2, std::nullopt, 0.05);
  EXPECT_EQ(d.verdict, "exploits-degeneracy");
  EXPECT_DOUBLE_EQ(*d.gap_reduced, 2.5);
  EXPECT_EQ(judge(0.1, 1.0, 0.2, std::nullopt, 0.05).verdict, "too-fast");
  Verdict no_score = judge(2.0, 1.0, std::nullopt, 0.9, 0.05);
  EXPECT_FALSE(no_score.score);
  EXPECT_EQ(no_score.score_note, "the baseline is not slower than the bound, so the score is undefined");
}

}  // namespace
}  // namespace ucutlass::sol
