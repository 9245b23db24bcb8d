#include "exec/harness_batch.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "exec/python_worker.h"

namespace ucutlass {

namespace fs = std::filesystem;

nlohmann::json read_result_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json();
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

namespace {

std::string fixed(double v) {
  std::ostringstream o;
  o.precision(17);
  o << v;
  return o.str();
}

}  // namespace

std::vector<BatchEvalResult> evaluate_batch(const std::vector<BatchPair>& batch, const BatchEvalOptions& opt) {
  std::vector<BatchEvalResult> out;
  if (batch.empty()) return out;
  fs::create_directories(opt.out_dir);
  nlohmann::json pairs = nlohmann::json::array();
  for (const BatchPair& b : batch) {
    nlohmann::json pair = {{"problem", fs::absolute(b.problem).string()}, {"solution", fs::absolute(b.solution).string()}};
    if (b.sol_ms > 0) pair["sol_ms"] = b.sol_ms;
    if (!b.baselines.empty()) pair["baselines"] = b.baselines;
    if (b.timing_min_ms >= 0) pair["timing_min_ms"] = b.timing_min_ms;
    if (b.after_builds) pair["after_builds"] = true;
    pairs.push_back(std::move(pair));
  }
  const fs::path pairs_file = fs::path(opt.out_dir) / "pairs.json";
  std::ofstream(pairs_file) << pairs.dump(1) << "\n";

  std::vector<std::string> args = {"batch",     pairs_file.string(), "--out-dir",          opt.out_dir,
                                    "--json",    "--backend",         opt.backend,          "--profile",
                                    opt.profile, "--baselines",       opt.baselines,        "--timeout",
                                    fixed(opt.eval_timeout_s),        "--prebuild-jobs",    std::to_string(opt.prebuild_jobs),
                                    "--prebuild-timeout",             fixed(opt.prebuild_timeout_s)};
  if (opt.device_type != "cuda") args.insert(args.end(), {"--device-type", opt.device_type});
  args.insert(args.end(), {"--trials", std::to_string(opt.correct_trials), "--timing-trials", std::to_string(opt.timing_trials)});
  if (opt.timing_min_ms >= 0) args.insert(args.end(), {"--timing-min-ms", fixed(opt.timing_min_ms)});
  if (opt.deadline_unix_s > 0) args.insert(args.end(), {"--deadline", fixed(opt.deadline_unix_s)});
  if (opt.sol_ms > 0) args.insert(args.end(), {"--sol-ms", fixed(opt.sol_ms)});
  if (!opt.ext_cache.empty()) args.insert(args.end(), {"--ext-cache", opt.ext_cache});
  if (!opt.devices.empty()) args.insert(args.end(), {"--devices", opt.devices});
  if (opt.overlap_builds) args.push_back("--overlap-builds");
  ProcessOptions po;
  // The whole batch: every build (in parallel, bounded by the slowest) plus every evaluation (serial on
  // one GPU; the bound stays the serial one with several, which only finish sooner).
  po.timeout_s = opt.prebuild_timeout_s + opt.eval_timeout_s * static_cast<double>(batch.size()) + 120;
  const ProcessResult r = run_python_module("ucutlass_harness", args, po);
  const double share = r.wall_ms / 1e3 / static_cast<double>(batch.size());

  const nlohmann::json summary = nlohmann::json::parse(r.out, nullptr, false);
  const nlohmann::json* records = summary.is_object() && summary.contains("results") && summary["results"].is_array()
                                      ? &summary["results"]
                                      : nullptr;
  for (size_t i = 0; i < batch.size(); ++i) {
    BatchEvalResult b{batch[i].solution, nlohmann::json(), share};
    if (records && i < records->size() && (*records)[i].is_object()) {
      const nlohmann::json& rec = (*records)[i];
      if (rec.value("verdict", nlohmann::json()) == "not_run") {
        b.result = {{"verdict", "not_run"}, {"detail", rec.value("detail", "")}};  // the deadline passed first
      } else if (rec.contains("result_file") && rec["result_file"].is_string()) {
        const fs::path file = fs::path(opt.out_dir) / rec["result_file"].get<std::string>();
        b.result = read_result_file(file.string());
        // stat's, not fs::last_write_time: libstdc++ 12 has no clock_cast from the file clock.
        struct stat st {};
        if (::stat(file.c_str(), &st) == 0) b.done_unix_s = static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
      }
    }
    if (!b.result.is_object()) {
      const std::string why = r.ok() ? "the harness wrote no result for this solution" : "harness batch failed (" + r.describe() + "): " + python_failure_reason(r);
      b.result = {{"verdict", "harness_error"}, {"error", {{"kind", "harness_error"}, {"message", why}}}};
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace ucutlass
