// `ucutlass sol PROBLEM.py|GRAPH.json`: the Speed-of-Light report of a problem.
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "graph/graph_reader.h"
#include "graph/problem_trace.h"
#include "support/install_paths.h"
#include "sol/report_render.h"
#include "support/did_you_mean.h"
#include "support/phase_timer.h"

namespace ucutlass::cli {

namespace {

struct SolArgs {
  std::string problem;
  std::string gpu;
  std::string profile;
  std::optional<double> time_ms;
  std::optional<double> baseline_ms;
  double delta = 0.05;
  std::string tolerance = "kernelbench";
  std::string precision;
};

int fail(const GlobalOptions& g, const std::string& message, int code = kExitFailure) {
  if (g.json)
    std::cout << nlohmann::json{{"error", message}}.dump(2) << "\n";
  else
    std::cerr << "ucutlass sol: " << message << "\n";
  return code;
}

int run_sol(const SolArgs& a, const GlobalOptions& g) {
  sol::SolOptions options;
  std::optional<sol::ToleranceProfile> tol = sol::parse_tolerance_profile(a.tolerance);
  if (!tol)
    return fail(g, "unknown tolerance profile \"" + a.tolerance + "\"; legal: " + join_names(sol::tolerance_profile_names()),
                kExitUsage);
  options.tolerance = *tol;
  if (!a.precision.empty()) {
    options.precision = sol::parse_path(a.precision);
    if (!options.precision) {
      std::string near = closest_name(a.precision, sol::path_names());
      return fail(g, "unknown precision path \"" + a.precision + "\"" + (near.empty() ? "" : " (did you mean \"" + near + "\"?)") +
                         "; legal: " + join_names(sol::path_names()),
                  kExitUsage);
    }
  }
  if (a.delta < 0 || a.delta >= 1) return fail(g, "--delta must lie in [0, 1)", kExitUsage);
  if (a.time_ms && *a.time_ms <= 0) return fail(g, "--time must be positive (milliseconds)", kExitUsage);

  graph::OpGraph graph;
  std::string err;
  {
    PhaseTimer t("sol.read_graph");
    bool is_python = a.problem.size() > 3 && a.problem.ends_with(".py");
    bool ok = is_python ? graph::trace_problem(a.problem, 600, &graph, &err)
                        : graph::load_op_graph_file(a.problem, &graph, &err);
    if (!ok) return fail(g, err);
  }
  sol::SelectedProfile profile;
  {
    PhaseTimer t("sol.profile");
    sol::ProfileRequest request{a.gpu, a.profile, true};
    if (!sol::select_profile(request, &profile, &err)) return fail(g, err);
  }
  sol::SolReport report = sol::build_sol_report(graph, profile, options);
  std::optional<sol::MeasuredTime> measured;
  if (a.time_ms) {
    std::optional<double> baseline;
    if (a.baseline_ms) baseline = *a.baseline_ms * 1e-3;
    measured = sol::measure_against(report, *a.time_ms * 1e-3, baseline, a.delta);
  }
  PhaseTimer t("sol.render");
  if (g.json) {
    nlohmann::json j = sol::report_json(report, graph, measured ? &*measured : nullptr);
    if (g.stats) j["stats"] = phase_stats_json();
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << sol::report_text(report, graph, measured ? &*measured : nullptr);
  }
  return kExitOk;
}

}  // namespace

UCUTLASS_COMMAND(sol, "Speed-of-Light bounds of a problem (PROBLEM.py or GRAPH.json)",
                 [](CLI::App& app, const GlobalOptions& g) -> Action {
                   auto a = std::make_shared<SolArgs>();
                   app.add_option("PROBLEM", a->problem, "A KernelBench problem file (traced) or an op-graph JSON")->required();
                   app.add_option("--gpu", a->gpu, "GPU profile by name (H200, H100 SXM, A100 SXM, B200, L40S)");
                   app.add_option("--profile", a->profile, "GPU profile JSON file (datasheet or measured)");
                   app.add_option("--time", a->time_ms, "Measured kernel time in ms: adds gap, score and verdict");
                   app.add_option("--baseline", a->baseline_ms, "Baseline (PyTorch) time in ms, for the SOL-ExecBench score");
                   app.add_option("--delta", a->delta, "Timing-noise margin of the too-fast verdict (default 0.05)");
                   app.add_option("--tolerance", a->tolerance, "Tolerance profile: kernelbench (default) or kernelbench-v0.1");
                   app.add_option("--precision", a->precision,
                                  "Price tensor-core ops at this path: fp64_tensor, fp32, tf32, 3xtf32, fp16, bf16, fp8");
                   return [a, &g] { return run_sol(*a, g); };
                 });

}  // namespace ucutlass::cli
