#pragma once
// Emission of row kernels (ir/row_problem.h): the runtime kernel's instantiation and host entry in
// the header, the C API entries and the PyTorch binding.
//
// Header: RowParams {x, y, weight, bias, rows, length} (the weight and bias only when affine), and
// per kernel NAME_run(params, stream, workspace, bytes) and NAME_workspace_size(params) over
// ucutlass_rows::RowKernel (src/codegen/runtime/row_kernels.hpp, copied into the header).
// C: ucutlass_NAME_run(_with_workspace), _workspace_size and _signature over ucutlass_row_params.
// Torch: NAME(x[, weight, bias]) -> y: x is any contiguous tensor of rows x length elements (the
// row is its innermost `length` elements); y has x's shape for softmax, log_softmax and the norms,
// else is [rows] (int64 for argmax).
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

bool program_has_rows(const ir::Program& p);

// Header: the runtime text and RowParams (empty without row kernels), then each kernel's code.
std::string emit_row_runtime(const ir::Program& p);
std::string emit_row_host_prelude(const ir::Program& p);
std::string emit_row_kernel_code(const ir::GemmKernel& k);

// C API: the C struct (empty without row kernels), its layout asserts and to_row_params, each entry.
std::string emit_row_c_struct(const ir::Program& p);
std::string emit_capi_row_support(const ir::Program& p, const std::string& hash);
std::string emit_row_capi_entry(const ir::GemmKernel& k, const std::string& hash);

// Torch binding, per kernel: its C declarations, function and m.def line.
std::string emit_row_torch_declarations(const ir::GemmKernel& k);
std::string emit_row_torch_function(const ir::GemmKernel& k);
std::string emit_row_torch_def(const ir::GemmKernel& k);

}  // namespace ucutlass::codegen
