#pragma once
// Emission: a resolved, validated ir::Program becomes the files that build it.
//   ucutlass_<hash>.h         CUTLASS type chains + host entries (NAME_run, NAME_workspace_size)
//   ucutlass_<hash>_capi.cu   extern "C" entries for dlopen/ctypes callers
//   ucutlass_<hash>_torch.cpp thin PyTorch binding over the C entries (no CUTLASS headers)
//   ucutlass_<hash>.json      manifest: resolved settings and the runtime contract
// docs/codegen.md explains what is emitted and why.
#include <string>
#include <vector>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

struct EmittedFile {
  std::string name;
  std::string text;
};

// All files for one program, in the order above. Deterministic: the same
// program gives byte-identical output. Throws std::invalid_argument for a
// kernel the emitter cannot express (the validator should have said so first).
std::vector<EmittedFile> emit_program(const ir::Program& p, const std::string& hash);

// Writes `files` into `dir` (created if missing). Returns "" on success, else
// which file could not be written.
std::string write_emitted_files(const std::vector<EmittedFile>& files, const std::string& dir);

// The program header alone (the first file of emit_program).
std::string emit_header(const ir::Program& p, const std::string& hash);

}  // namespace ucutlass::codegen
