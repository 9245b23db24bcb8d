#pragma once
// Which recorded attempts no written solution can hold any more: those whose config ran again later,
// in the same problem, as another program. A resume whose code writes a stale best's configs
// differently measures them again as today's program and writes that one (cmd_optimize's
// adopt_recorded_best), so the earlier program's time stands for no solution: not the problem's best in
// its outcomes (report/store_outcomes.h), nor the scheduler's. Session 19's half a held seven such
// bests, level2/008's at 0.280 ms where today's program of its config failed the tolerance and its best
// runs 0.479 ms.
#include <vector>

#include "store/run_store.h"

namespace ucutlass::store {

// One flag per row of `rows` (one problem's attempts in the order they were made): true where a later
// row has the same config text and another hash, or a later row's config text runs this row's kernels
// with more after them (the problem's mapping gained a kernel since, level2/011's row kernel: that row
// is today's program of this row's configs). A row without config text is never superseded.
std::vector<bool> superseded_attempts(const std::vector<AttemptRow>& rows);

}  // namespace ucutlass::store
