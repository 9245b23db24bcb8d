// `ucutlass build FILE... [-o DIR] [-j N]`: compile DSL programs to shared
// libraries with nvcc, through the content-addressed kernel cache, in parallel.
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "build/builder.h"
#include "build/kernel_cache.h"
#include "cli/command.h"
#include "support/phase_timer.h"

namespace ucutlass::cli {
namespace {

struct BuildArgs {
  std::vector<std::string> files;
  std::string out_dir, cache_dir, nvcc, cutlass_dir;
  int jobs = 0;
  double timeout_s = 900;
};

int run_build(const BuildArgs& a, const GlobalOptions& g) {
  build::BuildOptions opt;
  std::string err = build::find_toolchain(a.nvcc, a.cutlass_dir, opt.toolchain);
  if (!err.empty()) {
    std::cerr << "ucutlass build: " << err << "\n";
    return kExitUsage;
  }
  opt.cache_dir = a.cache_dir.empty() ? build::default_cache_dir() : a.cache_dir;
  opt.out_dir = a.out_dir;
  opt.jobs = a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  opt.nvcc_timeout_s = a.timeout_s;
  std::vector<build::BuildRequest> reqs;
  for (const std::string& f : a.files) reqs.push_back({f});
  std::vector<build::BuildResult> results;
  {
    PhaseTimer t("build");
    results = build::build_programs(reqs, opt);
  }
  int rc = kExitOk;
  nlohmann::json arr = nlohmann::json::array();
  for (const build::BuildResult& r : results) {
    if (!r.ok) rc = r.stage == "read" && rc == kExitOk ? kExitUsage : kExitFailure;
    if (g.json) {
      arr.push_back({{"file", r.file}, {"ok", r.ok}, {"stage", r.stage}, {"hash", r.hash}, {"library", r.library},
                     {"manifest", r.manifest}, {"cached", r.cached}, {"seconds", r.seconds}, {"log", r.log}});
    } else if (r.ok) {
      std::printf("%-40s ok  %s  %6.1f s  %s\n", r.file.c_str(), r.cached ? "cached" : "built ", r.seconds,
                  r.library.c_str());
    } else {
      std::printf("%-40s FAILED at %s (%.1f s)\n", r.file.c_str(), r.stage.c_str(), r.seconds);
      std::fputs(r.log.c_str(), stderr);
    }
  }
  if (g.json) {
    nlohmann::json doc = {{"results", arr}, {"cache_dir", opt.cache_dir}, {"nvcc", opt.toolchain.nvcc},
                          {"cutlass_dir", opt.toolchain.cutlass_dir}};
    if (g.stats) doc["stats"] = phase_stats_json();
    std::cout << doc.dump(2) << "\n";
  }
  return rc;
}

}  // namespace

UCUTLASS_COMMAND(build, "Compile DSL programs to shared libraries with nvcc (cached, parallel)",
                 [](CLI::App& app, const GlobalOptions& g) {
                   auto a = std::make_shared<BuildArgs>();
                   app.add_option("FILE", a->files, "DSL program(s)")->required();
                   app.add_option("-o,--out", a->out_dir, "Also copy sources and libraries into this folder");
                   app.add_option("-j,--jobs", a->jobs, "Parallel nvcc processes (default: cores)");
                   app.add_option("--cache-dir", a->cache_dir, "Kernel cache (default ~/.cache/ucutlass)");
                   app.add_option("--nvcc", a->nvcc, "nvcc to use");
                   app.add_option("--cutlass-dir", a->cutlass_dir, "CUTLASS root holding include/cutlass");
                   app.add_option("--timeout", a->timeout_s, "Seconds one nvcc run may take");
                   return [a, &g] { return run_build(*a, g); };
                 });

}  // namespace ucutlass::cli
