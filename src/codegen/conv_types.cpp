#include "codegen/conv_types.h"

#include "codegen/cutlass_names.h"
#include "codegen/depthwise_types.h"
#include "codegen/kernel_types.h"
#include "codegen/text_template.h"
#include "ir/validate_conv.h"

namespace ucutlass::codegen {

namespace {

using ir::ConvMode;
using ir::GemmKernel;

// Activations, gradients and (with the same tag, KRSC order) filters.
std::string activation_layout(int rank) {
  return rank == 1 ? "cutlass::layout::TensorNWC" : rank == 2 ? "cutlass::layout::TensorNHWC"
                                                              : "cutlass::layout::TensorNDHWC";
}

// D's layout tag: the activation's, except wgrad, whose D is the filter gradient
// addressed as (K, (C, S, R, T)) by the epilogue.
std::string sm90_output_layout(const ir::ConvProblem& p) {
  if (p.mode != ConvMode::wgrad) return activation_layout(p.dims);
  return p.dims == 1 ? "cutlass::layout::TensorKCS" : p.dims == 2 ? "cutlass::layout::TensorKCSR"
                                                                  : "cutlass::layout::TensorKCSRT";
}

// The conv tile's K mode is nested (it spans filter taps and channels), and so is wgrad's N.
std::string sm90_conv_tile(const GemmKernel& k) {
  const ir::Shape3& t = k.tile.value;
  auto c = [](int v) { return "cute::Int<" + std::to_string(v) + ">"; };
  const std::string n = k.conv->mode == ConvMode::wgrad ? "cute::Shape<" + c(t.n) + ">" : c(t.n);
  return "cute::Shape<" + c(t.m) + ", " + n + ", cute::Shape<" + c(t.k) + ">>";
}

std::string sm90_stage_count(const GemmKernel& k) {
  if (k.stages.value > 0) return "cutlass::conv::collective::StageCount<" + std::to_string(k.stages.value) + ">";
  return "cutlass::conv::collective::StageCountAutoCarveout<\n        static_cast<int>(sizeof(typename "
         "Epilogue::SharedStorage))>";
}

std::string role_comment(ConvMode m) {
  switch (m) {
    case ConvMode::fprop: return "fprop: A = x (activation), B = w (filter, KRSC), D = y";
    case ConvMode::dgrad: return "dgrad: A = dy (output gradient), B = w (filter, KRSC), D = dx";
    case ConvMode::wgrad: return "wgrad: A = dy (output gradient), B = x (activation), D = dw (KRSC)";
  }
  return "";
}

constexpr std::string_view kSm90ConvTypes = R"CPP(// $ROLES$
using ElementA = $A$;
using ElementB = $B$;
using ElementC = $C$;
using ElementD = $D$;
using ElementBias = $BIAS$;
using ElementAccumulator = $ACC$;
using ElementCompute = float;
using LayoutA = $LAYOUT_ACT$;
using LayoutB = $LAYOUT_ACT$;
using LayoutC = $LAYOUT_C$;
constexpr int AlignmentA = $ALIGN_A$;
constexpr int AlignmentB = $ALIGN_B$;
constexpr int AlignmentC = $ALIGN_C$;
constexpr cutlass::conv::Operator kConvOp = $OPERATOR$;
using TileShape = $TILE$;
using ClusterShape = $CLUSTER$;

$FUSION$
using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    TileShape, ClusterShape, cutlass::epilogue::collective::EpilogueTileAuto,
    ElementAccumulator, ElementCompute,
    ElementC, LayoutC, AlignmentC,
    ElementD, LayoutC, AlignmentC,
    $EPILOGUE_SCHEDULE$,
    Fusion>::CollectiveOp;

$MAINLOOP_AND_KERNEL$
using Conv = cutlass::conv::device::ConvUniversalAdapter<Kernel>;
)CPP";

// CUTLASS's conv mainloop collective (TMA im2col loads, one consumer warp group), named $MAINLOOP$.
constexpr std::string_view kSm90ConvMainloop = R"CPP(using $MAINLOOP$ = typename cutlass::conv::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, kConvOp,
    ElementA, LayoutA, AlignmentA,
    ElementB, LayoutB, AlignmentB,
    ElementAccumulator, TileShape, ClusterShape,
    $STAGES$,
    cutlass::conv::KernelImplicitTmaWarpSpecializedSm90>::CollectiveOp;)CPP";

constexpr std::string_view kSm90NonPersistentKernel = R"CPP(// Implicit GEMM with TMA im2col loads: CUTLASS's non-persistent kernel, one consumer warp group.
$MAINLOOP_BUILDER$

using ProblemShape = cutlass::conv::ConvProblemShape<kConvOp, Mainloop::DispatchPolicy::NumSpatialDimensions>;
using Kernel = cutlass::conv::kernel::ConvUniversal<ProblemShape, Mainloop, Epilogue>;)CPP";

// CUTLASS 4.2's builder refuses persistent conv schedules, so the mainloop is the one-group
// collective widened to two consumer warp groups, run by ucutlass's persistent kernel
// (codegen/runtime/persistent_conv_sm90.hpp, copied into this header).
constexpr std::string_view kSm90PersistentKernel = R"CPP(// Implicit GEMM with TMA im2col loads: ucutlass's persistent cooperative kernel (one CTA per SM
// walks the output tiles; two consumer warp groups; the next tile loads during this one's epilogue).
$MAINLOOP_BUILDER$
using Mainloop = typename ucutlass_conv::TwoConsumerGroups<OneGroupMainloop>::type;

using ProblemShape = cutlass::conv::ConvProblemShape<kConvOp, Mainloop::DispatchPolicy::NumSpatialDimensions>;
using Kernel = ucutlass_conv::PersistentConvSm90<ProblemShape, Mainloop, Epilogue>;)CPP";

// Ping-pong: each consumer warp group runs whole tiles with the builder's one-group collective.
constexpr std::string_view kSm90PingPongKernel = R"CPP(// Implicit GEMM with TMA im2col loads: ucutlass's persistent ping-pong kernel (one CTA per SM walks
// the output tiles; two consumer warp groups take alternate tiles, one's epilogue beside the other's MMAs).
$MAINLOOP_BUILDER$

using ProblemShape = cutlass::conv::ConvProblemShape<kConvOp, Mainloop::DispatchPolicy::NumSpatialDimensions>;
using Kernel = ucutlass_conv::PersistentConvSm90<ProblemShape, Mainloop, Epilogue, /*PingPong=*/true>;)CPP";

constexpr std::string_view kSm80ConvTypes = R"CPP(// $ROLES$
using ElementA = $A$;
using ElementB = $B$;
using ElementD = $D$;
using ElementAccumulator = $ACC$;
using ElementCompute = float;
using LayoutA = $LAYOUT_ACT$;
using LayoutB = $LAYOUT_ACT$;
using LayoutC = $LAYOUT_ACT$;
constexpr int AlignmentA = $ALIGN_A$;
constexpr int AlignmentB = $ALIGN_B$;
constexpr int AlignmentC = $ALIGN_C$;
constexpr cutlass::conv::Operator kConvOp = $OPERATOR$;

// Like SM80 GEMMs, the 2.x conv epilogue reads C with D's type (D stands in when C is not read, beta = 0).
using EpilogueOp = $EPILOGUE_OP$;

using ConvKernel = typename cutlass::conv::kernel::$DEFAULT$<
    ElementA, LayoutA, ElementB, LayoutB, ElementD, LayoutC, ElementAccumulator,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    $TILE$,
    $WARP$,
    $INSTRUCTION$,
    EpilogueOp,
    $SWIZZLE$,
    $STAGES$,
    $MATH_OPERATOR$,
    $ALGORITHM$,
    $STRIDE_SUPPORT$$ALIGNMENTS$>::Kernel;
using Conv = cutlass::conv::device::ImplicitGemmConvolution<ConvKernel>;
)CPP";

bool is_strided(const ir::ConvProblem& p) {
  for (int i = 0; i < 3; ++i)
    if (p.stride.value[i] != 1) return true;
  return false;
}

Substitutions conv_common(const GemmKernel& k) {
  return {{"ROLES", role_comment(k.conv->mode)},
          {"A", element_type(k.a.value)},
          {"B", element_type(k.b.value)},
          {"C", element_type(k.c.value)},
          {"D", element_type(k.d.value)},
          {"BIAS", element_type(bias_dtype(k))},
          {"ACC", element_type(k.acc.value)},
          {"ALIGN_A", std::to_string(k.align_a.value)},
          {"ALIGN_B", std::to_string(k.align_b.value)},
          {"ALIGN_C", std::to_string(k.align_c.value)},
          {"OPERATOR", conv_operator(k.conv->mode)}};
}

}  // namespace

std::string conv_operator(ConvMode m) {
  switch (m) {
    case ConvMode::fprop: return "cutlass::conv::Operator::kFprop";
    case ConvMode::dgrad: return "cutlass::conv::Operator::kDgrad";
    case ConvMode::wgrad: return "cutlass::conv::Operator::kWgrad";
  }
  return "";
}

int sm80_conv_rank(const ir::ConvProblem& p) { return p.dims == 3 ? 3 : 2; }

bool uses_persistent_conv(const GemmKernel& k) {
  return k.is_conv() && k.arch.value == ir::Arch::sm90a && ir::is_persistent_conv_schedule(k.schedule.value);
}

std::string emit_sm90_conv_types(const GemmKernel& k) {
  Substitutions subs = conv_common(k);
  subs.insert(subs.end(), {{"LAYOUT_ACT", activation_layout(k.conv->dims)},
                           {"LAYOUT_C", sm90_output_layout(*k.conv)},
                           {"TILE", sm90_conv_tile(k)},
                           {"CLUSTER", cute_shape(k.cluster.value)},
                           {"FUSION", emit_sm90_fusion(k, "ConvParams")},
                           {"STAGES", sm90_stage_count(k)}});
  const bool persistent = uses_persistent_conv(k);
  const bool pingpong = persistent && k.schedule.value == ir::KernelSchedule::pingpong;
  const bool cooperative = persistent && !pingpong;  // the only one whose mainloop is widened to two groups
  subs.push_back({"EPILOGUE_SCHEDULE", cooperative ? "cutlass::epilogue::TmaWarpSpecializedCooperative"
                                                   : "cutlass::epilogue::TmaWarpSpecialized"});
  subs.push_back({"MAINLOOP", cooperative ? "OneGroupMainloop" : "Mainloop"});
  subs.push_back({"MAINLOOP_BUILDER", fill(kSm90ConvMainloop, subs)});
  subs.push_back({"MAINLOOP_AND_KERNEL", fill(!persistent ? kSm90NonPersistentKernel
                                              : pingpong  ? kSm90PingPongKernel
                                                          : kSm90PersistentKernel,
                                              subs)});
  return emit_custom_activations(k) + fill(kSm90ConvTypes, subs);
}

std::string emit_sm80_conv_types(const GemmKernel& k) {
  if (k.conv->is_depthwise()) return emit_sm80_depthwise_types(k);
  const ir::ConvProblem& p = *k.conv;
  const int rank = sm80_conv_rank(p);
  const char* pass = p.mode == ConvMode::fprop ? "Fprop" : p.mode == ConvMode::dgrad ? "Dgrad" : "Wgrad";
  // Strided dgrad has its own kernel and swizzle; every other pass handles strides in its iterators.
  const bool strided_dgrad = p.mode == ConvMode::dgrad && is_strided(p);
  const std::string swizzle = std::to_string(k.swizzle.value);
  // Grouped fprop: one group per CTA runs the optimized iterators, several groups per CTA the analytic ones.
  const bool grouped = p.groups.value > 1;
  const bool single_group = grouped && (p.k.value / p.groups.value) % k.tile.value.n == 0;
  // CUTLASS 4.2 has strided conv3d dgrad only with analytic iterators (in the plain kernel and swizzle).
  const bool strided_dgrad_3d = strided_dgrad && rank == 3;
  const std::string algorithm =
      strided_dgrad_3d ? "cutlass::conv::IteratorAlgorithm::kAnalytic"
      : !grouped       ? "cutlass::conv::IteratorAlgorithm::kOptimized"
      : single_group ? "cutlass::conv::GroupMode::kSingleGroup,\n    cutlass::conv::IteratorAlgorithm::kOptimized"
                     : "cutlass::conv::GroupMode::kMultipleGroup,\n    cutlass::conv::IteratorAlgorithm::kAnalytic";
  Substitutions subs = conv_common(k);
  subs.insert(subs.end(),
              {{"LAYOUT_ACT", activation_layout(rank)},
               {"EPILOGUE_OP", emit_sm80_epilogue_op(k)},
               {"DEFAULT", grouped ? std::string("DefaultConv2dGroupFprop") : "DefaultConv" + std::to_string(rank) + "d" + pass},
               {"ALGORITHM", algorithm},
               {"TILE", gemm_shape(k.tile.value)},
               {"WARP", gemm_shape(sm80_warp_shape(k))},
               {"INSTRUCTION", gemm_shape(sm80_instruction_shape(k))},
               {"SWIZZLE", strided_dgrad && !strided_dgrad_3d
                               ? "cutlass::conv::threadblock::StridedDgradIdentityThreadblockSwizzle<" + swizzle + ">"
                                         : "cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<" + swizzle + ">"},
               {"STAGES", std::to_string(k.stages.value)},
               {"MATH_OPERATOR", k.math.value == ir::MathPath::tf32x3 ? "cutlass::arch::OpMultiplyAddFastF32"
                                                                       : "cutlass::arch::OpMultiplyAdd"},
               {"STRIDE_SUPPORT", p.mode == ConvMode::dgrad && !strided_dgrad ? "cutlass::conv::StrideSupport::kUnity"
                                                                               : "cutlass::conv::StrideSupport::kStrided"},
               // The 3D defaults take no alignments: they load 128-bit vectors (validate_conv checks the channels).
               {"ALIGNMENTS", rank == 2 ? ",\n    AlignmentA, AlignmentB" : ""}});
  return emit_custom_activations(k) + fill(kSm80ConvTypes, subs);
}

}  // namespace ucutlass::codegen
