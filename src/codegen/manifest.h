#pragma once
// Machine-readable descriptions of emitted kernels: the per-kernel signature
// (returned by ucutlass_NAME_signature) and the program manifest (.json).
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// One line of JSON: types, layouts, fixed extents (0 = runtime), epilogue
// inputs, alignment, hash, entry symbols.
std::string kernel_signature_json(const ir::GemmKernel& k, const std::string& hash);

// The program manifest: hash, files, and per kernel the signature plus every
// resolved setting and the tensors of the runtime contract. Pretty-printed.
std::string emit_manifest(const ir::Program& p, const std::string& hash);

}  // namespace ucutlass::codegen
