#pragma once
// Depthwise convolutions on sm80 (groups = c = k): CUTLASS's direct 2D
// convolution, not an implicit GEMM (ir/validate_depthwise.h explains the
// tiling). Emitted into `namespace NAME_detail` like other conv kernels:
//
//   conv::kernel::DefaultDepthwiseDirect2dConvFprop<..., OpClassSimt, Sm80,
//       ThreadblockShape (pixels, channels, taps), ThreadBlockOutputShape,
//       FilterShape, WarpShape, ..., kOptimized> -> conv::device::DirectConvolution
//
// DirectConvolution reads the filter reordered to [r * s, k] from
// Arguments::ref_reordered_B (its run() launches the reorder first), a buffer
// its get_workspace_size does not count. Here `Conv` wraps it so that buffer
// is the kernel's workspace: NAME_workspace_size reports k * r * s elements,
// and NAME_run (the shared detail::run) takes the caller's workspace or
// allocates it stream-ordered and frees it after the launch, like any kernel.
// make_arguments is the SM80 conv one (conv_host_entry.cpp) with the lines below.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

bool program_has_depthwise(const ir::Program& p);

std::string emit_sm80_depthwise_types(const ir::GemmKernel& k);
// The lines conv_host_entry's SM80 make_arguments adds for a depthwise kernel: `slices`, the CTAs
// that share each channel tile's output tiles (Conv2dProblemSize::split_k_slices), and the
// Arguments' reordered-filter TensorRef (null until initialize).
std::string emit_depthwise_cta_slices();
std::string emit_depthwise_reordered_filter_argument();
// detail::DirectConvWithReorderedFilter (the workspace is the reordered filter); empty without
// depthwise kernels.
std::string emit_depthwise_host_helpers(const ir::Program& p);

}  // namespace ucutlass::codegen
