#pragma once
// Host-side code of convolution kernels: the ConvParams contract (once per
// header that has a conv kernel), each kernel's make_arguments (the problem
// checked against the compiled one, then ConvProblemShape on SM90 or
// Conv{2,3}dProblemSize on SM80), and NAME_run / NAME_workspace_size, which
// share GEMM's launch sequence (host_entry.h).
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

bool program_has_conv(const ir::Program& p);
bool program_has_conv(const ir::Program& p, ir::Arch arch);

// ConvParams and the conv helpers of namespace detail; empty without conv kernels.
std::string emit_conv_host_prelude(const ir::Program& p);

// `Status make_arguments(const ConvParams&, Conv::Arguments&)`, inside `namespace NAME_detail`.
std::string emit_conv_make_arguments(const ir::GemmKernel& k);

// NAME_workspace_size and NAME_run over ConvParams.
std::string emit_conv_host_entry(const ir::GemmKernel& k);

// The C struct with ConvParams' exact layout (C API and torch binding).
std::string emit_c_conv_params_struct();

}  // namespace ucutlass::codegen
