#include "build/toolchain.h"

#include <cstdlib>
#include <filesystem>

#include "exec/subprocess.h"
#include "support/build_info.h"

namespace fs = std::filesystem;

namespace ucutlass::build {

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

bool has_cutlass(const std::string& dir) {
  return !dir.empty() && fs::exists(fs::path(dir) / "include" / "cutlass" / "cutlass.h");
}

}  // namespace

std::string find_toolchain(const std::string& nvcc_arg, const std::string& cutlass_arg, Toolchain& out) {
  std::vector<std::string> nvccs;
  for (const std::string& c : {nvcc_arg, env("UCUTLASS_NVCC")})
    if (!c.empty()) nvccs.push_back(c);
  nvccs.push_back("nvcc");
  nvccs.push_back("/usr/local/cuda/bin/nvcc");
  std::string tried;
  for (const std::string& c : nvccs) {
    ProcessOptions o;
    o.timeout_s = 30;
    ProcessResult r = run_process({c, "--version"}, o);
    if (r.ok()) {
      out.nvcc = c;
      out.nvcc_version = r.out;
      break;
    }
    tried += (tried.empty() ? "" : ", ") + c;
  }
  if (out.nvcc_version.empty())
    return "nvcc not found (tried " + tried + "); install the CUDA toolkit or pass --nvcc PATH";
  std::vector<std::string> dirs = {cutlass_arg, env("UCUTLASS_CUTLASS_DIR"), UCUTLASS_DEFAULT_CUTLASS_DIR};
  for (const std::string& d : dirs)
    if (has_cutlass(d)) {
      out.cutlass_dir = fs::absolute(d).string();
      return "";
    }
  return "CUTLASS headers not found (no include/cutlass/cutlass.h under --cutlass-dir, $UCUTLASS_CUTLASS_DIR or " +
         std::string(UCUTLASS_DEFAULT_CUTLASS_DIR) + "); run scripts/install-deps or pass --cutlass-dir DIR";
}

std::vector<std::string> arch_flags(const ir::Program& p) {
  bool any_sm90 = false;
  for (const ir::GemmKernel& k : p.kernels) any_sm90 |= k.arch.value == ir::Arch::sm90a;
  if (any_sm90) return {"-gencode=arch=compute_90a,code=sm_90a"};
  return {"-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_80,code=sm_90"};
}

std::vector<std::string> nvcc_command(const Toolchain& tc, const ir::Program& p, const std::string& source,
                                      const std::string& output) {
  std::vector<std::string> cmd = {tc.nvcc, "-std=c++17", "-O3", "-DNDEBUG",
                                  // cuTensorMapEncodeTiled straight from -lcuda, not an entry-point lookup per descriptor.
                                  "-DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1", "--expt-relaxed-constexpr",
                                  // CUTLASS's defaulted functions trip a front-end remark that is noise.
                                  "-Xcudafe", "--diag_suppress=esa_on_defaulted_function_ignored",
                                  "-Xcompiler", "-fPIC", "-shared"};
  for (const std::string& f : arch_flags(p)) cmd.push_back(f);
  cmd.push_back("-I" + tc.cutlass_dir + "/include");
  cmd.push_back("-I" + tc.cutlass_dir + "/tools/util/include");
  cmd.push_back(source);
  cmd.push_back("-o");
  cmd.push_back(output);
  // TMA descriptors are encoded through the driver API.
  cmd.push_back("-lcuda");
  return cmd;
}

}  // namespace ucutlass::build
