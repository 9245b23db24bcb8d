#pragma once
// The two thin layers over the program header: a C ABI (capi.cu, compiled by
// nvcc with the header) and a PyTorch binding over that C ABI (torch.cpp,
// host compiler only, so torch and CUTLASS never share a translation unit).
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

std::string emit_capi(const ir::Program& p, const std::string& hash);
std::string emit_torch_binding(const ir::Program& p, const std::string& hash);

}  // namespace ucutlass::codegen
