// `ucutlass compile FILE -o DIR`: check a DSL program and write the emitted
// CUTLASS header, C entry points, PyTorch binding and manifest (no nvcc).
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "codegen/emit.h"
#include "compiler/frontend.h"
#include "support/phase_timer.h"

namespace fs = std::filesystem;

namespace ucutlass::cli {
namespace {

int run_compile(const std::string& path, const std::string& out_dir, const GlobalOptions& g) {
  FileFrontendResult fr = run_frontend_on_file(path);
  if (!fr.io_error.empty()) {
    std::cerr << "ucutlass compile: " << fr.io_error << "\n";
    return kExitUsage;
  }
  const FrontendResult& r = fr.result;
  nlohmann::json doc = {{"file", path}, {"ok", r.ok}, {"diagnostics", r.diags->to_json()}};
  if (!r.ok) {
    if (g.json) std::cout << doc.dump(2) << "\n";
    else std::cerr << r.diags->render();
    return kExitFailure;
  }
  std::vector<codegen::EmittedFile> files;
  {
    PhaseTimer t("emit");
    files = codegen::emit_program(r.program, r.hash);
  }
  {
    PhaseTimer t("write");
    if (std::string err = codegen::write_emitted_files(files, out_dir); !err.empty()) {
      std::cerr << "ucutlass compile: " << err << "\n";
      return kExitFailure;
    }
  }
  nlohmann::json written = nlohmann::json::array();
  for (const codegen::EmittedFile& f : files) written.push_back((fs::path(out_dir) / f.name).string());
  doc["hash"] = r.hash;
  doc["files"] = written;
  if (g.json) {
    if (g.stats) doc["stats"] = phase_stats_json();
    std::cout << doc.dump(2) << "\n";
  } else {
    std::cerr << r.diags->render();
    for (const auto& w : written) std::cout << w.get<std::string>() << "\n";
  }
  return kExitOk;
}

}  // namespace

UCUTLASS_COMMAND(compile, "Emit CUTLASS C++ (header, C entry points, PyTorch binding) for a DSL program",
                 [](CLI::App& app, const GlobalOptions& g) {
                   auto file = std::make_shared<std::string>();
                   auto out = std::make_shared<std::string>();
                   app.add_option("FILE", *file, "DSL program")->required();
                   app.add_option("-o,--out", *out, "Output folder")->required();
                   return [file, out, &g] { return run_compile(*file, *out, g); };
                 });

}  // namespace ucutlass::cli
