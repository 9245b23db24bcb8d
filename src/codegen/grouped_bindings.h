#pragma once
// The C API and PyTorch binding of grouped GEMM kernels (the GEMM ones are in
// bindings.h, which calls these for grouped kernels).
//
// C: ucutlass_NAME_run(_with_workspace), _workspace_size and _signature over
// ucutlass_grouped_gemm_params (host arrays with one entry per group).
// Torch: NAME(a: list[Tensor], b: list[Tensor], [c: list[Tensor]], alpha, [beta])
// -> list[Tensor], one [M_g, K_g] / [K_g, N_g] / [M_g, N_g] tensor per group on
// one device, in the kernel's layouts (a column-major operand is the transpose
// view of a row-major tensor); each D_g is allocated in C/D's layout.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// Text for the C API file: the struct asserts and to_grouped_params (after the
// GEMM helpers; empty without grouped kernels), and each kernel's four entries.
std::string emit_capi_grouped_support(const ir::Program& p, const std::string& hash);
std::string emit_grouped_capi_entry(const ir::GemmKernel& k, const std::string& hash);

// The C struct for both files; empty without grouped kernels.
std::string emit_grouped_c_struct(const ir::Program& p);

// Text for the torch binding, per kernel: its C declarations, function and m.def line.
std::string emit_grouped_torch_declarations(const ir::GemmKernel& k);
std::string emit_grouped_torch_function(const ir::GemmKernel& k);
std::string emit_grouped_torch_def(const ir::GemmKernel& k);

}  // namespace ucutlass::codegen
