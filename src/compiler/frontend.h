#pragma once
// The front end as one straight line of passes (in the manner of Halide's
// Lower.cpp): parse -> lower -> resolve_auto -> pipelines -> validate, each
// under a phase timer. `ucutlass check`, `compile` and `build` all start here.
#include <memory>
#include <string>

#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass {

struct FrontendResult {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<Diagnostics> diags;
  ir::Program program;  // resolved; meaningful only when ok
  std::string hash;     // ir::program_hash, when ok
  bool ok = false;
};

FrontendResult run_frontend(std::string path, std::string text);

// Reads `path` and runs the front end; a file that cannot be read gives
// ok = false with `io_error` set instead of diagnostics.
struct FileFrontendResult {
  FrontendResult result;
  std::string io_error;
};
FileFrontendResult run_frontend_on_file(const std::string& path);

}  // namespace ucutlass
