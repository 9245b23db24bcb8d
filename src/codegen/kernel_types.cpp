#include "codegen/kernel_types.h"

#include <stdexcept>
#include <vector>

#include "codegen/cutlass_names.h"
#include "codegen/text_template.h"
#include "ir/canonical.h"

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

// A step computed by our own functor over one or more operands (x, acc, c,
// extras), in f32. Sm90Compute calls the cutlass::Array form; sm80's
// LinearCombinationGeneric calls it too (with one operand).
constexpr std::string_view kExprFunctor = R"CPP(// Epilogue step $INDEX$: $WHAT$.
template <class T>
struct $NAME$ {
  CUTLASS_HOST_DEVICE T operator()($SCALAR_PARAMS$) const {
    return T($BODY$);
  }
};

template <class T, int N>
struct $NAME$<cutlass::Array<T, N>> {
  CUTLASS_HOST_DEVICE cutlass::Array<T, N> operator()($ARRAY_PARAMS$) const {
    $NAME$<T> scalar;
    cutlass::Array<T, N> y;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < N; ++i) y[i] = scalar($ARRAY_ARGS$);
    return y;
  }
};

)CPP";

// The f32 functions our functors call; emitted once per header that needs them.
// Each follows PyTorch's definition (softplus's threshold, hardsigmoid = relu6(x + 3) / 6).
constexpr std::string_view kEpilogueFunctions = R"CPP(
// Element-wise functions of the epilogue steps, in f32 (ElementCompute), as PyTorch defines them.
namespace epilogue_fn {
CUTLASS_HOST_DEVICE float relu(float x) { return x > 0.0f ? x : 0.0f; }
CUTLASS_HOST_DEVICE float exp(float x) { return expf(x); }
CUTLASS_HOST_DEVICE float log(float x) { return logf(x); }
CUTLASS_HOST_DEVICE float abs(float x) { return fabsf(x); }
CUTLASS_HOST_DEVICE float sqrt(float x) { return sqrtf(x); }
CUTLASS_HOST_DEVICE float rsqrt(float x) { return 1.0f / sqrtf(x); }
CUTLASS_HOST_DEVICE float erf(float x) { return erff(x); }
CUTLASS_HOST_DEVICE float tanh(float x) { return tanhf(x); }
CUTLASS_HOST_DEVICE float min(float a, float b) { return fminf(a, b); }
CUTLASS_HOST_DEVICE float max(float a, float b) { return fmaxf(a, b); }
CUTLASS_HOST_DEVICE float clamp(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }
CUTLASS_HOST_DEVICE float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
CUTLASS_HOST_DEVICE float silu(float x) { return x * sigmoid(x); }
CUTLASS_HOST_DEVICE float gelu(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }
CUTLASS_HOST_DEVICE float gelu_tanh(float x) {
  return 0.5f * x * (1.0f + tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x)));
}
CUTLASS_HOST_DEVICE float leaky_relu(float x, float slope) { return x > 0.0f ? x : x * slope; }
CUTLASS_HOST_DEVICE float softplus(float x, float beta = 1.0f, float threshold = 20.0f) {
  return beta * x > threshold ? x : log1pf(expf(beta * x)) / beta;
}
CUTLASS_HOST_DEVICE float mish(float x) { return x * tanhf(softplus(x)); }
CUTLASS_HOST_DEVICE float hardsigmoid(float x) { return fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f; }
CUTLASS_HOST_DEVICE float hardswish(float x) { return x * hardsigmoid(x); }
CUTLASS_HOST_DEVICE float elu(float x, float alpha = 1.0f) { return x > 0.0f ? x : alpha * expm1f(x); }
CUTLASS_HOST_DEVICE float selu(float x) { return 1.0507009873554805f * elu(x, 1.6732632423543772f); }
}  // namespace epilogue_fn
)CPP";

bool is_expr_functor_step(const EpilogueStep& s) {
  return s.kind == EpilogueStep::Kind::expr ||
         (s.kind == EpilogueStep::Kind::activation && s.act != Activation::leaky_relu &&
          s.act != Activation::clamp && cutlass_activation(s.act).empty());
}

// A named activation without a CUTLASS functor, as an expression of x.
ir::EpiExpr activation_expr(const EpilogueStep& s) {
  ir::EpiExpr x;
  ir::EpiExpr call;
  call.op = ir::EpiExpr::Op::call;
  call.fn = *ir::parse_enum<ir::EpiFn>(ir::name_of(s.act));
  call.args.push_back(x);
  auto constant = [](double v) {
    ir::EpiExpr c;
    c.op = ir::EpiExpr::Op::constant;
    c.value = v;
    return c;
  };
  if (s.act == Activation::elu) call.args.push_back(constant(s.p0));
  if (s.act == Activation::softplus) {
    call.args.push_back(constant(s.p0));
    call.args.push_back(constant(s.p1));
  }
  return call;
}

const ir::EpiExpr& step_expr(const EpilogueStep& s, ir::EpiExpr& storage) {
  if (s.kind == EpilogueStep::Kind::expr) return s.expr;
  storage = activation_expr(s);
  return storage;
}

// The distinct leaves an expression reads (x, acc, c, extras), in first-use order:
// the operands of its functor and the children of its EVT node.
struct Leaf {
  ir::EpiExpr::Op op;
  int extra;
  bool operator==(const Leaf&) const = default;
};

void collect_leaves(const ir::EpiExpr& e, std::vector<Leaf>& out) {
  using Op = ir::EpiExpr::Op;
  if (e.op == Op::x || e.op == Op::acc || e.op == Op::c || e.op == Op::extra) {
    Leaf l{e.op, e.op == Op::extra ? e.extra : -1};
    for (const Leaf& seen : out)
      if (seen == l) return;
    out.push_back(l);
    return;
  }
  for (const ir::EpiExpr& a : e.args) collect_leaves(a, out);
}

std::string expr_cpp(const ir::EpiExpr& e, const std::vector<Leaf>& leaves) {
  using Op = ir::EpiExpr::Op;
  switch (e.op) {
    case Op::x:
    case Op::acc:
    case Op::c:
    case Op::extra: {
      Leaf l{e.op, e.op == Op::extra ? e.extra : -1};
      for (size_t i = 0; i < leaves.size(); ++i)
        if (leaves[i] == l) return "float(v" + std::to_string(i) + ")";
      return "?";
    }
    case Op::constant: return float_literal(e.value);
    case Op::neg: return "(-" + expr_cpp(e.args[0], leaves) + ")";
    case Op::add: return "(" + expr_cpp(e.args[0], leaves) + " + " + expr_cpp(e.args[1], leaves) + ")";
    case Op::sub: return "(" + expr_cpp(e.args[0], leaves) + " - " + expr_cpp(e.args[1], leaves) + ")";
    case Op::mul: return "(" + expr_cpp(e.args[0], leaves) + " * " + expr_cpp(e.args[1], leaves) + ")";
    case Op::div: return "(" + expr_cpp(e.args[0], leaves) + " / " + expr_cpp(e.args[1], leaves) + ")";
    case Op::call: {
      std::string s = "epilogue_fn::" + std::string(ir::name_of(e.fn)) + "(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + expr_cpp(e.args[i], leaves);
      return s + ")";
    }
  }
  return "?";
}

std::string expr_functor_name(size_t index) { return "EpiStep" + std::to_string(index); }

std::string emit_expr_functor(const GemmKernel& k, size_t index) {
  const EpilogueStep& s = k.epilogue[index];
  ir::EpiExpr storage;
  const ir::EpiExpr& e = step_expr(s, storage);
  std::vector<Leaf> leaves;
  collect_leaves(e, leaves);
  std::string scalar_params, array_params, array_args;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const std::string v = "v" + std::to_string(i);
    scalar_params += (i ? ", " : "") + std::string("T const& ") + v;
    array_params += (i ? ", " : "") + std::string("cutlass::Array<T, N> const& ") + v;
    array_args += (i ? ", " : "") + v + "[i]";
  }
  std::string what = s.kind == EpilogueStep::Kind::expr ? s.label + ", x = " + ir::expr_text(k, e)
                                                        : std::string(ir::name_of(s.act)) + " = " + ir::expr_text(k, e);
  std::string operands;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const Leaf& l = leaves[i];
    std::string n = l.op == ir::EpiExpr::Op::x     ? "x (the value so far)"
                    : l.op == ir::EpiExpr::Op::acc ? "acc"
                    : l.op == ir::EpiExpr::Op::c   ? "c"
                                                   : k.extras.at(l.extra).name;
    operands += (i ? ", " : "") + std::string("v") + std::to_string(i) + " = " + n;
  }
  return fill(kExprFunctor, {{"INDEX", std::to_string(index)},
                             {"WHAT", what + " (" + operands + ")"},
                             {"NAME", expr_functor_name(index)},
                             {"SCALAR_PARAMS", scalar_params},
                             {"BODY", expr_cpp(e, leaves)},
                             {"ARRAY_PARAMS", array_params},
                             {"ARRAY_ARGS", array_args}});
}

// ---------------------------------------------------------------------------
// SM90 epilogue: an EVT tree that computes the steps in program order.

struct EvtNode {
  std::string alias;  // name of the `using` that declares this node
  std::string op;     // leaf type, or the Sm90Compute of an inner node
  // Assignment suffixes for runtime values, in order, e.g. ".scalars[0] = p.alpha;", ".dAux = ...;"
  std::vector<std::string> arguments;
  std::vector<EvtNode> children;
};

EvtNode leaf(std::string alias, std::string type, std::vector<std::string> arguments = {}) {
  return EvtNode{std::move(alias), std::move(type), std::move(arguments), {}};
}

std::string compute(const std::string& fn, bool is_root) {
  return "cutlass::epilogue::fusion::Sm90Compute<" + fn + ", " + (is_root ? "ElementD" : "ElementCompute") +
         ", ElementCompute, cutlass::FloatRoundStyle::round_to_nearest>";
}

std::string extra_element(const GemmKernel& k, int i) { return element_type(k.extras.at(i).type); }

// Aux tensors move in 16-byte vectors (the host entry checks ld and pointer against this).
std::string aux_alignment(const GemmKernel& k, int i) { return std::to_string(128 / ir::bits_of(k.extras.at(i).type)); }

std::string aux_stride(const GemmKernel& k, int i) {
  const std::string n = std::to_string(i);
  return k.layout_c.value == ir::Layout::row
             ? "cute::make_stride(std::int64_t(p.extra_ld[" + n + "]), cute::Int<1>{}, std::int64_t(p.extra_batch_stride[" + n + "]))"
             : "cute::make_stride(cute::Int<1>{}, std::int64_t(p.extra_ld[" + n + "]), std::int64_t(p.extra_batch_stride[" + n + "]))";
}

// The EVT leaf that reads extra operand i.
EvtNode extra_leaf(const GemmKernel& k, int i) {
  const ir::EpilogueExtra& x = k.extras.at(i);
  const std::string alias = "EvtIn_" + x.name;
  const std::string elem = extra_element(k, i);
  const std::string ptr = "static_cast<" + elem + " const*>(p.extra[" + std::to_string(i) + "])";
  switch (x.kind) {
    case ir::ExtraKind::scalar:
      return leaf(alias, "cutlass::epilogue::fusion::Sm90ScalarBroadcast<ElementCompute>",
                  {".scalar_ptrs[0] = static_cast<float const*>(p.extra[" + std::to_string(i) + "]);"});
    case ir::ExtraKind::col:  // one value per output column: a row broadcast in CUTLASS's naming
      return leaf(alias, "cutlass::epilogue::fusion::Sm90RowBroadcast<0, TileShape, " + elem + ", ElementCompute>",
                  {".ptr_row = " + ptr + ";"});
    case ir::ExtraKind::row:
      return leaf(alias, "cutlass::epilogue::fusion::Sm90ColBroadcast<0, TileShape, " + elem + ", ElementCompute>",
                  {".ptr_col = " + ptr + ";"});
    case ir::ExtraKind::matrix: break;
  }
  return leaf(alias,
              "cutlass::epilogue::fusion::Sm90AuxLoad<0, void, " + elem + ", LayoutC, void, void, " +
                  aux_alignment(k, i) + ">",
              {".ptr_aux = " + ptr + ";", ".dAux = " + aux_stride(k, i) + ";"});
}

// A reduction step: CUTLASS names the vector it writes, so a per-row result (length M,
// reduced across N) is Sm90ColReduction and a per-column one (length N) Sm90RowReduction.
// The reduce functions serve all three levels (registers, warp shuffles, the final pass
// over the workspace). No atomic functions: CUTLASS's FinalReduction mode keeps per-tile
// partials in the GEMM's workspace and the last tile of a row (or column) to finish
// combines them, which is deterministic, needs no pre-filled output, and works for max
// and 16-bit outputs alike (atomics would add in the output type, in any order).
// Each batch writes its own vector, p.extra_batch_stride[i] elements apart (the host
// entry resolves 0 to the vector's length).
EvtNode reduction_node(const GemmKernel& k, const EpilogueStep& s, EvtNode child) {
  const ir::EpilogueExtra& x = k.extras.at(s.extra);
  const bool per_row = x.kind == ir::ExtraKind::row;
  const std::string elem = extra_element(k, s.extra);
  const std::string fn = s.reduce == ir::ReduceOp::sum ? "cutlass::plus" : "cutlass::maximum_with_nan_propagation";
  const std::string i = std::to_string(s.extra);
  const std::string stride = per_row ? "cute::Stride<cute::Int<1>, cute::Int<0>, std::int64_t>"
                                     : "cute::Stride<cute::Int<0>, cute::Int<1>, std::int64_t>";
  const std::string make_stride = per_row ? "cute::make_stride(cute::Int<1>{}, cute::Int<0>{}, "
                                          : "cute::make_stride(cute::Int<0>{}, cute::Int<1>{}, ";
  const std::string vec = per_row ? "col" : "row";
  std::vector<std::string> arguments = {".ptr_" + vec + " = static_cast<" + elem + "*>(p.extra[" + i + "]);"};
  if (s.reduce == ir::ReduceOp::max)
    arguments.push_back(".reduction_identity = -cutlass::platform::numeric_limits<ElementCompute>::infinity();");
  arguments.push_back(".d" + std::string(per_row ? "Col" : "Row") + " = " + make_stride +
                      "std::int64_t(p.extra_batch_stride[" + i + "]));");
  return EvtNode{"EvtReduce_" + x.name,
                 "cutlass::epilogue::fusion::Sm90" + std::string(per_row ? "Col" : "Row") + "Reduction<\n        " +
                     fn + ", " + fn + ", " + fn + ", 0, TileShape, " + elem +
                     ", ElementCompute, cutlass::FloatRoundStyle::round_to_nearest,\n        " + stride + ">",
                 std::move(arguments),
                 {std::move(child)}};
}

// The tree, root last in the step order: lincomb, then each step wraps the tree so far.
EvtNode build_evt(const GemmKernel& k) {
  size_t inner = 0;
  auto node = [&](std::string fn, std::vector<EvtNode> children, bool is_root) {
    return EvtNode{"EvtNode" + std::to_string(inner++), compute(fn, is_root), {}, std::move(children)};
  };
  const size_t steps = k.epilogue.size();
  EvtNode alpha = leaf("EvtAlpha", "cutlass::epilogue::fusion::Sm90ScalarBroadcast<ElementCompute>",
                       {".scalars[0] = p.alpha;"});
  EvtNode acc = leaf("EvtAcc", "cutlass::epilogue::fusion::Sm90AccFetch");
  EvtNode tree = node("cutlass::multiplies", {alpha, acc}, !k.has_source() && steps == 0);
  if (k.has_source()) {
    EvtNode beta = leaf("EvtBeta", "cutlass::epilogue::fusion::Sm90ScalarBroadcast<ElementCompute>",
                        {".scalars[0] = p.beta;"});
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
                                {".ptr_row = static_cast<ElementBias const*>(p.bias);"})
                         : leaf("EvtBias" + std::to_string(i),
                                "cutlass::epilogue::fusion::Sm90ColBroadcast<0, TileShape, ElementBias, "
                                "ElementCompute>",
                                {".ptr_col = static_cast<ElementBias const*>(p.bias);"});
      tree = node("cutlass::plus", {tree, bias}, is_root);
    } else if (s.kind == EpilogueStep::Kind::aux_store) {
      const std::string elem = extra_element(k, s.extra);
      EvtNode store{"EvtStore_" + k.extras.at(s.extra).name,
                    "cutlass::epilogue::fusion::Sm90AuxStore<0, void, " + elem +
                        ", cutlass::FloatRoundStyle::round_to_nearest, LayoutC, void, void, " +
                        aux_alignment(k, s.extra) + ">",
                    {".ptr_aux = static_cast<" + elem + "*>(p.extra[" + std::to_string(s.extra) + "]);",
                     ".dAux = " + aux_stride(k, s.extra) + ";"},
                    {tree}};
      tree = store;
    } else if (s.kind == EpilogueStep::Kind::reduce) {
      tree = reduction_node(k, s, std::move(tree));
    } else if (is_expr_functor_step(s)) {
      ir::EpiExpr storage;
      std::vector<Leaf> leaves;
      collect_leaves(step_expr(s, storage), leaves);
      std::vector<EvtNode> children;
      for (const Leaf& l : leaves) {
        switch (l.op) {
          case ir::EpiExpr::Op::x: children.push_back(tree); break;
          case ir::EpiExpr::Op::acc: children.push_back(leaf("EvtAcc", "cutlass::epilogue::fusion::Sm90AccFetch")); break;
          case ir::EpiExpr::Op::c:
            children.push_back(leaf("EvtSource", "cutlass::epilogue::fusion::Sm90SrcFetch<ElementC>"));
            break;
          default: children.push_back(extra_leaf(k, l.extra)); break;
        }
      }
      tree = node(expr_functor_name(i), std::move(children), is_root);
    } else {
      tree = node(activation_functor(k, i), {tree}, is_root);
    }
  }
  return tree;
}

// Declares each alias once: a leaf read by two steps (acc, an input) is one type used twice.
void declare_evt(const EvtNode& n, std::string& out) {
  for (const EvtNode& c : n.children) declare_evt(c, out);
  if (out.find("using " + n.alias + " = ") != std::string::npos) return;
  if (n.children.empty()) {
    out += "using " + n.alias + " = " + n.op + ";\n";
    return;
  }
  out += "using " + n.alias + " = cutlass::epilogue::fusion::Sm90EVT<\n    " + n.op;
  for (const EvtNode& c : n.children) out += ",\n    " + c.alias;
  out += ">;\n";
}

// Sm90EVT<Op, Children...> keeps child i as op i and the node's own op last.
// CUTLASS names the members op_0 ... op_3 when a node has at most four ops in
// all, and makes its arguments a plain cute::tuple (cute::get<i>) beyond that.
std::string member(const std::string& node, size_t i, size_t ops) {
  return ops <= 4 ? node + ".op_" + std::to_string(i) : "cute::get<" + std::to_string(i) + ">(" + node + ")";
}

void assign_evt(const EvtNode& n, const std::string& path, std::string& out) {
  const size_t ops = n.children.size() + 1;
  // An inner node's own op (aux_store's) comes after its children.
  const std::string self = n.children.empty() ? path : member(path, n.children.size(), ops);
  for (const std::string& a : n.arguments) out += "  " + self + a + "\n";
  for (size_t i = 0; i < n.children.size(); ++i) assign_evt(n.children[i], member(path, i, ops), out);
}

std::string sm90_fusion(const GemmKernel& k, const std::string& params = "GemmParams") {
  if (is_plain_epilogue(k)) {
    return "using Fusion = cutlass::epilogue::fusion::LinearCombination<ElementD, ElementCompute, ElementC, "
           "ElementCompute>;\n\n"
           "template <class FusionArguments>\n"
           "void set_fusion_arguments(FusionArguments& fusion, const " + params + "& p) {\n"
           "  fusion.alpha = p.alpha;\n" +
           std::string(k.has_source() ? "  fusion.beta = p.beta;\n" : "") + "}\n";
  }
  EvtNode tree = build_evt(k);
  std::string out = "// D = " + std::string(k.has_source() ? "alpha * acc + beta * C" : "alpha * acc");
  for (const EpilogueStep& s : k.epilogue) {
    switch (s.kind) {
      case EpilogueStep::Kind::bias: out += ", + bias(" + std::string(ir::name_of(s.bias)) + ")"; break;
      case EpilogueStep::Kind::activation: out += ", " + std::string(ir::name_of(s.act)); break;
      case EpilogueStep::Kind::expr: out += ", " + s.label; break;
      case EpilogueStep::Kind::aux_store: out += ", aux_store(" + k.extras.at(s.extra).name + ")"; break;
      case EpilogueStep::Kind::reduce: out += ", " + s.label + "(" + k.extras.at(s.extra).name + ")"; break;
    }
  }
  out += "\n";
  declare_evt(tree, out);
  out += "using Fusion = " + tree.alias + ";\n\n";
  out += "template <class FusionArguments>\n"
         "void set_fusion_arguments(FusionArguments& fusion, const " + params + "& p) {\n";
  assign_evt(tree, "fusion", out);
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

// A leading bias is not a step of the functor: it arrives as beta * C (validate.cpp, check_sm80_bias).
std::string sm80_epilogue_op(const GemmKernel& k) {
  size_t act = k.epilogue.size(), steps = 0;
  for (size_t i = 0; i < k.epilogue.size(); ++i) {
    const EpilogueStep& s = k.epilogue[i];
    if (s.kind == EpilogueStep::Kind::bias) {
      if (i != 0) throw std::invalid_argument("kernel " + k.name + ": an sm80 bias must be the first step");
      continue;
    }
    ++steps;
    if (s.kind == EpilogueStep::Kind::activation || s.kind == EpilogueStep::Kind::expr) act = i;
    if (s.kind == EpilogueStep::Kind::expr &&
        (s.expr.uses_extras() || s.expr.uses(ir::EpiExpr::Op::acc) || s.expr.uses(ir::EpiExpr::Op::c)))
      throw std::invalid_argument("kernel " + k.name + ": sm80 steps see only x");
  }
  if (!k.extras.empty())
    throw std::invalid_argument("kernel " + k.name + ": extra operands are not supported on sm80");
  if (act == k.epilogue.size())
    return "cutlass::epilogue::thread::LinearCombination<\n    ElementD, AlignmentC, ElementAccumulator, "
           "ElementCompute>";
  if (steps > 1)
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

bool needs_epilogue_functions(const ir::Program& p) {
  for (const GemmKernel& k : p.kernels)
    for (const EpilogueStep& s : k.epilogue)
      if (is_expr_functor_step(s)) return true;
  return false;
}

std::string emit_epilogue_functions(const ir::Program& p) {
  return needs_epilogue_functions(p) ? std::string(kEpilogueFunctions) : "";
}

std::string activation_functor(const GemmKernel& k, size_t index) {
  const EpilogueStep& s = k.epilogue.at(index);
  if (is_expr_functor_step(s)) return expr_functor_name(index);
  std::string cutlass_fn = cutlass_activation(s.act);
  return cutlass_fn.empty() ? custom_functor_name(s, index) : cutlass_fn;
}

std::string emit_custom_activations(const GemmKernel& k) {
  std::string out;
  for (size_t i = 0; i < k.epilogue.size(); ++i) {
    const EpilogueStep& s = k.epilogue[i];
    if (is_expr_functor_step(s)) {
      out += emit_expr_functor(k, i);
      continue;
    }
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

std::string emit_sm90_fusion(const GemmKernel& k, const std::string& params_type) {
  return sm90_fusion(k, params_type);
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

std::string emit_sm80_epilogue_op(const GemmKernel& k) { return sm80_epilogue_op(k); }
ir::Shape3 sm80_warp_shape(const GemmKernel& k) { return warp_shape(k); }
ir::Shape3 sm80_instruction_shape(const GemmKernel& k) { return instruction_shape(k); }

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
