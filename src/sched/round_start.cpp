#include "sched/round_start.h"

#include <algorithm>

namespace ucutlass::sched {

std::optional<double> round_needs_s(const RoundPace& pace, int gpus, int evaluations) {
  if (!pace.slowest_first_result_s || !pace.median_evaluation_s) return std::nullopt;
  // The GPUs evaluate side by side, so each evaluation takes 1/gpus of its time from the round's.
  const int counted = std::clamp(evaluations, 1, kMinEvaluations);
  return *pace.slowest_first_result_s + counted * *pace.median_evaluation_s / std::max(1, gpus);
}

}  // namespace ucutlass::sched
