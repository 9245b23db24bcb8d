#pragma once
// What the ranking model expects of a problem's next attempt, for the budget scheduler
// (sched/budget_scheduler.h: expected_gain). The SOL gap says how much headroom a problem has; it
// does not say whether the next candidate can use it. The model does: on the kernelbench campaign of
// 2026-11-30 (call 4) the GEMV of level1/016, estimated 0.14 ms against a best of 0.30 ms, was never
// scheduled, because problems with wider SOL gaps but no faster candidate left outranked it.
//
// The estimate is calibrated on the problem itself: the model's estimate of the next pick, scaled by
// measured / estimated of the problem's best attempt (the model was 1.03-1.07x optimistic on GEMMs and
// up to several times on some convs: a problem's own ratio carries that).
#include <optional>
#include <vector>

#include "search/config_space.h"
#include "search/refine.h"

namespace ucutlass::search {

struct NextExpectation {
  double ms = 0;             // expected time of the next attempt's whole solution
  bool speculative = false;  // one of its kernels may miss the tolerance
};

// `pick`: the next attempt, a candidate index per GEMM (as the refine loop proposes it); `measured`:
// every attempt so far per GEMM (one entry per attempt in each GEMM's list, in the same order);
// `unmapped_ms`: the ops the solution leaves to PyTorch, priced by the model. Nothing when no attempt
// is correct yet (no calibration) or the pick is empty.
std::optional<NextExpectation> expect_next(const std::vector<std::vector<Candidate>>& candidates,
                                           const std::vector<std::vector<Measured>>& measured,
                                           const std::vector<size_t>& pick, double unmapped_ms);

}  // namespace ucutlass::search
