#include "map/epilogue_table.h"

#include <functional>
#include <sstream>
#include <utility>
#include <vector>

#include "graph/node_args.h"

namespace ucutlass::map {

namespace {

using graph::Node;
using graph::OpGraph;
using Handler = std::function<std::optional<ChainStep>(const OpGraph&, const Node&, int chain)>;

// A clamp with one open side gets this bound: finite, so the constant prints
// as a float literal, and beyond any f32 value a GEMM produces honestly.
constexpr double kOpenBound = 3.0e38;

bool reads_chain_first(const OpGraph& g, const Node& n, int chain) { return graph::arg_tensor(g, n, 0, "self") == chain || graph::arg_tensor(g, n, 0, "input") == chain; }

Handler unary(ir::Activation act) {
  return [act](const OpGraph& g, const Node& n, int chain) -> std::optional<ChainStep> {
    if (!reads_chain_first(g, n, chain)) return std::nullopt;
    ChainStep s;
    s.act = act;
    return s;
  };
}

std::optional<ChainStep> gelu(const OpGraph& g, const Node& n, int chain) {
  if (!reads_chain_first(g, n, chain)) return std::nullopt;
  ChainStep s;
  s.act = ir::Activation::gelu;
  const nlohmann::json* approx = graph::node_arg(n, 1, "approximate");
  if (approx && approx->is_string() && *approx == "tanh") s.act = ir::Activation::gelu_tanh;
  return s;
}

std::optional<ChainStep> leaky_relu(const OpGraph& g, const Node& n, int chain) {
  if (!reads_chain_first(g, n, chain)) return std::nullopt;
  ChainStep s;
  s.act = ir::Activation::leaky_relu;
  s.p0 = graph::arg_number(n, 1, "negative_slope").value_or(0.01);
  return s;
}

// elu(x; alpha) as PyTorch's F.elu: its scale and input_scale (aten.elu's, for selu's sake) stay 1.
std::optional<ChainStep> elu(const OpGraph& g, const Node& n, int chain) {
  if (!reads_chain_first(g, n, chain)) return std::nullopt;
  if (graph::arg_number(n, 2, "scale").value_or(1.0) != 1.0 || graph::arg_number(n, 3, "input_scale").value_or(1.0) != 1.0)
    return std::nullopt;
  ChainStep s;
  s.act = ir::Activation::elu;
  s.p0 = graph::arg_number(n, 1, "alpha").value_or(1.0);
  return s;
}

// softplus(x; beta, threshold) as PyTorch's: x where beta * x > threshold, else log1p(exp(beta x)) / beta.
std::optional<ChainStep> softplus(const OpGraph& g, const Node& n, int chain) {
  if (!reads_chain_first(g, n, chain)) return std::nullopt;
  ChainStep s;
  s.act = ir::Activation::softplus;
  s.p0 = graph::arg_number(n, 1, "beta").value_or(1.0);
  s.p1 = graph::arg_number(n, 2, "threshold").value_or(20.0);
  if (s.p0 <= 0) return std::nullopt;
  return s;
}

// -x: a scale by -1.
std::optional<ChainStep> negate(const OpGraph& g, const Node& n, int chain) {
  if (!reads_chain_first(g, n, chain)) return std::nullopt;
  ChainStep s;
  s.kind = StepKind::scale;
  s.p0 = -1;
  return s;
}

std::optional<ChainStep> clamp_between(const OpGraph& g, const Node& n, int chain, double lo_default, double hi_default,
                                       std::string_view lo_name, std::string_view hi_name) {
  if (!reads_chain_first(g, n, chain)) return std::nullopt;
  // A tensor bound is not a constant the epilogue can bake in.
  if (graph::arg_tensor(g, n, 1, lo_name) >= 0 || graph::arg_tensor(g, n, 2, hi_name) >= 0) return std::nullopt;
  ChainStep s;
  s.act = ir::Activation::clamp;
  s.p0 = graph::arg_number(n, 1, lo_name).value_or(lo_default);
  s.p1 = graph::arg_number(n, 2, hi_name).value_or(hi_default);
  if (s.p0 > s.p1) return std::nullopt;
  return s;
}

// The operand of a binary op that is not the chain, when the chain is one of them.
struct Other {
  int tensor = -1;
  std::optional<double> number;
};

std::optional<Other> other_operand(const OpGraph& g, const Node& n, int chain, bool commutative) {
  int t0 = graph::arg_tensor(g, n, 0, "self"), t1 = graph::arg_tensor(g, n, 1, "other");
  Other o;
  if (t0 == chain) {
    o.tensor = t1;
    if (t1 < 0) o.number = graph::arg_number(n, 1, "other");
  } else if (commutative && t1 == chain) {
    o.tensor = t0;
    if (t0 < 0) o.number = graph::arg_number(n, 0, "self");
  } else {
    return std::nullopt;
  }
  if (o.tensor == chain) return std::nullopt;  // y * y, y + y: not a step
  if (o.tensor < 0 && !o.number) return std::nullopt;
  return o;
}

bool is_number(const OpGraph& g, const Other& o, double* value) {
  if (o.number) {
    *value = *o.number;
    return true;
  }
  // A one-element constant tensor, e.g. a lifted torch.tensor(0.5), is a number too.
  const graph::Tensor& t = g.tensors[o.tensor];
  if (t.value && t.value->size() == 1 && t.numel() == 1) {
    *value = t.value->front();
    return true;
  }
  return false;
}

// Whether tensor `x` broadcasts over the chain tensor `y` as one value per column (length N, any leading
// ones): nn.Linear's bias, or a per-channel scale parameter.
bool per_column(const graph::Tensor& x, const graph::Tensor& y) {
  if (x.shape.empty() || y.shape.size() < 2 || x.shape.back() != y.shape.back() || x.shape.size() > y.shape.size())
    return false;
  for (size_t i = 0; i + 1 < x.shape.size(); ++i)
    if (x.shape[i] != 1) return false;
  return x.dtype == y.dtype;
}

std::optional<ChainStep> multiply(const OpGraph& g, const Node& n, int chain) {
  auto o = other_operand(g, n, chain, true);
  if (!o) return std::nullopt;
  double v = 0;
  ChainStep s;
  if (is_number(g, *o, &v)) {
    s.kind = StepKind::scale;
    s.p0 = v;
    return s;
  }
  if (o->tensor < 0) return std::nullopt;
  const graph::Tensor& x = g.tensors[o->tensor];
  const graph::Tensor& y = g.tensors[chain];
  if (per_column(x, y)) s.kind = StepKind::mul_col;
  else if (x.shape == y.shape && x.dtype == y.dtype) s.kind = StepKind::mul_aux;
  else return std::nullopt;
  s.operand = o->tensor;
  return s;
}

// x - v for a number v: an offset by -v (a tensor on either side is no step of ours).
std::optional<ChainStep> subtract(const OpGraph& g, const Node& n, int chain) {
  if (graph::arg_number(n, 2, "alpha").value_or(1.0) != 1.0) return std::nullopt;
  auto o = other_operand(g, n, chain, false);
  double v = 0;
  if (!o || !is_number(g, *o, &v)) return std::nullopt;
  ChainStep s;
  s.kind = StepKind::offset;
  s.p0 = -v;
  return s;
}

std::optional<ChainStep> divide(const OpGraph& g, const Node& n, int chain) {
  if (graph::node_arg(n, 2, "rounding_mode")) return std::nullopt;
  auto o = other_operand(g, n, chain, false);
  double v = 0;
  if (!o || !is_number(g, *o, &v) || v == 0) return std::nullopt;
  ChainStep s;
  s.kind = StepKind::scale;
  s.p0 = 1.0 / v;
  return s;
}

std::optional<ChainStep> add(const OpGraph& g, const Node& n, int chain) {
  if (graph::arg_number(n, 2, "alpha").value_or(1.0) != 1.0) return std::nullopt;
  auto o = other_operand(g, n, chain, true);
  if (!o) return std::nullopt;
  double v = 0;
  if (is_number(g, *o, &v)) {  // x + 0.5
    ChainStep s;
    s.kind = StepKind::offset;
    s.p0 = v;
    return s;
  }
  if (o->tensor < 0) return std::nullopt;
  const graph::Tensor& y = g.tensors[chain];
  const graph::Tensor& x = g.tensors[o->tensor];
  if (y.shape.size() < 2 || x.dtype != y.dtype) return std::nullopt;
  ChainStep s;
  s.operand = o->tensor;
  if (x.shape == y.shape) {
    s.kind = StepKind::residual;
  } else if (per_column(x, y)) {
    s.kind = StepKind::bias_col;
  } else if (y.shape.size() == 2 && x.shape == std::vector<int64_t>{y.shape[0], 1}) {
    s.kind = StepKind::bias_row;
  } else {
    return std::nullopt;
  }
  return s;
}

const std::vector<std::pair<std::string_view, Handler>>& table() {
  static const std::vector<std::pair<std::string_view, Handler>> rows = {
      {"relu", unary(ir::Activation::relu)},
      {"gelu", gelu},
      {"silu", unary(ir::Activation::silu)},
      {"sigmoid", unary(ir::Activation::sigmoid)},
      {"tanh", unary(ir::Activation::tanh)},
      {"hardswish", unary(ir::Activation::hardswish)},
      {"hardsigmoid", unary(ir::Activation::hardsigmoid)},
      {"mish", unary(ir::Activation::mish)},
      {"selu", unary(ir::Activation::selu)},
      {"elu", elu},
      {"softplus", softplus},
      {"neg", negate},
      {"leaky_relu", leaky_relu},
      {"clamp", [](const OpGraph& g, const Node& n, int c) { return clamp_between(g, n, c, -kOpenBound, kOpenBound, "min", "max"); }},
      {"hardtanh", [](const OpGraph& g, const Node& n, int c) { return clamp_between(g, n, c, -1, 1, "min_val", "max_val"); }},
      {"mul", multiply},
      {"div", divide},
      {"add", add},
      {"sub", subtract},
  };
  return rows;
}

}  // namespace

std::optional<ChainStep> match_epilogue_step(const OpGraph& g, int node, int chain) {
  const Node& n = g.nodes[node];
  if (n.outputs.size() != 1) return std::nullopt;
  const graph::Tensor& out = g.tensors[n.outputs[0]];
  if (out.shape != g.tensors[chain].shape || out.dtype != g.tensors[chain].dtype) return std::nullopt;
  const std::string base = graph::op_base_name(n.op);
  for (const auto& [name, handler] : table()) {
    if (name != base) continue;
    std::optional<ChainStep> s = handler(g, n, chain);
    if (!s) return std::nullopt;
    s->node = node;
    s->output = n.outputs[0];
    return s;
  }
  return std::nullopt;
}

const std::vector<std::string_view>& epilogue_op_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const auto& row : table()) v.push_back(row.first);
    return v;
  }();
  return names;
}

std::string step_text(const ChainStep& s) {
  std::ostringstream o;
  switch (s.kind) {
    case StepKind::scale: o << "scale(" << s.p0 << ")"; break;
    case StepKind::bias_col: o << "bias(col)"; break;
    case StepKind::bias_row: o << "bias(row)"; break;
    case StepKind::residual: o << "residual"; break;
    case StepKind::offset: o << "add(" << s.p0 << ")"; break;
    case StepKind::mul_col: o << "mul(col)"; break;
    case StepKind::mul_aux: o << "mul(aux)"; break;
    case StepKind::activation:
      o << ir::name_of(s.act);
      if (s.act == ir::Activation::leaky_relu) o << "(" << s.p0 << ")";
      if (s.act == ir::Activation::clamp || s.act == ir::Activation::softplus) o << "(" << s.p0 << ", " << s.p1 << ")";
      if (s.act == ir::Activation::elu) o << "(" << s.p0 << ")";
      break;
  }
  return o.str();
}

}  // namespace ucutlass::map
