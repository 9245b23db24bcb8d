// `ucutlass calibrate`: measures the local GPU through the Python worker
// (python/ucutlass_calibrate) and stores a measured profile that `ucutlass sol`
// then lays over the datasheet figures of the same GPU.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "exec/subprocess.h"
#include "exec/python_worker.h"
#include "sol/profile_selection.h"

namespace ucutlass::cli {

namespace {

struct CalibrateArgs {
  std::string out;
  bool quick = false;
  double timeout_s = 300;
};

int fail(const GlobalOptions& g, const std::string& message) {
  if (g.json)
    std::cout << nlohmann::json{{"error", message}}.dump(2) << "\n";
  else
    std::cerr << "ucutlass calibrate: " << message << "\n";
  return kExitFailure;
}

// Measured against the shipped reference (the datasheet, and the earlier
// measurement the shipped profile records, e.g. shared/facts/gpu.md for the H200).
nlohmann::json compare(const sol::GpuProfile& got, const sol::GpuProfile* shipped) {
  nlohmann::json rows = nlohmann::json::array();
  auto row = [&](const std::string& what, std::optional<double> value, std::optional<double> sheet,
                 std::optional<double> reference) {
    nlohmann::json r = {{"what", what}, {"measured", value ? nlohmann::json(*value) : nlohmann::json(nullptr)}};
    if (sheet) r["datasheet"] = *sheet;
    if (value && sheet) r["of_datasheet"] = *value / *sheet;
    if (reference) r["reference"] = *reference;
    if (value && reference) {
      r["of_reference"] = *value / *reference;
      r["within_10_percent"] = std::abs(*value / *reference - 1) <= 0.10;
    }
    rows.push_back(r);
  };
  auto figure = [](const std::optional<sol::Ceilings>& c, sol::MathPath p) -> std::optional<double> {
    return c ? c->flops_per_s[static_cast<size_t>(p)] : std::nullopt;
  };
  row("dram_bytes_per_s", got.measured->dram_bytes_per_s,
      shipped && shipped->datasheet ? shipped->datasheet->dram_bytes_per_s : std::nullopt,
      shipped && shipped->measured ? shipped->measured->dram_bytes_per_s : std::nullopt);
  for (sol::MathPath p : {sol::MathPath::fp64_tensor, sol::MathPath::fp32, sol::MathPath::tf32, sol::MathPath::fp16,
                          sol::MathPath::bf16, sol::MathPath::fp8})
    row(sol::path_name(p), figure(got.measured, p), shipped ? figure(shipped->datasheet, p) : std::nullopt,
        shipped ? figure(shipped->measured, p) : std::nullopt);
  return rows;
}

int run_calibrate(const CalibrateArgs& a, const GlobalOptions& g) {
  ProcessOptions options;
  options.timeout_s = a.timeout_s;
  std::vector<std::string> args;
  if (a.quick) args.push_back("--quick");
  if (!g.json) std::cerr << "ucutlass calibrate: measuring (copy, GEMMs per path, L2); about a minute...\n";
  ProcessResult r = run_python_module("ucutlass_calibrate", args, options);
  if (!r.ok())
    return fail(g, "the calibration worker failed (" + r.describe() + ")" + (r.err.empty() ? "" : ":\n" + r.err));

  sol::GpuProfile measured;
  std::string err;
  if (!sol::parse_gpu_profile(r.out, "calibration output", &measured, &err) || !measured.measured)
    return fail(g, "the calibration worker printed no usable profile: " + err);

  std::string out = a.out;
  if (out.empty()) out = sol::measured_profile_dir() + "/" + sol::gpu_name_slug(measured.name) + ".json";
  std::error_code ec;
  std::filesystem::path parent = std::filesystem::path(out).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  std::ofstream f(out);
  if (!f) return fail(g, out + ": cannot write the profile");
  f << r.out;
  f.close();

  std::vector<sol::GpuProfile> shipped;
  sol::load_profiles_in(sol::datasheet_profile_dir(), &shipped, &err);
  const sol::GpuProfile* match = nullptr;
  for (const sol::GpuProfile& p : shipped)
    if (p.matches(measured.name)) match = &p;
  nlohmann::json rows = compare(measured, match);

  if (g.json) {
    std::cout << nlohmann::json{{"profile_file", out},
                                {"gpu", measured.name},
                                {"datasheet_profile", match ? nlohmann::json(match->file) : nlohmann::json(nullptr)},
                                {"comparison", rows},
                                {"profile", nlohmann::json::parse(r.out)}}
                     .dump(2)
              << "\n";
    return kExitOk;
  }
  std::cout << "measured " << measured.name << " (" << measured.sms << " SMs); profile written to " << out << "\n";
  if (!match) std::cout << "no shipped datasheet profile matches this GPU: `ucutlass sol` will bound with measured figures only\n";
  for (const nlohmann::json& row : rows) {
    std::cout << "  " << row["what"].get<std::string>() << ": ";
    if (row["measured"].is_null()) {
      std::cout << "unavailable";
      auto it = measured.unavailable.find(row["what"].get<std::string>());
      if (it != measured.unavailable.end()) std::cout << " (" << it->second << ")";
    } else {
      std::cout << row["measured"].get<double>() / 1e12 << (row["what"] == "dram_bytes_per_s" ? " TB/s" : " TFLOP/s");
      if (row.contains("of_datasheet")) std::cout << ", " << static_cast<int>(row["of_datasheet"].get<double>() * 100 + 0.5) << " % of datasheet";
      if (row.contains("of_reference"))
        std::cout << ", " << static_cast<int>(row["of_reference"].get<double>() * 100 + 0.5) << " % of the shipped measurement"
                  << (row["within_10_percent"].get<bool>() ? " (within 10 %)" : " (OFF by more than 10 %)");
    }
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace

UCUTLASS_COMMAND(calibrate, "Measure the local GPU's ceilings and store them as a GPU profile",
                 [](CLI::App& app, const GlobalOptions& g) -> Action {
                   auto a = std::make_shared<CalibrateArgs>();
                   app.add_option("--out", a->out, "Where to write the profile (default ~/.cache/ucutlass/profiles/<gpu>.json)");
                   app.add_flag("--quick", a->quick, "Smaller problems: a smoke test, not a calibration");
                   app.add_option("--timeout", a->timeout_s, "Seconds before the worker is stopped (default 300)");
                   return [a, &g] { return run_calibrate(*a, g); };
                 });

}  // namespace ucutlass::cli
