#pragma once
// Host and device code of grouped GEMM kernels (gemm(..., groups = G), SM90a):
// G independent problems D_g = epilogue(alpha * A_g B_g + beta * C_g), each
// with its own m, n, k, pointers and leading dimensions, in one launch of
// CUTLASS's pointer-array kernels over a GroupProblemShape.
//
// The host contract is GroupedGemmParams (host arrays, one entry per group).
// NAME_run checks every group against the compiled extents and alignments,
// writes the device arrays CUTLASS reads (problem shapes, A/B/C/D pointers,
// strides) into the front of one workspace with one cudaMemcpyAsync, then
// runs can_implement / initialize / run with CUTLASS's own workspace behind
// them. NAME_workspace_size gives both parts.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

bool program_has_grouped(const ir::Program& p);

// GroupedGemmParams and the grouped launch helpers of namespace detail; empty without grouped kernels.
std::string emit_grouped_host_prelude(const ir::Program& p);

// The CUTLASS type chain of a grouped kernel (inside `namespace NAME_detail`).
std::string emit_grouped_types(const ir::GemmKernel& k);

// `Status make_arguments(const GroupedGemmParams&, GroupedImage<Gemm>&, Gemm::Arguments&)`,
// inside `namespace NAME_detail`: the per-group checks and the host image of the device arrays.
std::string emit_grouped_make_arguments(const ir::GemmKernel& k);

// NAME_workspace_size and NAME_run over GroupedGemmParams.
std::string emit_grouped_host_entry(const ir::GemmKernel& k);

// The C struct with GroupedGemmParams' exact layout (C API and torch binding).
std::string emit_c_grouped_params_struct();

}  // namespace ucutlass::codegen
