#pragma once
// Where nvcc and the CUTLASS headers are, and the exact nvcc command line for
// a program. The flags are part of the build-cache key, so they live in one
// place.
#include <string>
#include <vector>

#include "ir/gemm_kernel.h"

namespace ucutlass::build {

struct Toolchain {
  std::string nvcc = "nvcc";
  std::string cutlass_dir;   // holds include/cutlass/cutlass.h
  std::string nvcc_version;  // `nvcc --version` output, for the cache key
};

// Finds nvcc (the argument, $UCUTLASS_NVCC, PATH, /usr/local/cuda/bin) and the
// CUTLASS headers (the argument, $UCUTLASS_CUTLASS_DIR, the configure-time
// default). Returns "" on success, else what is missing and how to supply it.
std::string find_toolchain(const std::string& nvcc_arg, const std::string& cutlass_arg, Toolchain& out);

// The -gencode flags for the program's architectures: sm90a kernels need the
// arch-specific sm_90a target (plain sm_90 aborts at run time); SM80-only
// programs get sm_80 SASS plus Hopper SASS compiled from compute_80 PTX,
// since sm_80 SASS alone does not run on an H100/H200.
std::vector<std::string> arch_flags(const ir::Program& p);

// Full command compiling `source` (a _capi.cu) into the shared library `output`.
std::vector<std::string> nvcc_command(const Toolchain& tc, const ir::Program& p, const std::string& source,
                                      const std::string& output);

}  // namespace ucutlass::build
