#include "sol/verdict.h"

namespace ucutlass::sol {

std::optional<double> sol_execbench_score(double t_kernel, double t_baseline, double t_sol) {
  if (!(t_baseline > t_sol)) return std::nullopt;
  return 1.0 / (1.0 + (t_kernel - t_sol) / (t_baseline - t_sol));
}

bool is_too_fast(double t, double t_sol, double delta) { return t < t_sol * (1.0 - delta); }

Verdict judge(double t, double t_sol, std::optional<double> t_sol_reduced, std::optional<double> t_baseline,
              double delta) {
  Verdict v;
  v.gap = t_sol > 0 ? t / t_sol : 0;
  if (t_sol_reduced && *t_sol_reduced > 0) v.gap_reduced = t / *t_sol_reduced;
  const double floor = t_sol_reduced ? *t_sol_reduced : t_sol;
  if (t_baseline) {
    v.score = sol_execbench_score(t, *t_baseline, floor);
    if (!v.score) v.score_note = "the baseline is not slower than the bound, so the score is undefined";
  }
  if (is_too_fast(t, floor, delta))
    v.verdict = "too-fast";
  else if (is_too_fast(t, t_sol, delta))
    v.verdict = "exploits-degeneracy";
  else
    v.verdict = "ok";
  return v;
}

}  // namespace ucutlass::sol
