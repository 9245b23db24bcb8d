#pragma once
// A grid of stopping policies replayed over one campaign's recorded attempts
// (budget_scheduler.h's replay), the way the paper chose its epsilon and window:
// which policies save the most attempts while keeping a given share of the
// fixed-budget geomean. `ucutlass replay STORE --sweep`.
#include <string>
#include <vector>

#include "sched/budget_scheduler.h"

namespace ucutlass::sched {

struct SweepRow {
  Policy policy;
  ReplaySummary summary;  // its per-problem rows are dropped: only the totals matter here
};

struct Sweep {
  std::vector<SweepRow> rows;  // every (epsilon, window), epsilon-major in the order given
  double keep = 0.95;          // the share of the fixed-budget geomean a policy must keep
  int best = -1;               // the row saving the most attempts among those that keep it, -1 if none
};

// The default grid: epsilon 10 % .. 1000 %, window 1 .. 16 (the paper's picks, 250 %/12 and
// 25 %/16, among them).
std::vector<double> default_sweep_epsilons();
std::vector<int> default_sweep_windows();

// `base` gives the budgets; each row replaces its epsilon and window. Ties on attempts saved go
// to the larger geomean kept, then to the earlier row.
Sweep sweep_policies(const std::vector<RecordedProblem>& recorded, const Policy& base,
                     const std::vector<double>& epsilons, const std::vector<int>& windows, double keep);

std::string sweep_text(const Sweep& s);

}  // namespace ucutlass::sched
