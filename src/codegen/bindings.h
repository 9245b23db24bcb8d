#pragma once
// The two thin layers over the program header: a C ABI (capi.cu, compiled by
// nvcc with the header) and a PyTorch binding over that C ABI (torch.cpp,
// host compiler only, so torch and CUTLASS never share a translation unit).
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

std::string emit_capi(const ir::Program& p, const std::string& hash);
std::string emit_torch_binding(const ir::Program& p, const std::string& hash);

// "torch::kBFloat16" for bf16, and a double as Python reads it ("0.5"): shared with conv_bindings.
std::string torch_scalar_type(ir::DType t);
std::string python_float_literal(double v);

}  // namespace ucutlass::codegen
