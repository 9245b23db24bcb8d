#pragma once
// Evaluating several solutions of one problem through the harness in one go:
// `python3 -m ucutlass_harness batch`, which imports (and so builds) the
// solutions' extensions in parallel first, then evaluates them one after the
// other, each in a fresh isolated worker (forked from a server that already
// imported torch). One batch instead of one `eval` process per solution turns
// nvcc time from serial into parallel and drops the per-solution interpreter
// start-up; isolation and verdicts stay exactly those of `eval`.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ucutlass {

struct BatchEvalOptions {
  std::string profile = "kernelbench";    // tolerance profile
  std::string backend = "cutlass";
  std::string device_type = "cuda";       // "cpu": the harness's CPU mode (tests on machines without a GPU)
  int correct_trials = 5, timing_trials = 100;
  double timing_min_ms = -1;              // timed trials last at least this long; < 0: the harness default
  // Unix time after which no build or evaluation starts (0: none); those solutions come back with
  // verdict "not_run" and were not evaluated.
  double deadline_unix_s = 0;
  double sol_ms = 0;                      // 0: not passed
  std::string baselines = "none";         // "eager,compile", "eager" or "none"
  int prebuild_jobs = 2;
  std::string ext_cache;                  // TORCH_EXTENSIONS_DIR shared by the batch's workers ("" = harness default)
  std::string devices;                    // GPUs evaluating at once, one worker each ("0,1", "all"; "" = GPU 0)
  bool overlap_builds = false;            // evaluate each solution once built, beside the other builds
  std::string out_dir;                    // where the pairs file and per-solution result JSONs go
  double eval_timeout_s = 600;            // per solution
  double prebuild_timeout_s = 900;        // per solution build
};

// One evaluation of a batch; a batch may hold solutions of several problems.
struct BatchPair {
  std::string problem, solution;
  double sol_ms = 0;       // 0: the options' sol_ms
  std::string baselines;   // "": the options' baselines
  double timing_min_ms = -1;  // < 0: the options' (a written solution re-measured in its own window)
  // With overlap_builds: evaluated only once every build of the batch has ended, on an idle host (a
  // re-measurement, whose figure should be the solution's alone, not its time beside our compilers).
  bool after_builds = false;
};

// A result JSON the harness wrote; null when missing or cut short (unparseable).
nlohmann::json read_result_file(const std::string& path);

struct BatchEvalResult {
  std::string solution;
  nlohmann::json result;  // the harness's eval result; on a harness failure {"verdict": "harness_error", "error": ...}
  double wall_s = 0;      // this solution's share of the batch's wall time
  double done_unix_s = 0;  // when its result file was written (0: no result file), for a round's pace
};

// One result per pair, in the given order; never throws for a failing
// harness or candidate (their failure is each result's verdict).
std::vector<BatchEvalResult> evaluate_batch(const std::vector<BatchPair>& pairs, const BatchEvalOptions& options);

}  // namespace ucutlass
