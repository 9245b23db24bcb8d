#pragma once
// The suite summary of a campaign: the paper's and KernelBench's metrics
// (shared/facts/paper.md, shared/facts/kernelbench.md) over the problems of
// one run, computed in one place for `ucutlass optimize DIR` and
// `ucutlass replay STORE`.
//
// Conventions (KernelBench's):
//   speedup   = baseline time / best verified time (eager, or torch.compile);
//   fast_p    = fraction of ALL problems that have a verified solution AND a
//               speedup > p (strictly), for p in {0, 0.5, 0.8, 1, 1.5, 2};
//               fast_0 is the correctness rate;
//   geomean / median speedup are over the problems with a verified solution
//               and a measured baseline only (unsolved ones are excluded, not
//               counted as 1 or 0);
//   suite geomean = over ALL problems: a verified one at its speedup, an
//               unsolved one at 1 (its user keeps PyTorch), so a suite cannot
//               look faster by leaving its hard problems out;
//   a win is a speedup > 1: no solution slower than the baseline is a win;
//   SOL fraction = t_SOL / t_best (1 = at the fused bound; > 1 = faster than
//               the bound, a violation to explain).
// Attempt-Fast-p(2) is fast_2 using only each problem's first n attempts.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ucutlass::report {

struct ProblemOutcome {
  std::string name;
  double sol_ms = 0;      // 0 = unknown
  double eager_ms = 0;    // 0 = not measured
  double compile_ms = 0;  // torch.compile; 0 = not measured
  // Every attempt in the order it was made; a value only for a verified
  // (correct) result, its time in ms.
  std::vector<std::optional<double>> attempts;
  // The fastest verified attempt's program evaluated again as the written solution
  // (store::ConfirmationRow); none where it was not (yet). `ok` false: it failed there, and the
  // re-measured figures count the problem as unsolved.
  struct Remeasured {
    bool ok = false;
    double time_ms = 0;
    double eager_ms = 0;  // eager timed beside it (same worker, same inputs); 0: not timed there
  };
  std::optional<Remeasured> remeasured;
  // Recorded runs folded into an earlier attempt of their config (report::Reruns::folded; else 0).
  int reruns_folded = 0;

  std::optional<double> best_ms(size_t first_n = SIZE_MAX) const;
  // The time the re-measured figures use: the re-measurement where there is one, else best_ms().
  std::optional<double> remeasured_best_ms() const;
  // The re-measured figures' speedup over eager: against the eager time measured beside the
  // re-measurement where it was (a ratio of one run), else against eager_ms; 0 when unsolved.
  double remeasured_speedup_eager() const;
};

inline constexpr double kFastP[] = {0, 0.5, 0.8, 1, 1.5, 2};
inline constexpr size_t kFastPCount = sizeof kFastP / sizeof kFastP[0];

// Speedups of the verified problems against one baseline.
struct SpeedupStats {
  int counted = 0;  // verified problems with this baseline measured
  double geomean = 0, median = 0;  // 0 when counted == 0
  double suite_geomean = 1;        // over ALL problems, unsolved (or baseline unmeasured) as 1
  int wins = 0;                    // speedup > 1
  double fast_p[kFastPCount] = {};  // over ALL problems
};

struct SuiteSummary {
  int problems = 0;
  int verified = 0;  // problems with at least one verified attempt
  int attempts = 0;
  SpeedupStats eager, compile;
  int sol_counted = 0;
  double sol_fraction_median = 0;  // of t_SOL / t_best
  int sol_violations = 0;          // t_best < t_SOL
  // The same against eager with each best replaced by its re-measurement where there is one
  // (ProblemOutcome::remeasured_best_ms): the figure a user re-running the written solutions sees.
  SpeedupStats eager_remeasured;
  int remeasured = 0;         // verified problems whose best was re-measured and passed again
  int remeasured_failed = 0;  // ... and failed there (unsolved in the re-measured figures)
  int remeasure_pending = 0;  // verified problems whose best has no re-measurement
  int remeasured_eager_beside = 0;  // passed re-measurements with eager timed beside them
  // attempt_fast2[n-1]: fast_2 vs eager with each problem's first n attempts,
  // n = 1 .. the most attempts any problem used.
  std::vector<double> attempt_fast2;
};

double speedup(double baseline_ms, std::optional<double> best_ms);  // 0 when either is missing
double median(std::vector<double> v);                               // 0 for none
double geomean(const std::vector<double>& v);                       // 0 for none

// fast_p against eager with the first n attempts of each problem, n = 1..max.
std::vector<double> attempt_fast_p(const std::vector<ProblemOutcome>& outcomes, double p);

SuiteSummary summarize(const std::vector<ProblemOutcome>& outcomes);

std::string summary_text(const SuiteSummary& s);
nlohmann::json summary_json(const SuiteSummary& s);

}  // namespace ucutlass::report
