#pragma once
// Whether a round of `ucutlass optimize` is worth starting in the wall budget left (docs/optimize.md,
// "Rounds").
//
// A round gives nothing until its first build is done and evaluated (41-55 s into a round of session
// 22's calls), and nothing starts after --wall-budget, so a round begun with less time left than that
// only builds: session 22's first call ended with such a round, 48 builds and no result in 57 s of a
// 509 s call (11 % of its device time). A round begun with a little more buys a few
// evaluations at the device time of a whole round's wait. So a round starts when the time left covers
// the slowest first result this run has seen plus kMinEvaluations evaluations of its median length
// (all of them, for a round of fewer: late in a campaign a round holds 2-7 attempts).
#include <optional>

namespace ucutlass::sched {

// At the rate of a whole call (session 22: 116 attempts in 509 s, about one per 4.4 s), a round's
// wait of ~50 s is worth about ten attempts; fewer than that is device time better handed back.
inline constexpr int kMinEvaluations = 10;

struct RoundPace {
  std::optional<double> slowest_first_result_s;  // from a round's start to its first result, this run
  std::optional<double> median_evaluation_s;     // one evaluation's wall time on one GPU, this run
};

// Seconds a round of `evaluations` planned evaluations must have left to pay for itself; nullopt while
// the run has no finished round with a result to judge by (the first round always starts).
std::optional<double> round_needs_s(const RoundPace& pace, int gpus, int evaluations);

}  // namespace ucutlass::sched
