// `ucutlass eval PROBLEM SOLUTION`: evaluate a candidate (a KernelBench
// ModelNew file) against its problem in an isolated harness worker:
// correctness on fresh inputs of several distributions, cold-L2 timing beside
// eager and torch.compile, and the integrity signals. Prints a table, or the
// harness's result JSON (docs/formats.md) with --json.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "exec/python_worker.h"
#include "support/phase_timer.h"

namespace ucutlass::cli {
namespace {

struct EvalArgs {
  std::string problem, solution, profile = "kernelbench", baselines = "eager,compile", backend;
  int trials = 0, timing_trials = 0;
  double timeout_s = 900;
};

double num(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1;
}

void print_table(const nlohmann::json& r) {
  std::printf("verdict   %s\n", r.value("verdict", "?").c_str());
  if (r.contains("error") && r["error"].is_object())
    std::printf("error     %s in %s: %s\n", r["error"].value("kind", "").c_str(), r["error"].value("phase", "").c_str(),
                r["error"].value("message", "").c_str());
  if (r.contains("tolerance") && r["tolerance"].is_object())
    std::printf("tolerance atol %g rtol %g (%s)\n", num(r["tolerance"], "atol"), num(r["tolerance"], "rtol"),
                r["tolerance"].value("profile", "").c_str());
  const nlohmann::json& corr = r.contains("correctness") ? r["correctness"] : nlohmann::json();
  if (corr.is_object() && corr.contains("trials") && corr["trials"].is_array()) {
    std::printf("trial  distribution  passed  rel_l2_err    max_abs_err   mismatched\n");
    for (const auto& t : corr["trials"])
      std::printf("%5d  %-12s  %-6s  %-12.3e  %-12.3e  %lld\n", t.value("trial", 0), t.value("distribution", "").c_str(),
                  t.value("passed", false) ? "yes" : "no", num(t, "rel_l2_err"), num(t, "max_abs_err"),
                  static_cast<long long>(num(t, "mismatched")));
  }
  const nlohmann::json& timing = r.contains("timing") ? r["timing"] : nlohmann::json();
  if (timing.is_object()) {
    for (const char* who : {"candidate", "eager", "compile"})
      if (timing.contains(who) && timing[who].is_object() && timing[who].contains("median_ms"))
        std::printf("%-9s median %10.4f ms  (p10 %.4f, p90 %.4f, %d trials)\n", who, num(timing[who], "median_ms"),
                    num(timing[who], "p10_ms"), num(timing[who], "p90_ms"),
                    static_cast<int>(num(timing[who], "num_trials")));
  }
  if (r.contains("speedup") && r["speedup"].is_object())
    std::printf("speedup   %.3fx vs eager, %.3fx vs torch.compile\n", num(r["speedup"], "vs_eager"),
                num(r["speedup"], "vs_compile"));
  if (r.contains("signals") && r["signals"].is_array())
    for (const auto& s : r["signals"])
      if (s.value("fired", false))
        std::printf("signal    %-26s [%s] %s\n", s.value("name", "").c_str(), s.value("kind", "").c_str(),
                    s.value("detail", "").c_str());
}

int run_eval(const EvalArgs& a, const GlobalOptions& g) {
  std::vector<std::string> args = {"eval", a.problem, a.solution, "--json", "--profile", a.profile,
                                   "--baselines", a.baselines, "--timeout", std::to_string(a.timeout_s)};
  if (a.trials > 0) args.insert(args.end(), {"--trials", std::to_string(a.trials)});
  if (a.timing_trials > 0) args.insert(args.end(), {"--timing-trials", std::to_string(a.timing_trials)});
  if (!a.backend.empty()) args.insert(args.end(), {"--backend", a.backend});
  ProcessOptions options;
  // The worker enforces its own timeout per evaluation; this one catches a
  // worker that cannot even start or report.
  options.timeout_s = a.timeout_s + 120;
  ProcessResult r;
  {
    PhaseTimer t("eval");
    r = run_python_module("ucutlass_harness", args, options);
  }
  nlohmann::json result = nlohmann::json::parse(r.out, nullptr, false);
  if (!result.is_object()) {
    std::string why = python_failure_reason(r);
    std::cerr << "ucutlass eval: the harness worker gave no result (" << r.describe() << ")"
              << (why.empty() ? "" : ":\n" + why) << "\n";
    return r.exited && r.exit_code == kExitUsage ? kExitUsage : kExitFailure;
  }
  if (result.value("format", "") == "ucutlass-error") {
    std::cerr << "ucutlass eval: " << result.value("error", "error") << "\n";
    return kExitUsage;
  }
  if (g.json) std::cout << result.dump(2) << "\n";
  else print_table(result);
  // A verdict other than ok is a result, not a failure of the tool; exit 1
  // still tells scripts that the candidate did not pass.
  return result.value("verdict", "") == "ok" ? kExitOk : kExitFailure;
}

}  // namespace

UCUTLASS_COMMAND(eval, "Evaluate a candidate solution against its problem in an isolated harness worker",
                 [](CLI::App& app, const GlobalOptions& g) {
                   auto a = std::make_shared<EvalArgs>();
                   app.add_option("PROBLEM", a->problem, "Problem file (KernelBench format)")->required();
                   app.add_option("SOLUTION", a->solution, "Solution file (class ModelNew)")->required();
                   app.add_option("--profile", a->profile, "Tolerance profile: kernelbench | kernelbench-v0.1")
                       ->check(CLI::IsMember({"kernelbench", "kernelbench-v0.1"}));
                   app.add_option("--trials", a->trials, "Correctness trials (default 5)");
                   app.add_option("--timing-trials", a->timing_trials, "Timed trials (default 100)");
                   app.add_option("--baselines", a->baselines, "eager,compile | eager | none");
                   app.add_option("--backend", a->backend, "Static rules: cuda | cutlass | any");
                   app.add_option("--timeout", a->timeout_s, "Seconds one evaluation may take");
                   return [a, &g] { return run_eval(*a, g); };
                 });

}  // namespace ucutlass::cli
