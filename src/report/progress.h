#pragma once
// The live view of `ucutlass optimize DIR`: one line per problem (status,
// attempts, best speedup, gap to SOL) and an overall ETA from the mean
// attempt time. On a terminal the block is redrawn in place; otherwise the
// caller prints plain log lines. Pure functions, so they are tested as text.
#include <string>
#include <vector>

#include "sched/budget_scheduler.h"

namespace ucutlass::report {

// "name  stopped:near-sol  12/40 attempts  best 2.31x  3.4x SOL"
std::string progress_line(const sched::ProblemState& p, const std::string& status, int budget, size_t name_width);

// Attempts the policy may still spend: each open problem's budget left,
// capped by the suite budget left. `unless_improved`: each open problem's room
// before its window stops it (sched::window_room) where that is less, the
// attempts left if no problem improves again (a campaign near its end is
// bounded by its windows, not by the per-problem budgets: kernelbench's half b
// showed 807 attempts left in session 25, a budget no window would reach).
int remaining_attempts(const std::vector<sched::ProblemState>& problems, const sched::Policy& policy, int used,
                       bool unless_improved = false);

// Problems the policy would still give attempts to (open, candidates not spent): the ones
// remaining_attempts counts.
int open_problems(const std::vector<sched::ProblemState>& problems, const sched::Policy& policy);

// "42s", "3m05s", "1h02m"; "?" for a negative or non-finite value.
std::string format_duration(double seconds);

// "ETA 3m05s (37 attempts left at 5.0 s each)"; "ETA ?" before any attempt. With
// `at_most` above `remaining` (the windows' count against the budgets'):
// "ETA 3m05s (37 attempts left unless a problem improves, at most 120; 5.0 s each)".
std::string eta_line(double mean_attempt_s, int remaining, int at_most = -1);

// Terminal text that replaces the `previous` lines drawn last time with
// `lines`: cursor up, each line cleared and written.
std::string redraw(const std::vector<std::string>& lines, size_t previous);

}  // namespace ucutlass::report
