#include "sched/budget_scheduler.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "support/printf_string.h"

namespace ucutlass::sched {

namespace {

// Relative improvement below which a new best counts as noise, not progress.
constexpr double kImprovement = 0.01;

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 1;
  double s = 0;
  for (double x : v) s += std::log(x);
  return std::exp(s / static_cast<double>(v.size()));
}

}  // namespace

std::string stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::none: return "open";
    case StopReason::near_sol: return "near-sol";
    case StopReason::no_improvement: return "no-improvement";
    case StopReason::budget: return "budget";
    case StopReason::exhausted: return "exhausted";
  }
  return "?";
}

void record_attempt(ProblemState& p, std::optional<double> time_ms) {
  ++p.attempts;
  if (time_ms && (!p.best_ms || *time_ms < *p.best_ms * (1 - kImprovement))) {
    p.best_ms = time_ms;
    p.since_improvement = 0;
    return;
  }
  if (time_ms && *time_ms < *p.best_ms) p.best_ms = time_ms;  // keep the faster one, but it is not progress
  ++p.since_improvement;
}

StopReason stop_reason(const ProblemState& p, const Policy& policy) {
  if (p.stale_best) return StopReason::none;
  if (p.beats_pytorch() && p.sol_ms > 0 && *p.best_ms <= (1 + policy.epsilon) * p.sol_ms) return StopReason::near_sol;
  if (p.beats_pytorch() && p.since_improvement >= policy.window && !p.new_mapping && !p.untried_lead)
    return StopReason::no_improvement;
  if (policy.per_problem_budget > 0 && p.attempts >= policy.per_problem_budget) return StopReason::budget;
  if (p.exhausted) return StopReason::exhausted;
  return StopReason::none;
}

double expected_gain(const ProblemState& p) {
  if (p.stale_best) return kStaleBestGain;
  const double sol = p.sol_ms > 0 ? p.sol_ms : 1e-6;
  const double reference = p.best_ms ? *p.best_ms : (p.eager_ms > 0 ? p.eager_ms : sol * 10);
  double gap = std::log(std::max(reference / sol, 1.0)) + (p.best_ms ? 0.0 : 1.0);  // unsolved: a first solution is worth most
  const double headroom = gap * std::pow(0.85, p.since_improvement);
  if (!p.best_ms || !p.next_expected_ms || *p.next_expected_ms <= 0) return headroom;
  const double expected = std::log(*p.best_ms / *p.next_expected_ms) * (p.next_speculative ? 0.5 : 1.0);
  return std::max(expected, kExploreWeight * headroom);
}

int pick_next(const std::vector<ProblemState>& problems, const Policy& policy, int used) {
  if (policy.total_budget > 0 && used >= policy.total_budget) return -1;
  int best = -1;
  double best_gain = -1;
  for (size_t i = 0; i < problems.size(); ++i) {
    if (stop_reason(problems[i], policy) != StopReason::none) continue;
    const double g = expected_gain(problems[i]);
    if (g > best_gain) {
      best_gain = g;
      best = static_cast<int>(i);
    }
  }
  return best;
}

int fixed_attempts(const RecordedProblem& r, const Policy& policy) {
  const int recorded = static_cast<int>(r.attempts.size());
  return policy.per_problem_budget > 0 ? std::min(recorded, policy.per_problem_budget) : recorded;
}

ReplaySummary replay(const std::vector<RecordedProblem>& recorded, const Policy& policy) {
  ReplaySummary s;
  std::vector<ProblemState> states;
  std::vector<size_t> next(recorded.size(), 0);
  for (const RecordedProblem& r : recorded) {
    ProblemState p;
    p.name = r.name;
    p.sol_ms = r.sol_ms;
    p.eager_ms = r.eager_ms;
    p.exhausted = r.attempts.empty();
    states.push_back(p);
  }
  int used = 0;
  for (int i; (i = pick_next(states, policy, used)) >= 0;) {
    record_attempt(states[i], recorded[i].attempts[next[i]++].time_ms);
    states[i].exhausted = next[i] >= recorded[i].attempts.size();
    ++used;
  }
  std::vector<double> policy_speedups, fixed_speedups;
  for (size_t i = 0; i < recorded.size(); ++i) {
    ReplayProblem rp;
    rp.name = recorded[i].name;
    rp.attempts_used = states[i].attempts;
    rp.attempts_recorded = static_cast<int>(recorded[i].attempts.size());
    rp.attempts_fixed = fixed_attempts(recorded[i], policy);
    rp.speedup_policy = states[i].speedup();
    rp.reason = stop_reason(states[i], policy);
    ProblemState all;
    all.eager_ms = recorded[i].eager_ms;
    for (int k = 0; k < rp.attempts_fixed; ++k) record_attempt(all, recorded[i].attempts[k].time_ms);
    rp.speedup_fixed = all.speedup();
    s.attempts_policy += rp.attempts_used;
    s.attempts_fixed += rp.attempts_fixed;
    policy_speedups.push_back(rp.speedup_policy > 0 ? rp.speedup_policy : 1);
    fixed_speedups.push_back(rp.speedup_fixed > 0 ? rp.speedup_fixed : 1);
    s.problems.push_back(rp);
  }
  s.geomean_policy = geomean(policy_speedups);
  s.geomean_fixed = geomean(fixed_speedups);
  s.geomean_kept = s.geomean_policy / s.geomean_fixed;
  if (s.attempts_fixed > 0) s.attempts_saved = 1 - static_cast<double>(s.attempts_policy) / s.attempts_fixed;
  if (s.attempts_policy > 0) s.efficiency_gain = s.geomean_kept * s.attempts_fixed / s.attempts_policy;
  return s;
}

std::string replay_text(const ReplaySummary& s, const Policy& policy) {
  std::ostringstream o;
  o << printf_string("policy: epsilon %.0f %%, window %d, per-problem budget %d%s\n", policy.epsilon * 100, policy.window,
                     policy.per_problem_budget,
                     policy.total_budget > 0 ? (", suite budget " + std::to_string(policy.total_budget)).c_str() : "");
  // attempts/speedup: the policy's; fixed: the fixed budget's (the first --budget recorded attempts).
  o << printf_string("%-40s %8s %6s %8s %9s %9s  %s\n", "problem", "attempts", "fixed", "recorded", "speedup",
                     "fixed", "stop");
  for (const ReplayProblem& p : s.problems) {
    o << printf_string("%-40s %8d %6d %8d %8.2fx %8.2fx  %s\n", p.name.c_str(), p.attempts_used, p.attempts_fixed,
                       p.attempts_recorded, p.speedup_policy, p.speedup_fixed, stop_reason_name(p.reason).c_str());
  }
  o << printf_string("attempts %d of %d (%.0f %% saved); geomean speedup %.3fx vs %.3fx (%.1f %% kept); efficiency gain %.2fx\n",
                     s.attempts_policy, s.attempts_fixed, s.attempts_saved * 100, s.geomean_policy, s.geomean_fixed,
                     s.geomean_kept * 100, s.efficiency_gain);
  return o.str();
}

}  // namespace ucutlass::sched
