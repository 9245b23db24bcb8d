#include "sched/remeasure_queue.h"

namespace ucutlass::sched {

std::vector<size_t> remeasures_due(const std::vector<WrittenSolution>& solutions, size_t cap_builds) {
  std::vector<size_t> due;
  for (size_t i = 0; i < solutions.size(); ++i)
    if (solutions[i].written && !solutions[i].remeasured && solutions[i].built_here) due.push_back(i);
  size_t builds = 0;
  for (size_t i = 0; i < solutions.size() && builds < cap_builds; ++i)
    if (solutions[i].written && !solutions[i].remeasured && !solutions[i].built_here) {
      due.push_back(i);
      ++builds;
    }
  return due;
}

}  // namespace ucutlass::sched
