#pragma once
// Legality of a convolution kernel (GemmKernel with conv set), beyond the
// GEMM rules its implicit GEMM also obeys (tile, cluster, stages, types):
// the problem is well formed (groups divide the channels, the filter fits the
// padded input), the channels are aligned for the loads the architecture
// uses, and the settings are ones CUTLASS 4.2 implements for convolutions.
//
// SM90 (cutlass/conv/collective/sm90_implicit_gemm_gmma_ss_warpspecialized.hpp,
// can_implement): TMA im2col loads need 16-byte aligned channels and bound the
// padding, the im2col corners and the filter offsets by the spatial rank;
// groups must be 1; the kernel schedule is CUTLASS's non-persistent
// KernelImplicitTmaWarpSpecializedSm90 ('warpspecialized'), or for fprop
// ucutlass's persistent kernel (codegen/runtime/persistent_conv_sm90.hpp,
// 'cooperative' or 'pingpong'); tf32 WGMMA reads K-major operands, so f32
// runs fprop only (dgrad's filter and wgrad's operands are MN-major).
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Appends diagnostics for `k` (which must be a conv kernel); returns true when legal.
bool validate_conv(const GemmKernel& k, Diagnostics& diags);

// The sm90a conv schedules ucutlass's persistent kernel runs (the others are CUTLASS's kernel's).
bool is_persistent_conv_schedule(KernelSchedule s);

// The channels contiguous in memory for A, B and C/D of the pass (per group;
// a depthwise conv's direct kernel reads whole pixels of c channels and the
// filter reordered to [r * s, k]): what the alignment of each operand must divide.
struct ConvContiguous {
  int64_t a = 0, b = 0, d = 0;
};
ConvContiguous conv_contiguous_channels(const ConvProblem& p);

}  // namespace ucutlass::ir
