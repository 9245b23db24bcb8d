#include "codegen/depthwise_types.h"

#include "codegen/cutlass_names.h"
#include "codegen/kernel_types.h"
#include "codegen/text_template.h"
#include "ir/validate_depthwise.h"

namespace ucutlass::codegen {

namespace {

using ir::GemmKernel;

constexpr std::string_view kTypes = R"CPP(// depthwise fprop (groups = c = k): A = x (activation), B = w (filter [k, r, s], read reordered
// to [r * s, k]), D = y. CUTLASS's direct convolution on CUDA cores (SIMT), not an implicit GEMM.
using ElementA = $A$;
using ElementB = $B$;
using ElementD = $D$;
using ElementAccumulator = $ACC$;
using ElementCompute = float;
using LayoutA = cutlass::layout::TensorNHWC;
using LayoutB = cutlass::layout::TensorNHWC;
using LayoutC = cutlass::layout::TensorNHWC;
constexpr int AlignmentA = $ALIGN_A$;
constexpr int AlignmentB = $ALIGN_B$;
constexpr int AlignmentC = $ALIGN_C$;
constexpr cutlass::conv::Operator kConvOp = cutlass::conv::Operator::kFprop;

// The 2.x epilogue reads C with D's type (D stands in when C is not read, beta = 0).
using EpilogueOp = $EPILOGUE_OP$;

// A CTA computes a tile of $OUT_H$x$OUT_W$ output pixels by $TILE_N$ channels with all $R$x$S$ taps, then moves
// to its next output tile; $WARPS$ warps of $WARP_M$ pixels each span all $TILE_N$ channels.
constexpr int kOutputTileH = $OUT_H$;
constexpr int kOutputTileW = $OUT_W$;
constexpr int kChannelsPerCta = $TILE_N$;
using ThreadblockShape = cutlass::gemm::GemmShape<$TILE_M$, kChannelsPerCta, $TAPS$>;
using ThreadBlockOutputShape = cutlass::conv::TensorNHWCShape<1, kOutputTileH, kOutputTileW, kChannelsPerCta>;
using FilterShape = cutlass::MatrixShape<$R$, $S$>;
using WarpShape = cutlass::gemm::GemmShape<$WARP_M$, kChannelsPerCta, $TAPS$>;

// kOptimized: stride and dilation are run-time values (the activation tile is sized per launch).
using ConvKernel = typename cutlass::conv::kernel::DefaultDepthwiseDirect2dConvFprop<
    ElementA, LayoutA, ElementB, LayoutB, ElementD, LayoutC, ElementAccumulator,
    cutlass::arch::OpClassSimt, cutlass::arch::Sm80,
    ThreadblockShape, ThreadBlockOutputShape, FilterShape, WarpShape,
    cutlass::gemm::GemmShape<1, 1, 1>,
    EpilogueOp,
    cutlass::conv::threadblock::DepthwiseDirect2dConvIdentityThreadblockSwizzle<1>,
    $STAGES$,
    cutlass::arch::OpMultiplyAdd,
    cutlass::conv::IteratorAlgorithm::kOptimized,
    cutlass::conv::StrideSupport::kStrided,
    cutlass::MatrixShape<-1, -1>, cutlass::MatrixShape<-1, -1>,
    AlignmentA, AlignmentB>::Kernel;
using Conv = detail::DirectConvWithReorderedFilter<cutlass::conv::device::DirectConvolution<ConvKernel>>;
)CPP";

// The grid has one CTA row per channel tile; Conv2dProblemSize::split_k_slices is how many CTAs
// share a channel tile's output tiles (CTA z takes tiles z, z + slices, ...), not split-K.
constexpr std::string_view kCtaSlices = R"CPP(  // Each CTA takes up to kTilesPerCta output tiles (its pipeline overlaps their loads); gridDim.z <= 65535.
  constexpr long long kTilesPerCta = 4;
  const long long tiles = static_cast<long long>(p.n) * ((out_p + kOutputTileH - 1) / kOutputTileH) *
                          ((out_q + kOutputTileW - 1) / kOutputTileW);
  const long long wanted = (tiles + kTilesPerCta - 1) / kTilesPerCta;
  const int slices = static_cast<int>(wanted < 65535 ? wanted : 65535);
)CPP";

constexpr std::string_view kHelpers = R"CPP(
// Direct (depthwise) convolutions read the filter reordered to [r * s, k]: DirectConvolution::run
// launches the reorder into Arguments::ref_reordered_B, a buffer its get_workspace_size does not
// count. Here that buffer is the workspace (k * r * s filter elements), so detail::run gives it the
// caller's workspace or a stream-ordered allocation freed after the launch, as for any kernel.
template <class DirectConv>
struct DirectConvWithReorderedFilter : DirectConv {
  static size_t get_workspace_size(const typename DirectConv::Arguments& args) {
    return static_cast<size_t>(args.problem_size.filter_size()) * sizeof(typename DirectConv::ElementB);
  }
  cutlass::Status initialize(typename DirectConv::Arguments args, void* workspace, cudaStream_t stream) {
    args.ref_reordered_B.reset(static_cast<typename DirectConv::ElementB*>(workspace), args.ref_B.layout());
    return DirectConv::initialize(args, nullptr, stream);
  }
};
)CPP";

std::string num(int64_t v) { return std::to_string(v); }

}  // namespace

bool program_has_depthwise(const ir::Program& p) {
  for (const GemmKernel& k : p.kernels)
    if (k.is_conv() && k.arch.value == ir::Arch::sm80 && k.conv->is_depthwise()) return true;
  return false;
}

std::string emit_sm80_depthwise_types(const GemmKernel& k) {
  const ir::ConvProblem& p = *k.conv;
  const ir::DepthwiseTiling dt = ir::depthwise_tiling(k);
  const ir::Shape3& t = k.tile.value;
  return emit_custom_activations(k) + fill(kTypes, {{"A", element_type(k.a.value)},
                                                    {"B", element_type(k.b.value)},
                                                    {"D", element_type(k.d.value)},
                                                    {"ACC", element_type(k.acc.value)},
                                                    {"ALIGN_A", num(k.align_a.value)},
                                                    {"ALIGN_B", num(k.align_b.value)},
                                                    {"ALIGN_C", num(k.align_c.value)},
                                                    {"EPILOGUE_OP", emit_sm80_epilogue_op(k)},
                                                    {"OUT_H", num(dt.out_h)},
                                                    {"OUT_W", num(dt.out_w)},
                                                    {"TILE_M", num(t.m)},
                                                    {"TILE_N", num(t.n)},
                                                    {"TAPS", num(t.k)},
                                                    {"R", num(p.filter[1].value)},
                                                    {"S", num(p.filter[2].value)},
                                                    {"WARPS", num(k.warps.value.m)},
                                                    {"WARP_M", num(dt.warp_m)},
                                                    {"STAGES", num(k.stages.value)}});
}

std::string emit_depthwise_cta_slices() { return std::string(kCtaSlices); }

std::string emit_depthwise_reordered_filter_argument() {
  // Set by DirectConvWithReorderedFilter::initialize; CUTLASS's default (nullptr) does not convert to a TensorRef.
  return ",\n      cutlass::TensorRef<ElementB, LayoutB>(nullptr, ref_b.layout())";
}

std::string emit_depthwise_host_helpers(const ir::Program& p) {
  return program_has_depthwise(p) ? std::string(kHelpers) : "";
}

}  // namespace ucutlass::codegen
