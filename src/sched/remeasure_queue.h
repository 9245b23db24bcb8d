#pragma once
// Which written solutions a round of `ucutlass optimize` evaluates again (docs/optimize.md,
// "Re-measured solutions"). A problem's modelnew.py is re-measured once per program it holds, in the
// harness's own timing window, and recorded beside the attempts (store::ConfirmationRow): the figure a
// user re-running the solution sees, not the fastest of many one-shot measurements.
//
// A solution written by this run was built by it, so its re-measurement is an evaluation of a few
// seconds and no build; every such one is due. One adopted from a store (an earlier device call's
// best) needs its extension built again first, as an attempt does, so at most `cap_builds` of those
// join a round, in problem order, and the rest wait for later rounds: a resumed campaign's first
// rounds stay mostly search.
#include <cstddef>
#include <vector>

namespace ucutlass::sched {

struct WrittenSolution {
  bool written = false;     // modelnew.py holds a measured program (not the ranking's untried pick)
  bool remeasured = false;  // the store has a re-measurement of that program (whatever its verdict)
  bool built_here = false;  // this run built it (an attempt of this run)
};

// Indices into `solutions` to re-measure this round: every unmeasured one built here, then up to
// `cap_builds` of the unmeasured others.
std::vector<size_t> remeasures_due(const std::vector<WrittenSolution>& solutions, size_t cap_builds);

}  // namespace ucutlass::sched
