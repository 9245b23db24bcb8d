#pragma once
// The CUTLASS type chain of one kernel, emitted into `namespace NAME_detail`
// of the program header: element/layout aliases, our own activation functors,
// the epilogue (LinearCombination or an EVT tree on SM90), the mainloop, the
// kernel and the device-level `Gemm`. Each detail namespace also defines
//   Status make_arguments(const GemmParams&, Gemm::Arguments&)
// (host_entry.h), which is what NAME_run calls.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// Functors the emitter writes itself: leaky_relu and clamp (CUTLASS's own take
// runtime Arguments, ours bake the constants in), activations CUTLASS lacks
// (mish, elu, ...) and every expression step (scale, per_col_scale, custom, ...)
// as EpiStep<i> over its operands. Names come from the step index, so the
// output depends only on the program.
std::string emit_custom_activations(const ir::GemmKernel& k);

// namespace epilogue_fn (the f32 functions the EpiStep functors call), once per
// header; empty when no kernel of the program needs it.
std::string emit_epilogue_functions(const ir::Program& p);

// The functor template used for epilogue step `index` (an activation or expression step).
std::string activation_functor(const ir::GemmKernel& k, size_t index);

std::string emit_sm90_types(const ir::GemmKernel& k);

// The SM90 epilogue's `using Fusion = ...` (LinearCombination or an EVT tree) and its
// `set_fusion_arguments(FusionArguments&, const PARAMS& p)`; convolutions pass ConvParams.
std::string emit_sm90_fusion(const ir::GemmKernel& k, const std::string& params_type);
std::string emit_sm80_types(const ir::GemmKernel& k);

// Pieces of the SM80 chain that convolutions share: the 2.x epilogue functor
// (LinearCombination or LinearCombinationGeneric<Act>), warp and instruction shapes.
std::string emit_sm80_epilogue_op(const ir::GemmKernel& k);
ir::Shape3 sm80_warp_shape(const ir::GemmKernel& k);
ir::Shape3 sm80_instruction_shape(const ir::GemmKernel& k);

}  // namespace ucutlass::codegen
