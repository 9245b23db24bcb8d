#include "codegen/conv_host_entry.h"

#include "codegen/conv_types.h"
#include "codegen/depthwise_types.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::ConvMode;
using ir::GemmKernel;

constexpr std::string_view kConvPrelude = R"CPP(
// Runtime contract of the convolution kernels in this header. Tensors are
// channels-last and densely packed: activations and gradients [n, d, h, w, c]
// (NDHWC), filters [k, t, r, s, c / groups] (KTRSC). A, B and D of each pass:
// fprop x, w -> y; dgrad dy, w -> dx; wgrad dy, x -> dw. Extents describe the
// forward problem (input x, filter w) and must equal the program's fixed ones;
// unused spatial dimensions are 1 (d and t for conv2d; d, h, t, r for conv1d),
// and pad, stride, dilation are given for d, h, w.
struct ConvParams {
  const void* a;
  const void* b;
  const void* c;
  void* d;
  const void* bias;
  int n, in_d, in_h, in_w, in_c, out_c, t, r, s;
  int pad[3], stride[3], dilation[3];
  int groups;
  float alpha, beta;
  void* extra[8];  // epilogue operands (scalars, per-channel vectors) in the manifest's "extras" order
};

// Two calls' params name the same operands (detail::run's LaunchCache): the
// fields up to beta, then the extras, bytewise; the padding before the extras is
// left out.
inline bool same_operands(const ConvParams& x, const ConvParams& y) {
  constexpr size_t head = offsetof(ConvParams, beta) + sizeof(float);
  return std::memcmp(&x, &y, head) == 0 && std::memcmp(x.extra, y.extra, sizeof x.extra) == 0;
}

namespace detail {

inline Status check_conv_window(const char* kernel, const ConvParams& p, const int (&pad)[3], const int (&stride)[3],
                                const int (&dilation)[3], int groups) {
  static const char* const kDim[3] = {"d", "h", "w"};
  for (int i = 0; i < 3; ++i)
    if (p.pad[i] != pad[i] || p.stride[i] != stride[i] || p.dilation[i] != dilation[i])
      return error(1, "%s: along %s pad, stride, dilation = %d, %d, %d but the kernel was compiled for %d, %d, %d",
                   kernel, kDim[i], p.pad[i], p.stride[i], p.dilation[i], pad[i], stride[i], dilation[i]);
  if (p.groups != groups)
    return error(1, "%s: groups = %d but the kernel was compiled for groups = %d", kernel, p.groups, groups);
  return Status{0, nullptr};
}

// Output extent along one dimension, PyTorch's formula; < 1 when the filter does not fit.
inline int conv_output_extent(int in, int pad, int filter, int stride, int dilation) {
  const int span = dilation * (filter - 1) + 1;
  return in + 2 * pad < span ? 0 : (in + 2 * pad - span) / stride + 1;
}
$SM90_HELPERS$$DIRECT_HELPERS$
}  // namespace detail
)CPP";

// The SM90 problem shape wants explicit strides; D's epilogue stride is nested per pass.
constexpr std::string_view kSm90Helpers = R"CPP(
// Strides of a densely packed tensor whose last mode is contiguous.
template <class Stride, class Extent>
Stride packed_strides(const Extent& extent) {
  Stride s{};
  std::int64_t step = 1;
  for (int i = static_cast<int>(extent.size()) - 1; i >= 0; --i) {
    s[i] = step;
    step *= extent[i];
  }
  return s;
}

// The epilogue's stride of C/D from the problem's output tensor: fprop and dgrad
// address D as ((w, h, d, n), c); wgrad as (k, (c, s, r, t)), packed_stride.hpp's form.
template <cutlass::conv::Operator Op, class ProblemShape, class Stride>
void set_output_stride(const ProblemShape& problem, Stride& s) {
  if constexpr (Op == cutlass::conv::Operator::kWgrad) {
    s = cutlass::make_cute_packed_stride(Stride{}, problem.shape_C, problem.stride_C, Op);
  } else {
    cute::for_each(cute::make_seq<cute::rank<0>(Stride{})>{},
                   [&](auto i) { cute::get<0, i>(s) = problem.stride_C[ProblemShape::RankT - 2 - i]; });
  }
}
)CPP";

// Problem, pointers; leaves out_z, out_p, out_q behind for the arguments.
constexpr std::string_view kConvChecks = R"CPP(  const char* kernel = "$NAME$";
  Status st{0, nullptr};
  if ((st = detail::check_extent(kernel, "n", p.n, $N$)).code ||
      (st = detail::check_extent(kernel, "in_d", p.in_d, $D$)).code ||
      (st = detail::check_extent(kernel, "in_h", p.in_h, $H$)).code ||
      (st = detail::check_extent(kernel, "in_w", p.in_w, $W$)).code ||
      (st = detail::check_extent(kernel, "in_c", p.in_c, $C$)).code ||
      (st = detail::check_extent(kernel, "out_c", p.out_c, $K$)).code ||
      (st = detail::check_extent(kernel, "t", p.t, $T$)).code ||
      (st = detail::check_extent(kernel, "r", p.r, $R$)).code ||
      (st = detail::check_extent(kernel, "s", p.s, $S$)).code ||
      (st = detail::check_conv_window(kernel, p, {$PAD$}, {$STRIDE$}, {$DILATION$}, $GROUPS$)).code)
    return st;
  const int out_z = detail::conv_output_extent(p.in_d, p.pad[0], p.t, p.stride[0], p.dilation[0]);
  const int out_p = detail::conv_output_extent(p.in_h, p.pad[1], p.r, p.stride[1], p.dilation[1]);
  const int out_q = detail::conv_output_extent(p.in_w, p.pad[2], p.s, p.stride[2], p.dilation[2]);
  if (out_z < 1 || out_p < 1 || out_q < 1)
    return detail::error(1, "%s: the filter does not fit the padded input (output %d x %d x %d)", kernel, out_z,
                         out_p, out_q);
  if ((st = detail::check_extra_pointer(kernel, "$A_NAME$ (A)", p.a, AlignmentA * $BYTES_A$)).code ||
      (st = detail::check_extra_pointer(kernel, "$B_NAME$ (B)", p.b, AlignmentB * $BYTES_B$)).code ||
      (st = detail::check_extra_pointer(kernel, "$D_NAME$ (D)", p.d, AlignmentC * $BYTES_D$)).code)
    return st;
$SOURCE_CHECK$$BIAS_CHECK$$EXTRA_CHECKS$)CPP";

constexpr std::string_view kSm90ConvArguments = R"CPP(inline Status make_arguments(const ConvParams& p, typename Conv::Arguments& args) {
$CHECKS$  (void)out_z; (void)out_p; (void)out_q;  // the problem shape derives them again
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return detail::cuda_error("cudaGetDevice", e);
  using Extent = typename ProblemShape::TensorExtent;
  using Stride = typename ProblemShape::TensorStride;
  using Spatial = typename ProblemShape::SpatialExtent;
  const Extent activation{$ACT_EXTENT$};
  const Extent filter{$FILTER_EXTENT$};
  const Spatial pad{$SPATIAL_PAD$}, traversal{$SPATIAL_STRIDE$}, dilation{$SPATIAL_DILATION$};
  const ProblemShape problem(cutlass::conv::Mode::kCrossCorrelation, activation,
                             detail::packed_strides<Stride>(activation), filter, detail::packed_strides<Stride>(filter),
                             pad, pad, traversal, dilation, p.groups);
  args.mode = cutlass::gemm::GemmUniversalMode::kGemm;
  args.problem_shape = problem;
  args.mainloop.ptr_A = static_cast<ElementA const*>(p.a);
  args.mainloop.ptr_B = static_cast<ElementB const*>(p.b);
  args.epilogue.ptr_C = $PTR_C$;
  args.epilogue.ptr_D = static_cast<ElementD*>(p.d);
  detail::set_output_stride<kConvOp>(problem, args.epilogue.dC);
  detail::set_output_stride<kConvOp>(problem, args.epilogue.dD);
  set_fusion_arguments(args.epilogue.thread, p);
  args.hw_info.device_id = device;
  args.hw_info.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(device);
  return Status{0, nullptr};
}
)CPP";

constexpr std::string_view kSm80ConvArguments = R"CPP(inline Status make_arguments(const ConvParams& p, typename Conv::Arguments& args) {
$CHECKS$  const $PROBLEM_TYPE$ problem($PROBLEM_ARGS$,
      cutlass::conv::Mode::kCrossCorrelation, $SLICES$, p.groups);
  // 2.x tensor refs are non-const; the kernel only reads A, B and C.
  const cutlass::TensorRef<ElementA, LayoutA> ref_a(static_cast<ElementA*>(const_cast<void*>(p.a)),
      LayoutA::packed(cutlass::conv::implicit_gemm_tensor_a_extent(kConvOp, problem)));
  const cutlass::TensorRef<ElementB, LayoutB> ref_b(static_cast<ElementB*>(const_cast<void*>(p.b)),
      LayoutB::packed(cutlass::conv::implicit_gemm_tensor_b_extent(kConvOp, problem)));
  const LayoutC layout_c = LayoutC::packed(cutlass::conv::implicit_gemm_tensor_c_extent(kConvOp, problem));
  const cutlass::TensorRef<ElementD, LayoutC> ref_c(static_cast<ElementD*>(const_cast<void*>($SOURCE$)), $SOURCE_LAYOUT$);
  const cutlass::TensorRef<ElementD, LayoutC> ref_d(static_cast<ElementD*>(p.d), layout_c);
  args = typename Conv::Arguments(problem, ref_a, ref_b, ref_c, ref_d, typename EpilogueOp::Params(p.alpha, $BETA$)$MORE$);
  return Status{0, nullptr};
}
)CPP";

constexpr std::string_view kConvEntry = R"CPP(// $SUMMARY$
inline size_t $NAME$_workspace_size(const ConvParams& p) {
  return detail::workspace_size<$NAME$_detail::Conv>(&$NAME$_detail::make_arguments, p);
}

inline Status $NAME$_run(const ConvParams& p, cudaStream_t stream, void* workspace = nullptr,
                   size_t workspace_bytes = 0) {
  static detail::LaunchCacheFor<$NAME$_detail::Conv, ConvParams> cache;
  return detail::run<$NAME$_detail::Conv>(&$NAME$_detail::make_arguments, p, stream, workspace, workspace_bytes, cache);
}
)CPP";

std::string num(int64_t v) { return std::to_string(v); }
std::string bytes_of(ir::DType t) { return std::to_string(ir::bits_of(t) / 8); }

std::string triple(const ir::ConvWindow& w) { return num(w.value[0]) + ", " + num(w.value[1]) + ", " + num(w.value[2]); }

// The tensor names of A, B and D per pass, as the torch binding calls them.
struct Roles {
  const char* a;
  const char* b;
  const char* d;
};
Roles roles(ConvMode m) {
  switch (m) {
    case ConvMode::fprop: return {"x", "w", "y"};
    case ConvMode::dgrad: return {"dy", "w", "dx"};
    case ConvMode::wgrad: return {"dy", "x", "dw"};
  }
  return {"a", "b", "d"};
}

std::string extra_checks(const GemmKernel& k) {
  std::string out;
  for (size_t i = 0; i < k.extras.size(); ++i) {
    const ir::EpilogueExtra& x = k.extras[i];
    out += "  if ((st = detail::check_extra_pointer(kernel, \"" + x.name + "\", p.extra[" + std::to_string(i) +
           "], " + (x.kind == ir::ExtraKind::scalar ? "4" : "16") + ")).code) return st;\n";
  }
  return out;
}

std::string checks(const GemmKernel& k) {
  const ir::ConvProblem& p = *k.conv;
  const Roles r = roles(p.mode);
  return fill(kConvChecks,
              {{"NAME", k.name},
               {"N", num(p.n.value)},
               {"D", num(p.input[0].value)},
               {"H", num(p.input[1].value)},
               {"W", num(p.input[2].value)},
               {"C", num(p.c.value)},
               {"K", num(p.k.value)},
               {"T", num(p.filter[0].value)},
               {"R", num(p.filter[1].value)},
               {"S", num(p.filter[2].value)},
               {"PAD", triple(p.pad)},
               {"STRIDE", triple(p.stride)},
               {"DILATION", triple(p.dilation)},
               {"GROUPS", num(p.groups.value)},
               {"A_NAME", r.a},
               {"B_NAME", r.b},
               {"D_NAME", r.d},
               {"BYTES_A", bytes_of(k.a.value)},
               {"BYTES_B", bytes_of(k.b.value)},
               {"BYTES_D", bytes_of(k.d.value)},
               {"SOURCE_CHECK", k.has_source() ? "  if ((st = detail::check_extra_pointer(kernel, \"c\", p.c, AlignmentC * " +
                                                     bytes_of(k.c.value) + ")).code) return st;\n"
                                               : ""},
               {"BIAS_CHECK", k.has_bias() ? "  if ((st = detail::check_bias(kernel, p.bias)).code) return st;\n" : ""},
               {"EXTRA_CHECKS", extra_checks(k)}});
}

// Extents in the kernel's rank: [n, (d, (h,)) w, c] and [k, (t, (r,)) s, c / groups].
std::string ranked(int dims, const char* first, const char* const (&spatial)[3], const char* last) {
  std::string s = first;
  for (int i = 3 - dims; i < 3; ++i) s += std::string(", ") + spatial[i];
  return s + ", " + last;
}

std::string spatial(int dims, const char* field) {
  std::string s;
  for (int i = 3 - dims; i < 3; ++i) s += (s.empty() ? "" : ", ") + std::string("p.") + field + "[" + num(i) + "]";
  return s;
}

std::string sm90_arguments(const GemmKernel& k) {
  const int dims = k.conv->dims;
  static const char* const kIn[3] = {"p.in_d", "p.in_h", "p.in_w"};
  static const char* const kFilter[3] = {"p.t", "p.r", "p.s"};
  return fill(kSm90ConvArguments,
              {{"CHECKS", checks(k)},
               {"ACT_EXTENT", ranked(dims, "p.n", kIn, "p.in_c")},
               {"FILTER_EXTENT", ranked(dims, "p.out_c", kFilter, "p.in_c / p.groups")},
               {"SPATIAL_PAD", spatial(dims, "pad")},
               {"SPATIAL_STRIDE", spatial(dims, "stride")},
               {"SPATIAL_DILATION", spatial(dims, "dilation")},
               {"PTR_C", k.has_source() ? "static_cast<ElementC const*>(p.c)" : "nullptr"}});
}

std::string sm80_arguments(const GemmKernel& k) {
  const bool three = sm80_conv_rank(*k.conv) == 3;
  const bool depthwise = k.conv->is_depthwise();
  const std::string args =
      three ? "\n      p.n, p.in_d, p.in_h, p.in_w, p.in_c, p.out_c, p.t, p.r, p.s, out_z, out_p, out_q,\n"
              "      p.pad[0], p.pad[1], p.pad[2], p.stride[0], p.stride[1], p.stride[2],\n"
              "      p.dilation[0], p.dilation[1], p.dilation[2]"
            : "\n      p.n, p.in_h, p.in_w, p.in_c, p.out_c, p.r, p.s, out_p, out_q,\n"
              "      p.pad[1], p.pad[2], p.stride[1], p.stride[2], p.dilation[1], p.dilation[2]";
  return fill(kSm80ConvArguments,
              {{"CHECKS", checks(k) + (three ? "" : "  (void)out_z;  // conv2d (and conv1d as conv2d): depth is 1\n") +
                              (depthwise ? emit_depthwise_cta_slices() : "")},
               {"PROBLEM_TYPE", three ? "cutlass::conv::Conv3dProblemSize" : "cutlass::conv::Conv2dProblemSize"},
               {"PROBLEM_ARGS", args},
               // A bias per output channel is C with every stride 0 but the channel's: each
               // output pixel reads the same K values, added with beta = 1.
               {"SOURCE", k.has_source() ? "p.c" : k.has_bias() ? "p.bias" : "p.d"},
               {"SOURCE_LAYOUT", !k.has_source() && k.has_bias() ? "LayoutC(typename LayoutC::Stride())" : "layout_c"},
               {"BETA", k.has_source() ? "p.beta" : k.has_bias() ? "1.0f" : "0.0f"},
               // The direct (depthwise) convolution: CTAs per channel tile, and its reordered filter.
               {"SLICES", depthwise ? "slices" : "1"},
               {"MORE", depthwise ? emit_depthwise_reordered_filter_argument() : ""}});
}

}  // namespace

bool program_has_conv(const ir::Program& p) {
  for (const GemmKernel& k : p.kernels)
    if (k.is_conv()) return true;
  return false;
}

bool program_has_conv(const ir::Program& p, ir::Arch arch) {
  for (const GemmKernel& k : p.kernels)
    if (k.is_conv() && k.arch.value == arch) return true;
  return false;
}

std::string emit_conv_host_prelude(const ir::Program& p) {
  if (!program_has_conv(p)) return "";
  return fill(kConvPrelude, {{"SM90_HELPERS", program_has_conv(p, ir::Arch::sm90a) ? std::string(kSm90Helpers) : ""},
                             {"DIRECT_HELPERS", emit_depthwise_host_helpers(p)}});
}

std::string emit_conv_make_arguments(const GemmKernel& k) {
  return k.arch.value == ir::Arch::sm80 ? sm80_arguments(k) : sm90_arguments(k);
}

std::string emit_conv_host_entry(const GemmKernel& k) {
  const ir::ConvProblem& p = *k.conv;
  const Roles r = roles(p.mode);
  std::string summary = std::string(ir::name_of(k.arch.value)) + " " + ir::conv_op_name(p) + " " +
                        std::string(ir::name_of(p.mode)) + ": " + r.a + " (A), " + r.b + " (B) -> " + r.d + " (D), " +
                        std::string(ir::name_of(k.a.value)) + " -> " + std::string(ir::name_of(k.d.value)) + ", C " +
                        (k.has_source() ? "read" : "not read (void)") + (k.has_bias() ? ", bias per output channel" : "") +
                        (k.arch.value == ir::Arch::sm80 && p.is_depthwise()
                             ? "; depthwise, the direct convolution (workspace: the filter reordered, k * r * s elements)"
                             : "");
  return fill(kConvEntry, {{"NAME", k.name}, {"SUMMARY", summary}});
}

std::string emit_c_conv_params_struct() {
  return R"CPP(typedef struct ucutlass_conv_params {
  const void* a;
  const void* b;
  const void* c;
  void* d;
  const void* bias;
  int n, in_d, in_h, in_w, in_c, out_c, t, r, s;
  int pad[3], stride[3], dilation[3];
  int groups;
  float alpha, beta;
  void* extra[8];
} ucutlass_conv_params;
)CPP";
}

}  // namespace ucutlass::codegen
