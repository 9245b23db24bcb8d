#pragma once
// The CUTLASS spelling of each IR choice. One function per vocabulary, so the
// SM90 and SM80 emitters and the docs agree on every name.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

std::string layout_tag(ir::Layout l);  // cutlass::layout::RowMajor | ColumnMajor
// Element type as the kernel stores it; f32 stays `float` for tf32 paths
// (the SM90 builder and the SM80 warp MMA map float to TF32 themselves).
std::string element_type(ir::DType t);
// The bias vector's element type: its own when given, else the output's.
ir::DType bias_dtype(const ir::GemmKernel& k);

std::string sm90_kernel_schedule(const ir::GemmKernel& k);
std::string sm90_epilogue_schedule(const ir::GemmKernel& k);
std::string sm90_tile_scheduler(const ir::GemmKernel& k);
bool sm90_is_cooperative(ir::KernelSchedule s);

// A CUTLASS activation functor usable in Sm90Compute and
// LinearCombinationGeneric, or "" when the emitter writes its own (leaky_relu, clamp).
std::string cutlass_activation(ir::Activation a);

// cute::Shape<cute::Int<128>, cute::Int<128>, cute::Int<64>>
std::string cute_shape(const ir::Shape3& s);
// cutlass::gemm::GemmShape<128, 128, 64>
std::string gemm_shape(const ir::Shape3& s);

}  // namespace ucutlass::codegen
