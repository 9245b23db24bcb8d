#include "sched/round_start.h"

#include <algorithm>

namespace ucutlass::sched {

std::optional<double> round_needs_s(const RoundPace& pace, int gpus) {
  if (!pace.slowest_first_result_s || !pace.median_evaluation_s) return std::nullopt;
  // The GPUs evaluate side by side, so the evaluations after the first take 1/gpus of their time each.
  return *pace.slowest_first_result_s + kMinEvaluations * *pace.median_evaluation_s / std::max(1, gpus);
}

}  // namespace ucutlass::sched
