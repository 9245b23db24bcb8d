#pragma once
// The C API and PyTorch binding of convolution kernels (the GEMM ones are in
// bindings.h, which calls these for conv kernels).
//
// The torch function takes PyTorch's tensors as nn.functional.conv*d and the
// autograd passes see them: NCW / NCHW / NCDHW activations and gradients,
// [K, C/groups, (T,) (R,) S] filters. Each operand is made channels-last
// (NWC, NHWC, NDHWC; KRSC) with `.contiguous(memory_format)`: free when the
// tensor already is (torch.channels_last), one copy otherwise (2 x its bytes
// of memory traffic, stated in the manifest's "layout"). The result has the
// PyTorch shape and channels-last memory, so chained convs never copy.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// Text for the C API file: the conv params struct (inside extern "C"), and
// the layout asserts plus to_conv_params (after the GEMM helpers) and the tiled
// layout-change kernel with its C entry; empty without conv kernels.
std::string emit_capi_conv_struct(const ir::Program& p);
std::string emit_capi_conv_support(const ir::Program& p, const std::string& hash);
std::string emit_conv_capi_entry(const ir::GemmKernel& k, const std::string& hash);

// Text for the torch binding: the conv params struct, the channels-last
// helpers (once), and per kernel its C declarations, function and m.def line.
std::string emit_torch_conv_support(const ir::Program& p);
// The module's `contiguous(t)` (a conv result back to PyTorch's memory order) and `channels_last(t)`
// (what the kernels read; a solution caches a weight parameter's), once per program.
std::string emit_torch_conv_support_defs(const ir::Program& p);
std::string emit_conv_torch_declarations(const ir::GemmKernel& k);
std::string emit_conv_torch_function(const ir::GemmKernel& k);
std::string emit_conv_torch_def(const ir::GemmKernel& k);

// The manifest's statement of what the binding does to PyTorch's layouts, and what it costs.
std::string conv_layout_note(const ir::GemmKernel& k);

}  // namespace ucutlass::codegen
