#pragma once
// Evaluations a killed campaign finished but never stored. Each round of `ucutlass optimize` evaluates
// into OUT/evals/round_<n>_<pid>/: its pairs.json and one result per pair, <index>_<solution stem>.json.
// A run killed between an evaluation and the store write leaves the result there; the resumed run
// records it instead of evaluating the program again. Beside each attempt file the run writes what the
// store needs of it besides the result (attempt_<hash>.meta.json), so the resumed run can record the
// evaluation even when its own ranking no longer proposes that program (a new build of ucutlass).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/run_store.h"

namespace ucutlass {

struct AttemptMeta {
  std::string problem, hash, dsl, config;
  double estimate_ms = 0;
};

// attempt_<hash>.py -> attempt_<hash>.meta.json
std::filesystem::path attempt_meta_path(const std::filesystem::path& solution);
void write_attempt_meta(const std::filesystem::path& solution, const AttemptMeta& meta);
// nullopt when missing, cut short or not this format.
std::optional<AttemptMeta> read_attempt_meta(const std::filesystem::path& solution);

// Every pair of every round under `evals_dir`: solution file (absolute, normal form) -> its result file
// (which may be missing or cut short: the evaluation did not finish).
std::map<std::string, std::string> evaluation_result_files(const std::filesystem::path& evals_dir);

// A finished evaluation's result: a verdict other than "not_run" (a deadline kept it from starting).
bool is_finished_evaluation(const nlohmann::json& result);

// The store row of one evaluated attempt: verdict, the harness's medians, signals and the result JSON.
// `seq` is the store's to give.
store::AttemptRow attempt_row(const AttemptMeta& meta, const nlohmann::json& result, double wall_s);

// A problem of the resumed run: where its solution files go, and the PyTorch times an attempt row
// falls back on when its result has none (--baselines).
struct ProblemPlace {
  std::string name;
  std::filesystem::path dir;
  double eager_ms = 0, compile_ms = 0;
};

// Records every finished evaluation of `unrecorded` (solution -> result file) whose meta names one of
// `problems` and a program the store lacks, and drops it from the map; one faster than every other
// verified attempt of its problem becomes that problem's modelnew.py and kernel.dsl. Returns how many.
int record_unrecorded_evaluations(std::map<std::string, std::string>& unrecorded, const std::vector<ProblemPlace>& problems,
                                  store::RunStore& store);

}  // namespace ucutlass
