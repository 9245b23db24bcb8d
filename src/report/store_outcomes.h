#pragma once
// A campaign's run store read as suite outcomes (report/suite_summary.h):
// every problem of the store, skipped ones included (they count in fast_p as
// unsolved), with its attempts in the order they were made; a verified
// attempt is one whose harness verdict is "ok" with a measured time, whose
// program did not fail a re-measurement (the confirmations table), and whose
// config did not run later as another program (today's emission of it).
#include <set>
#include <string>
#include <vector>

#include "report/suite_summary.h"
#include "store/run_store.h"

namespace ucutlass::report {

// How a config that ran more than once in a problem stands among its attempts.
enum class Reruns {
  // Every recorded run is an attempt, as the live scheduler spent them; a superseded one
  // (store/superseded.h) is an attempt with no verified result.
  each_counts,
  // Each config is one attempt, at its first run, with the result of its latest program: the sequence a
  // campaign started today would make (today's code writes each config as that program). Replay compares
  // stopping policies on it, so that a stale first run a later session measured again (session 19's
  // resumes: level2/002's first bf16 attempt, re-run third) does not read as a policy's miss.
  folded,
};

std::vector<ProblemOutcome> outcomes_from_store(const store::RunStore& store, Reruns reruns = Reruns::each_counts);

// One flag per row of `rows` (`problem`'s attempts in the order they were made): true where the attempt
// can stand for a written solution: verdict "ok" with a time, its program not discredited by a failed
// re-measurement (store/discredited.h), its config not run later as another program (store/superseded.h).
// The problem's best is the fastest of these, for the summary and the report alike.
std::vector<bool> standing_attempts(const store::RunStore& store, const std::string& problem,
                                    const std::vector<store::AttemptRow>& rows);
// The same with the discredited programs given (store::discredited_programs(...).programs), for a caller
// that holds them already.
std::vector<bool> standing_attempts(const std::vector<store::AttemptRow>& rows, const std::set<std::string>& discredited);

// Eager's time in a re-measurement's own result (the optimizer times it beside each one); 0 when not.
double eager_beside_ms(const store::ConfirmationRow& c);

// A re-measurement that passed with eager timed beside it and was no faster than eager: what a user
// running the solution sees is no win, whatever its attempt measured.
bool remeasured_not_faster(const store::ConfirmationRow& c);

}  // namespace ucutlass::report
