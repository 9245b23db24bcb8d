#pragma once
// The CUTLASS type chain of one convolution kernel, emitted into
// `namespace NAME_detail` like a GEMM's (kernel_types.h), ending in `Conv`,
// the device-level operator NAME_run launches.
//
//   SM90a: conv::collective::CollectiveBuilder (mainloop, TMA im2col) + the
//          epilogue CollectiveBuilder with the same Fusion as a GEMM (EVT) ->
//          conv::kernel::ConvUniversal<ConvProblemShape<op, rank>, ...> ->
//          conv::device::ConvUniversalAdapter; the 'cooperative' schedule (fprop)
//          runs ucutlass_conv::PersistentConvSm90 instead of ConvUniversal

//   SM80:  conv::kernel::DefaultConv{2,3}d{Fprop,Dgrad,Wgrad} (implicit GEMM,
//          optimized iterators) -> conv::device::ImplicitGemmConvolution;
//          conv1d runs as conv2d with H = R = 1. Depthwise (groups = c = k)
//          runs CUTLASS's direct convolution instead (depthwise_types.h).
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

std::string emit_sm90_conv_types(const ir::GemmKernel& k);
std::string emit_sm80_conv_types(const ir::GemmKernel& k);

// "cutlass::conv::Operator::kFprop" etc.
std::string conv_operator(ir::ConvMode m);
// The rank the SM80 kernel runs at: conv1d runs as conv2d there.
int sm80_conv_rank(const ir::ConvProblem& p);
// An sm90a conv on the 'cooperative' schedule runs ucutlass's persistent kernel
// (runtime/persistent_conv_sm90.hpp), whose text the header then carries.
bool uses_persistent_conv(const ir::GemmKernel& k);

}  // namespace ucutlass::codegen
