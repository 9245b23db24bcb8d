#include "sched/round_fill.h"

#include <algorithm>
#include <climits>

namespace ucutlass::sched {

int round_batch(int batch, int build_slots, int open_problems, bool fill) {
  batch = std::max(batch, 1);
  if (!fill || open_problems <= 0 || build_slots <= batch * open_problems) return batch;
  const int share = (build_slots + open_problems - 1) / open_problems;
  return std::min(share, kMaxFillFactor * batch);
}

int window_room(const ProblemState& p, const Policy& policy) {
  // An untried lead is not exempt here: it exempts one attempt, the lead, which the window counts like
  // any other, so a problem at its window's end has room for the lead alone (the 1 below) unless it improves.
  if (!p.beats_pytorch() || p.new_mapping || p.stale_best) return INT_MAX;
  return std::max(1, policy.window - p.since_improvement);
}

}  // namespace ucutlass::sched
