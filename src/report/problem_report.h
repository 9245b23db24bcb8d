#pragma once
// The measured half of a problem's report.txt: what its attempts on the GPU
// gave, written after the GPU step under the ranking model's predictions. A
// best solution slower than eager PyTorch is said to be one, never a win: it
// is still written (a KernelBench solution holds a custom kernel), but a user
// must not mistake it for an improvement.
#include <string>
#include <vector>

#include "store/run_store.h"

namespace ucutlass::report {

// The first line of the section; report.txt is cut there before rewriting it.
inline constexpr const char* kMeasuredHeading = "measured on the GPU";

// `sol_ms` is the problem's t_SOL; eager and torch.compile times come from the
// rows (each attempt records the baseline it was judged against).
// `remeasured`: the problem's re-measurements (store::ConfirmationRow); the best attempt's, if any, gets a
// line of its own with the speedup a user re-running the written solution sees, against eager timed
// beside it where it was, and "not a win" where that is not above 1x whatever the attempt measured.
// `standing`: one flag per row, which attempts can stand for the written solution
// (report::standing_attempts); the best is the fastest of those, so the report speaks of the program
// written, not of a faster one a failed re-measurement discredited or today's code writes differently.
// Empty: every verified row stands. `withdrawn`: with no standing best, why no modelnew.py is written
// (cmd_optimize's withdraw_failed_pick); "" where the unmeasured best-ranked pick is.
std::string measured_section(const std::vector<store::AttemptRow>& rows, double sol_ms,
                             const std::vector<store::ConfirmationRow>& remeasured = {},
                             const std::vector<bool>& standing = {}, const std::string& withdrawn = "");

// `report` with its measured section (if any) replaced by `section`.
std::string with_measured_section(const std::string& report, const std::string& section);

}  // namespace ucutlass::report
