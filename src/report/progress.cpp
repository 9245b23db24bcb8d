#include "report/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sched/round_fill.h"
#include "support/printf_string.h"

namespace ucutlass::report {

std::string progress_line(const sched::ProblemState& p, const std::string& status, int budget, size_t name_width) {
  char best[32] = "best -", gap[32] = "";
  if (p.best_ms && p.eager_ms > 0) std::snprintf(best, sizeof best, "best %.2fx", p.eager_ms / *p.best_ms);
  else if (p.best_ms) std::snprintf(best, sizeof best, "best %.3g ms", *p.best_ms);
  if (p.best_ms && p.sol_ms > 0) std::snprintf(gap, sizeof gap, "  %.1fx SOL", *p.best_ms / p.sol_ms);
  return printf_string("%-*s  %-22s %3d/%d attempts  %s%s", static_cast<int>(name_width), p.name.c_str(), status.c_str(),
                       p.attempts, budget, best, gap);
}

namespace {
bool open(const sched::ProblemState& p, const sched::Policy& policy) {
  return sched::stop_reason(p, policy) == sched::StopReason::none && !p.exhausted;
}
}  // namespace

int open_problems(const std::vector<sched::ProblemState>& problems, const sched::Policy& policy) {
  return static_cast<int>(std::count_if(problems.begin(), problems.end(), [&](const sched::ProblemState& p) { return open(p, policy); }));
}

int remaining_attempts(const std::vector<sched::ProblemState>& problems, const sched::Policy& policy, int used,
                       bool unless_improved) {
  int left = 0;
  for (const sched::ProblemState& p : problems)
    if (open(p, policy)) {
      const int budget_left = std::max(0, policy.per_problem_budget - p.attempts);
      left += unless_improved ? std::min(budget_left, sched::window_room(p, policy)) : budget_left;
    }
  if (policy.total_budget > 0) left = std::min(left, std::max(0, policy.total_budget - used));
  return left;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  char out[32];
  if (s < 60) std::snprintf(out, sizeof out, "%lds", s);
  else if (s < 3600) std::snprintf(out, sizeof out, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(out, sizeof out, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  return out;
}

std::string eta_line(double mean_attempt_s, int remaining, int at_most) {
  if (mean_attempt_s <= 0) return "ETA ?";
  const std::string eta = format_duration(mean_attempt_s * remaining);
  if (at_most > remaining)
    return printf_string("ETA %s (%d attempts left unless a problem improves, at most %d; %.1f s each)", eta.c_str(), remaining,
                         at_most, mean_attempt_s);
  return printf_string("ETA %s (%d attempts left at %.1f s each)", eta.c_str(), remaining, mean_attempt_s);
}

std::string redraw(const std::vector<std::string>& lines, size_t previous) {
  std::string out;
  if (previous > 0) out += "\x1b[" + std::to_string(previous) + "F";  // to the start of the first old line
  for (const std::string& l : lines) out += "\x1b[2K" + l + "\n";
  for (size_t i = lines.size(); i < previous; ++i) out += "\x1b[2K\n";  // blank what the old block had beyond
  return out;
}

}  // namespace ucutlass::report
