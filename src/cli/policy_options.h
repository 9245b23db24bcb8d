#pragma once
// The stopping policy's options (sched::Policy), shared by `optimize`, which runs it, and `replay`, which
// applies it to recorded attempts: the same flags, defaults and checks in both. A value the rules cannot
// mean is refused with CLI11's "--window: Value 0 not in range 1 to ..." and exit 2, not run: a zero
// window would stop every winner at once, a budget of 0 or less was read as no budget at all.
#include <CLI/CLI.hpp>

#include "sched/budget_scheduler.h"

namespace ucutlass::cli {

void add_policy_options(CLI::App& app, sched::Policy& policy);

}  // namespace ucutlass::cli
