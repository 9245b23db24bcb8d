#include "codegen/kernel_types.h"

#include <stdexcept>
#include <vector>

#include "codegen/cutlass_names.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::Activation;
using ir::EpilogueStep;
using ir::GemmKernel;

bool is_plain_epilogue(const GemmKernel& k) { return k.epilogue.empty(); }

std::string custom_functor_name(const EpilogueStep& s, size_t index) {
  return (s.act == Activation::leaky_relu ? "LeakyRelu" : "Clamp") + std::to_string(index);
}

constexpr std::string_view kCustomActivation = R"CPP(// Epilogue step $INDEX$: $WHAT$.
template <class T>
struct $NAME$ {
  CUTLASS_HOST_DEVICE T operator()(T const& x) const {
    return $SCALAR_BODY$;
  }
};

template <class T, int N>
struct $NAME$<cutlass::Array<T, N>> {
  CUTLASS_HOST_DEVICE cutlass::Array<T, N> operator()(cutlass::Array<T, N> const& x) const {
    $NAME$<T> scalar;
    cutlass::Array<T, N> y;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < N; ++i) y[i] = scalar(x[i]);
    return y;
  }
};

)CPP";

// ---------------------------------------------------------------------------
// SM90 epilogue: an EVT tree that computes the steps in program order.

struct EvtNode {
  std::string alias;        // name of the `using` that declares this node
  std::string op;           // leaf type, or the Sm90Compute of an inner node
  std::string argument;     // assignment suffix for a leaf's runtime value, e.g. ".scalars[0] = alpha;"
  std::vector<EvtNode> children;
};

EvtNode leaf(std::string alias, std::string type, std::string argument = "") {
  return EvtNode{std::move(alias), std::move(type), std::move(argument), {}};
}

std::string compute(const std::string& fn, bool is_root) {
  return "cutlass::epilogue::fusion::Sm90Compute<" + fn + ", " + (is_root ? "ElementD" : "ElementCompute") +
         ", ElementCompute, cutlass::FloatRoundStyle::round_to_nearest>";
}

// The tree, root last in the step order: lincomb, then each step wraps the tree so far.
EvtNode build_evt(const GemmKernel& k) {
  size_t inner = 0;
  auto node = [&](std::string fn, std::vector<EvtNode> children, bool is_root) {
    return EvtNode{"EvtNode" + std::to_string(inner++), compute(fn, is_root), "", std::move(children)};
  };
  const size_t steps = k.epilogue.size();
  EvtNode alpha = leaf("EvtAlpha", "cutlass::epilogue::fusion::Sm90ScalarBroadcast<ElementCompute>",
                       ".scalars[0] = alpha;");
  EvtNode acc = leaf("EvtAcc", "cutlass::epilogue::fusion::Sm90AccFetch");
  EvtNode tree = node("cutlass::multiplies", {alpha, acc}, !k.has_source() && steps == 0);
  if (k.has_source()) {
    EvtNode beta = leaf("EvtBeta", "cutlass::epilogue::fusion::Sm90ScalarBroadcast<ElementCompute>",
                        ".scalars[0] = beta;");
    EvtNode src = leaf("EvtSource", "cutlass::epilogue::fusion::Sm90SrcFetch<ElementC>");
    tree = node("cutlass::homogeneous_multiply_add", {beta, src, tree}, steps == 0);
  }
  for (size_t i = 0; i < steps; ++i) {
    const EpilogueStep& s = k.epilogue[i];
    const bool is_root = i + 1 == steps;
    if (s.kind == EpilogueStep::Kind::bias) {
      // CUTLASS's naming trap: a per-column bias (length N) is a *row* broadcast.
      EvtNode bias = s.bias == ir::BiasKind::col
                         ? leaf("EvtBias" + std::to_string(i),
                                "cutlass::epilogue::fusion::Sm90RowBroadcast<0, TileShape, ElementBias, "
                                "ElementCompute>",
                                ".ptr_row = static_cast<ElementBias const*>(bias);")
                         : leaf("EvtBias" + std::to_string(i),
                                "cutlass::epilogue::fusion::Sm90ColBroadcast<0, TileShape, ElementBias, "
                                "ElementCompute>",
                                ".ptr_col = static_cast<ElementBias const*>(bias);");
      tree = node("cutlass::plus", {tree, bias}, is_root);
    } else {
      tree = node(activation_functor(k, i), {tree}, is_root);
    }
  }
  return tree;
}

void declare_evt(const EvtNode& n, std::string& out) {
  for (const EvtNode& c : n.children) declare_evt(c, out);
  if (n.children.empty()) {
    out += "using " + n.alias + " = " + n.op + ";\n";
    return;
  }
  out += "using " + n.alias + " = cutlass::epilogue::fusion::Sm90EVT<\n    " + n.op;
  for (const EvtNode& c : n.children) out += ",\n    " + c.alias;
  out += ">;\n";
}

// Sm90EVT<Op, Children...> keeps child i in member op_i (the node's own op comes last).
void assign_evt(const EvtNode& n, const std::string& path, std::string& out) {
  if (!n.argument.empty()) out += "  fusion" + path + n.argument + "\n";
  for (size_t i = 0; i < n.children.size(); ++i)
    assign_evt(n.children[i], path + ".op_" + std::to_string(i), out);
}

std::string sm90_fusion(const GemmKernel& k) {
  if (is_plain_epilogue(k)) {
    return "using Fusion = cutlass::epilogue::fusion::LinearCombination<ElementD, ElementCompute, ElementC, "
           "ElementCompute>;\n\n"
           "template <class FusionArguments>\n"
           "void set_fusion_arguments(FusionArguments& fusion, float alpha, float beta, const void*) {\n"
           "  fusion.alpha = alpha;\n" +
           std::string(k.has_source() ? "  fusion.beta = beta;\n" : "  (void)beta;\n") + "}\n";
  }
  EvtNode tree = build_evt(k);
  std::string out = "// D = " + std::string(k.has_source() ? "alpha * acc + beta * C" : "alpha * acc");
  for (const EpilogueStep& s : k.epilogue)
    out += s.kind == EpilogueStep::Kind::bias ? ", + bias(" + std::string(ir::name_of(s.bias)) + ")"
                                              : ", " + std::string(ir::name_of(s.act));
  out += "\n";
  declare_evt(tree, out);
  out += "using Fusion = " + tree.alias + ";\n\n";
  out += "template <class FusionArguments>\n"
         "void set_fusion_arguments(FusionArguments& fusion, float alpha, float beta, const void* bias) {\n";
  if (!k.has_source()) out += "  (void)beta;\n";
  if (!k.has_bias()) out += "  (void)bias;\n";
  assign_evt(tree, "", out);
  out += "}\n";
  return out;
}

std::string stage_count(const GemmKernel& k) {
  if (k.stages.value > 0)
    return "cutlass::gemm::collective::StageCount<" + std::to_string(k.stages.value) + ">";
  return "cutlass::gemm::collective::StageCountAutoCarveout<\n        static_cast<int>(sizeof(typename "
         "Epilogue::SharedStorage))>";
}

constexpr std::string_view kSm90Types = R"CPP(using ElementA = $A$;
using ElementB = $B$;
using ElementC = $C$;
using ElementD = $D$;
using ElementBias = $BIAS$;
using ElementAccumulator = $ACC$;
using ElementCompute = float;
using LayoutA = $LAYOUT_A$;
using LayoutB = $LAYOUT_B$;
using LayoutC = $LAYOUT_C$;
constexpr int AlignmentA = $ALIGN_A$;
constexpr int AlignmentB = $ALIGN_B$;
constexpr int AlignmentC = $ALIGN_C$;
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

using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    ElementA, LayoutA, AlignmentA,
    ElementB, LayoutB, AlignmentB,
    ElementAccumulator, TileShape, ClusterShape,
    $STAGES$,
    $KERNEL_SCHEDULE$>::CollectiveOp;

using Kernel = cutlass::gemm::kernel::GemmUniversal<
    cute::Shape<int, int, int, int>, Mainloop, Epilogue,
    $TILE_SCHEDULER$>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
)CPP";

constexpr std::string_view kSm80Types = R"CPP(using ElementA = $A$;
using ElementB = $B$;
using ElementD = $D$;
using ElementAccumulator = $ACC$;
using ElementCompute = float;
using LayoutA = $LAYOUT_A$;
using LayoutB = $LAYOUT_B$;
using LayoutC = $LAYOUT_C$;
constexpr int AlignmentA = $ALIGN_A$;
constexpr int AlignmentB = $ALIGN_B$;
constexpr int AlignmentC = $ALIGN_C$;

// SM80 kernels read C with D's type; a program without C passes D as C with beta = 0,
// which keeps serial split-K (it reads the partial D back through C) correct.
using EpilogueOp = $EPILOGUE_OP$;

using Gemm = cutlass::gemm::device::GemmUniversal<
    ElementA, LayoutA, ElementB, LayoutB, ElementD, LayoutC, ElementAccumulator,
    $OP_CLASS$, cutlass::arch::Sm80,
    $TILE$,
    $WARP$,
    $INSTRUCTION$,
    EpilogueOp,
    $SWIZZLE$,
    $STAGES$, AlignmentA, AlignmentB,
    $OPERATOR$>;
)CPP";

std::string sm80_epilogue_op(const GemmKernel& k) {
  size_t act = k.epilogue.size();
  for (size_t i = 0; i < k.epilogue.size(); ++i)
    if (k.epilogue[i].kind == EpilogueStep::Kind::activation) act = i;
  if (k.has_bias())
    throw std::invalid_argument("kernel " + k.name + ": bias is not supported on sm80 in this version");
  if (act == k.epilogue.size())
    return "cutlass::epilogue::thread::LinearCombination<\n    ElementD, AlignmentC, ElementAccumulator, "
           "ElementCompute>";
  if (k.epilogue.size() > 1)
    throw std::invalid_argument("kernel " + k.name + ": sm80 supports at most one activation");
  return "cutlass::epilogue::thread::LinearCombinationGeneric<\n    " + activation_functor(k, act) +
         ", ElementD, AlignmentC, ElementAccumulator, ElementCompute>";
}

ir::Shape3 warp_shape(const GemmKernel& k) {
  const ir::Shape3& t = k.tile.value;
  const ir::Shape3& w = k.warps.value;
  if (w.m <= 0 || w.n <= 0 || w.k <= 0 || t.m % w.m || t.n % w.n || t.k % w.k)
    throw std::invalid_argument("kernel " + k.name + ": warps do not divide the tile");
  return {t.m / w.m, t.n / w.n, t.k / w.k};
}

ir::Shape3 instruction_shape(const GemmKernel& k) {
  switch (k.math.value) {
    case ir::MathPath::simt: return {1, 1, 1};
    case ir::MathPath::tf32:
    case ir::MathPath::tf32x3: return {16, 8, 8};
    case ir::MathPath::tensor_op:
    case ir::MathPath::fast_accum: break;
  }
  return ir::bits_of(k.a.value) == 8 ? ir::Shape3{16, 8, 32} : ir::Shape3{16, 8, 16};
}

std::string sm80_swizzle(const GemmKernel& k) {
  if (k.scheduler.value == ir::TileScheduler::stream_k)
    return "cutlass::gemm::threadblock::ThreadblockSwizzleStreamK";
  return "cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<" + std::to_string(k.swizzle.value) + ">";
}

Substitutions common_types(const GemmKernel& k) {
  return {{"A", element_type(k.a.value)},
          {"B", element_type(k.b.value)},
          {"C", element_type(k.c.value)},
          {"D", element_type(k.d.value)},
          {"BIAS", element_type(bias_dtype(k))},
          {"ACC", element_type(k.acc.value)},
          {"LAYOUT_A", layout_tag(k.layout_a.value)},
          {"LAYOUT_B", layout_tag(k.layout_b.value)},
          {"LAYOUT_C", layout_tag(k.layout_c.value)},
          {"ALIGN_A", std::to_string(k.align_a.value)},
          {"ALIGN_B", std::to_string(k.align_b.value)},
          {"ALIGN_C", std::to_string(k.align_c.value)}};
}

}  // namespace

std::string activation_functor(const GemmKernel& k, size_t index) {
  const EpilogueStep& s = k.epilogue.at(index);
  std::string cutlass_fn = cutlass_activation(s.act);
  return cutlass_fn.empty() ? custom_functor_name(s, index) : cutlass_fn;
}

std::string emit_custom_activations(const GemmKernel& k) {
  std::string out;
  for (size_t i = 0; i < k.epilogue.size(); ++i) {
    const EpilogueStep& s = k.epilogue[i];
    if (s.kind != EpilogueStep::Kind::activation || !cutlass_activation(s.act).empty()) continue;
    std::string what, body;
    if (s.act == Activation::leaky_relu) {
      what = "leaky_relu(slope = " + float_literal(s.p0) + ")";
      body = "x > T(0) ? x : x * T(" + float_literal(s.p0) + ")";
    } else {
      what = "clamp(" + float_literal(s.p0) + ", " + float_literal(s.p1) + ")";
      body = "x < T(" + float_literal(s.p0) + ") ? T(" + float_literal(s.p0) + ") : (x > T(" +
             float_literal(s.p1) + ") ? T(" + float_literal(s.p1) + ") : x)";
    }
    out += fill(kCustomActivation,
                {{"INDEX", std::to_string(i)}, {"WHAT", what}, {"NAME", custom_functor_name(s, i)},
                 {"SCALAR_BODY", body}});
  }
  return out;
}

std::string emit_sm90_types(const GemmKernel& k) {
  Substitutions subs = common_types(k);
  subs.insert(subs.end(), {{"TILE", cute_shape(k.tile.value)},
                           {"CLUSTER", cute_shape(k.cluster.value)},
                           {"FUSION", sm90_fusion(k)},
                           {"EPILOGUE_SCHEDULE", sm90_epilogue_schedule(k)},
                           {"STAGES", stage_count(k)},
                           {"KERNEL_SCHEDULE", sm90_kernel_schedule(k)},
                           {"TILE_SCHEDULER", sm90_tile_scheduler(k)}});
  return emit_custom_activations(k) + fill(kSm90Types, subs);
}

std::string emit_sm80_types(const GemmKernel& k) {
  const bool simt = k.math.value == ir::MathPath::simt;
  Substitutions subs = common_types(k);
  subs.insert(subs.end(),
              {{"EPILOGUE_OP", sm80_epilogue_op(k)},
               {"OP_CLASS", simt ? "cutlass::arch::OpClassSimt" : "cutlass::arch::OpClassTensorOp"},
               {"TILE", gemm_shape(k.tile.value)},
               {"WARP", gemm_shape(warp_shape(k))},
               {"INSTRUCTION", gemm_shape(instruction_shape(k))},
               {"SWIZZLE", sm80_swizzle(k)},
               {"STAGES", std::to_string(k.stages.value)},
               {"OPERATOR", k.math.value == ir::MathPath::tf32x3 ? "cutlass::arch::OpMultiplyAddFastF32"
                                                                 : "cutlass::arch::OpMultiplyAdd"}});
  return emit_custom_activations(k) + fill(kSm80Types, subs);
}

}  // namespace ucutlass::codegen
