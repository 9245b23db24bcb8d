#pragma once
// A campaign's run store read as suite outcomes (report/suite_summary.h):
// every problem of the store, skipped ones included (they count in fast_p as
// unsolved), with its attempts in the order they were made; a verified
// attempt is one whose harness verdict is "ok" with a measured time, whose
// program did not fail a re-measurement (the confirmations table), and whose
// config did not run later as another program (today's emission of it).
#include <vector>

#include "report/suite_summary.h"
#include "store/run_store.h"

namespace ucutlass::report {

std::vector<ProblemOutcome> outcomes_from_store(const store::RunStore& store);

}  // namespace ucutlass::report
