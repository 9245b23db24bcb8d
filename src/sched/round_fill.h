#pragma once
// How many attempts one problem gets in a round of `ucutlass optimize` (docs/optimize.md, "Rounds").
//
// A round's attempts build in parallel and the round ends with its slowest build (about a minute for
// an SM90 kernel), so a round with fewer attempts than build slots costs the same wall time and leaves
// cores idle. Late in a campaign few problems are open: session 19's second half-a call ran rounds of
// 2-7 attempts on 14 build slots, 54-74 s each, the GPU busy 19 % of the call. So while fewer problems
// are open than the slots can feed at --batch each, each open problem gets an equal share of the slots
// instead (up to kMaxFillFactor times --batch).
//
// Never more than the stop rules would allow one attempt at a time: a problem that beats PyTorch gets
// at most the attempts left in its window (an attempt past the window is one the policy, run one attempt
// at a time, would never have made), and none past its budget.
#include "sched/budget_scheduler.h"

namespace ucutlass::sched {

inline constexpr int kMaxFillFactor = 4;

// Attempts of each open problem this round: `batch`, or with `fill` and fewer than build_slots / batch
// open problems, ceil(build_slots / open_problems), at most kMaxFillFactor * batch.
int round_batch(int batch, int build_slots, int open_problems, bool fill);

// Attempts the window leaves the problem before it may stop it (the whole budget where the window
// does not apply: it has not beaten PyTorch, or a new mapping exempts it); at least 1. An untried lead
// (ProblemState::untried_lead) keeps a problem past its window open for one attempt, the lead, tried
// first: its room is that 1, so a round does not spend more on a problem the window stops unless the
// lead improves it, and remaining_attempts does not count its whole budget as left.
int window_room(const ProblemState& p, const Policy& policy);

}  // namespace ucutlass::sched
