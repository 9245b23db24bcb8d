#include "sched/policy_sweep.h"

#include <sstream>

#include "support/printf_string.h"

namespace ucutlass::sched {

std::vector<double> default_sweep_epsilons() { return {0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0}; }

std::vector<int> default_sweep_windows() { return {1, 2, 3, 4, 6, 8, 12, 16}; }

Sweep sweep_policies(const std::vector<RecordedProblem>& recorded, const Policy& base,
                     const std::vector<double>& epsilons, const std::vector<int>& windows, double keep) {
  Sweep s;
  s.keep = keep;
  for (double eps : epsilons)
    for (int w : windows) {
      Policy p = base;
      p.epsilon = eps;
      p.window = w;
      SweepRow row{p, replay(recorded, p)};
      row.summary.problems.clear();
      s.rows.push_back(std::move(row));
    }
  for (size_t i = 0; i < s.rows.size(); ++i) {
    const ReplaySummary& r = s.rows[i].summary;
    // A relative tolerance: geomean_kept is a ratio of products, equal policies may differ in the last bits.
    if (r.geomean_kept + 1e-12 < keep) continue;
    if (s.best < 0) {
      s.best = static_cast<int>(i);
      continue;
    }
    const ReplaySummary& b = s.rows[static_cast<size_t>(s.best)].summary;
    if (r.attempts_policy < b.attempts_policy ||
        (r.attempts_policy == b.attempts_policy && r.geomean_kept > b.geomean_kept + 1e-12))
      s.best = static_cast<int>(i);
  }
  return s;
}

std::string sweep_text(const Sweep& s) {
  std::ostringstream o;
  if (!s.rows.empty()) {
    const Policy& p = s.rows.front().policy;
    o << printf_string("policy sweep: per-problem budget %d%s; a policy keeps >= %.0f %% of the fixed geomean\n",
                       p.per_problem_budget,
                       p.total_budget > 0 ? (", suite budget " + std::to_string(p.total_budget)).c_str() : "", s.keep * 100);
  }
  o << printf_string("%9s %7s %9s %8s %10s %8s %11s\n", "epsilon", "window", "attempts", "saved",
                     "geomean", "kept", "efficiency");
  for (size_t i = 0; i < s.rows.size(); ++i) {
    const SweepRow& r = s.rows[i];
    const ReplaySummary& m = r.summary;
    o << printf_string("%8.0f%% %7d %4d/%-4d %7.1f%% %9.3fx %7.1f%% %10.2fx%s\n", r.policy.epsilon * 100,
                       r.policy.window, m.attempts_policy, m.attempts_fixed, m.attempts_saved * 100, m.geomean_policy,
                       m.geomean_kept * 100, m.efficiency_gain,
                       static_cast<int>(i) == s.best ? "  <- best" : m.geomean_kept + 1e-12 >= s.keep ? "  keeps" : "");
  }
  if (s.best >= 0) {
    const SweepRow& b = s.rows[static_cast<size_t>(s.best)];
    o << printf_string("best: epsilon %.0f %%, window %d saves %.1f %% of the attempts and keeps %.1f %% of the geomean\n",
                       b.policy.epsilon * 100, b.policy.window, b.summary.attempts_saved * 100, b.summary.geomean_kept * 100);
  } else {
    o << printf_string("no policy of the grid keeps %.0f %% of the fixed geomean\n", s.keep * 100);
  }
  return o.str();
}

}  // namespace ucutlass::sched
