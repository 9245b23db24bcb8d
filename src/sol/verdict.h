#pragma once
// Judging a measured time against the bound: the gap g = t / t_SOL, NVIDIA's
// SOL-ExecBench score, and the `too-fast` verdict that flags results faster
// than any honest kernel can be.
#include <optional>
#include <string>

namespace ucutlass::sol {

// S = 1 / (1 + (T_k - T_SOL) / (T_b - T_SOL)): 0.5 at the baseline, 1 at the
// bound. Undefined (nullopt) when the baseline itself is at or below the bound.
std::optional<double> sol_execbench_score(double t_kernel, double t_baseline, double t_sol);

// True when t < t_sol * (1 - delta): faster than the bound beyond timing noise.
bool is_too_fast(double t, double t_sol, double delta);

struct Verdict {
  double gap = 0;                      // t / t_SOL, against the bound of the graph as traced
  std::optional<double> gap_reduced;   // against the reduced problem's bound, when degenerate
  std::optional<double> score;         // with a baseline time
  std::string score_note;              // why there is no score, when there is none
  // "ok"; "too-fast" (below the honest floor: the reduced bound when the
  // problem is degenerate, else the bound); "exploits-degeneracy" (below the
  // bound as traced, but not below the reduced one).
  std::string verdict;
};

Verdict judge(double t, double t_sol, std::optional<double> t_sol_reduced, std::optional<double> t_baseline,
              double delta);

}  // namespace ucutlass::sol
