#include "exec/unrecorded_evaluations.h"

#include <cstdio>

#include "exec/harness_batch.h"
#include "support/file_text.h"

namespace ucutlass {

namespace fs = std::filesystem;

fs::path attempt_meta_path(const fs::path& solution) {
  fs::path p = solution;
  return p.replace_extension(".meta.json");
}

void write_attempt_meta(const fs::path& solution, const AttemptMeta& meta) {
  const nlohmann::json j = {{"format", "ucutlass-attempt-meta"}, {"problem", meta.problem}, {"hash", meta.hash},
                            {"dsl", meta.dsl}, {"config", meta.config}, {"estimate_ms", meta.estimate_ms}};
  write_file_atomically(attempt_meta_path(solution), j.dump(1) + "\n");
}

std::optional<AttemptMeta> read_attempt_meta(const fs::path& solution) {
  const nlohmann::json j = read_result_file(attempt_meta_path(solution).string());
  if (!j.is_object() || j.value("format", "") != "ucutlass-attempt-meta") return std::nullopt;
  for (const char* key : {"problem", "hash", "dsl", "config"})
    if (!j.contains(key) || !j[key].is_string()) return std::nullopt;
  AttemptMeta m{j["problem"], j["hash"], j["dsl"], j["config"], j.value("estimate_ms", 0.0)};
  if (m.problem.empty() || m.hash.empty()) return std::nullopt;
  return m;
}

std::map<std::string, std::string> evaluation_result_files(const fs::path& evals_dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::is_directory(evals_dir, ec)) return out;
  for (const auto& round_dir : fs::directory_iterator(evals_dir, ec)) {
    const nlohmann::json pairs = read_result_file((round_dir.path() / "pairs.json").string());
    if (!pairs.is_array()) continue;
    for (size_t k = 0; k < pairs.size(); ++k) {
      if (!pairs[k].is_object() || !pairs[k].contains("solution") || !pairs[k]["solution"].is_string()) continue;
      const fs::path solution = pairs[k]["solution"].get<std::string>();
      char index[32];  // "%03zu_": any size_t fits
      std::snprintf(index, sizeof index, "%03zu_", k);
      out[fs::absolute(solution).lexically_normal().string()] =
          (round_dir.path() / (index + solution.stem().string() + ".json")).string();
    }
  }
  return out;
}

bool is_finished_evaluation(const nlohmann::json& result) {
  return result.is_object() && result.contains("verdict") && result["verdict"].is_string() &&
         result["verdict"].get<std::string>() != "not_run";
}

store::AttemptRow attempt_row(const AttemptMeta& meta, const nlohmann::json& result, double wall_s) {
  store::AttemptRow row;
  row.problem = meta.problem;
  row.hash = meta.hash;
  row.dsl = meta.dsl;
  row.config = meta.config;
  row.estimate_ms = meta.estimate_ms;
  row.verdict = result.value("verdict", "harness_error");
  if (result.contains("timing") && result["timing"].is_object()) {
    const auto& t = result["timing"];
    auto median = [&](const char* who) {
      return t.contains(who) && t[who].is_object() ? t[who].value("median_ms", 0.0) : 0.0;
    };
    row.time_ms = median("candidate");
    row.eager_ms = median("eager");
    row.compile_ms = median("compile");
  }
  row.signals = result.contains("signals") ? result["signals"].dump() : "[]";
  row.result_json = result.dump();
  row.wall_s = wall_s;
  return row;
}


int record_unrecorded_evaluations(std::map<std::string, std::string>& unrecorded, const std::vector<ProblemPlace>& problems,
                                  store::RunStore& store) {
  int recorded = 0;
  for (auto it = unrecorded.begin(); it != unrecorded.end();) {
    const std::optional<AttemptMeta> meta = read_attempt_meta(it->first);
    const ProblemPlace* owner = nullptr;
    for (const ProblemPlace& p : problems)
      if (meta && p.name == meta->problem) owner = &p;
    // The store first: most pairs of a resumed campaign's rounds were recorded, and their results are
    // not read again.
    const bool stored = owner && store.has_attempt(meta->problem, meta->hash);
    const nlohmann::json result = owner && !stored ? read_result_file(it->second) : nlohmann::json();
    if (!owner || stored || !is_finished_evaluation(result)) {
      ++it;
      continue;
    }
    store::AttemptRow row = attempt_row(*meta, result, 0.0);
    if (row.eager_ms <= 0) row.eager_ms = owner->eager_ms;
    if (row.compile_ms <= 0) row.compile_ms = owner->compile_ms;
    bool fastest = row.verdict == "ok" && row.time_ms > 0;
    for (const store::AttemptRow& r : store.attempts(owner->name))
      fastest = fastest && !(r.verdict == "ok" && r.time_ms > 0 && r.time_ms <= row.time_ms);
    store.record_attempt(row);
    ++recorded;
    if (fastest) {
      std::string modelnew;
      if (read_file_text(it->first, &modelnew)) write_file_atomically(owner->dir / "modelnew.py", modelnew);
      write_file_atomically(owner->dir / "kernel.dsl", meta->dsl);
    }
    it = unrecorded.erase(it);
  }
  return recorded;
}

}  // namespace ucutlass
