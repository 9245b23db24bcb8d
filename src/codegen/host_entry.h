#pragma once
// Host-side code of the program header: the shared contract (Status,
// GemmParams, operand checks, the launch sequence) once per header, and per
// kernel the Arguments builder and the NAME_run / NAME_workspace_size entries.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// Status, GemmParams and namespace detail: emitted once, before any kernel.
std::string emit_host_prelude();

// `Status make_arguments(...)`, emitted inside `namespace NAME_detail` after the types.
std::string emit_make_arguments(const ir::GemmKernel& k);

// NAME_workspace_size and NAME_run, emitted in the program namespace.
std::string emit_host_entry(const ir::GemmKernel& k);

// The C struct with GemmParams' exact layout, shared by the C API and the
// torch binding (both emit this same text).
std::string emit_c_params_struct();

}  // namespace ucutlass::codegen
