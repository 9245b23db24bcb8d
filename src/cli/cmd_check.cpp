// `ucutlass check FILE...`: parse, resolve and validate DSL programs without
// running nvcc. Exit 0 when every file is legal, 1 when any is not, 2 for
// usage errors (including unreadable files).
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "compiler/frontend.h"
#include "ir/canonical.h"
#include "support/phase_timer.h"

namespace ucutlass::cli {
namespace {

int run_check(const std::vector<std::string>& files, bool show_resolved, const GlobalOptions& g) {
  nlohmann::json out = nlohmann::json::array();
  int rc = kExitOk;
  for (const std::string& path : files) {
    FileFrontendResult fr = run_frontend_on_file(path);
    if (!fr.io_error.empty()) {
      std::cerr << "ucutlass check: " << fr.io_error << "\n";
      if (g.json) out.push_back({{"file", path}, {"ok", false}, {"io_error", fr.io_error}});
      rc = kExitUsage;
      continue;
    }
    const FrontendResult& r = fr.result;
    if (!r.ok && rc == kExitOk) rc = kExitFailure;
    if (g.json) {
      nlohmann::json j = {{"file", path}, {"ok", r.ok}, {"diagnostics", r.diags->to_json()}};
      if (r.ok) {
        j["hash"] = r.hash;
        nlohmann::json kernels = nlohmann::json::array();
        for (const ir::GemmKernel& k : r.program.kernels)
          kernels.push_back({{"name", k.name}, {"canonical", ir::canonical_text(k)}});
        j["kernels"] = kernels;
        if (!r.program.pipelines.empty()) {
          nlohmann::json pipelines = nlohmann::json::array();
          for (const ir::Pipeline& p : r.program.pipelines)
            pipelines.push_back({{"name", p.name}, {"canonical", ir::canonical_text(r.program, p)}});
          j["pipelines"] = pipelines;
        }
      }
      out.push_back(std::move(j));
    } else {
      std::cerr << r.diags->render();
      if (r.ok) {
        std::cout << path << ": ok (" << r.program.kernels.size() << " kernel"
                  << (r.program.kernels.size() == 1 ? "" : "s");
        if (const size_t n = r.program.pipelines.size(); n > 0)
          std::cout << ", " << n << " pipeline" << (n == 1 ? "" : "s");
        std::cout << ", hash " << r.hash << ")\n";
        if (show_resolved) {
          for (const ir::GemmKernel& k : r.program.kernels) std::cout << ir::canonical_text(k);
          for (const ir::Pipeline& p : r.program.pipelines) std::cout << ir::canonical_text(r.program, p);
        }
      } else {
        std::cerr << r.diags->error_count() << " error" << (r.diags->error_count() == 1 ? "" : "s")
                  << " in " << path << "\n";
      }
    }
  }
  if (g.json) {
    nlohmann::json doc = {{"files", out}};
    if (g.stats) doc["stats"] = phase_stats_json();
    std::cout << doc.dump(2) << "\n";
  }
  return rc;
}

}  // namespace

UCUTLASS_COMMAND(check, "Check DSL programs for legality (no nvcc run)", [](CLI::App& app, const GlobalOptions& g) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto resolved = std::make_shared<bool>(false);
  app.add_option("FILE", *files, "DSL program(s)")->required();
  app.add_flag("--resolved", *resolved, "Also print each kernel with every auto setting resolved");
  return [files, resolved, &g] { return run_check(*files, *resolved, g); };
});

}  // namespace ucutlass::cli
