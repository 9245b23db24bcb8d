#include "map/gemm_match.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "graph/decompose_attention.h"
#include "graph/node_args.h"
#include "map/conv_match.h"
#include "map/dsl_writer.h"

namespace ucutlass::map {

namespace {

using graph::Node;
using graph::OpGraph;
using graph::Tensor;

// The natural layout of the trailing [R, C] of `t`, read through `view`.
GemmOperand make_operand(const OpGraph& g, int tensor, OperandView view) {
  GemmOperand op{tensor, view, ir::Layout::row, false};
  const Tensor& t = g.tensors[tensor];
  op.parameter = t.is_parameter();
  const size_t r = t.shape.size();
  if (view == OperandView::flattened || t.stride.size() != r || r < 2) return op;  // reshape gives a row-major [M, K]
  const int64_t last = t.stride[r - 1], second = t.stride[r - 2];
  ir::Layout stored;
  if (last == 1 || t.shape[r - 1] == 1)
    stored = ir::Layout::row;
  else if (second == 1 || t.shape[r - 2] == 1)
    stored = ir::Layout::col;
  else {
    op.strided = true;
    stored = ir::Layout::row;
  }
  op.natural = view == OperandView::transposed ? (stored == ir::Layout::row ? ir::Layout::col : ir::Layout::row) : stored;
  return op;
}

int64_t product(const std::vector<int64_t>& v, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= v[i];
  return p;
}

// Fills extents and operands of one anchor; "" on success, else why not.
using AnchorRule = std::function<std::string(const OpGraph&, const Node&, GemmMatch&)>;

std::string mm_like(const OpGraph& g, int ta, int tb, bool batched_only, GemmMatch& m) {
  if (ta < 0 || tb < 0) return "an operand is not a tensor";
  const auto &sa = g.tensors[ta].shape, &sb = g.tensors[tb].shape;
  if (sa.size() < 2 || sb.size() < 2) return "a 1-D operand (matrix-vector product)";
  if (batched_only && (sa.size() != 3 || sb.size() != 3)) return "bmm needs 3-D operands";
  if (sb.size() == 2) {
    m.k = sb[0];
    m.n = sb[1];
    if (sa.back() != m.k) return "inner extents differ";
    if (sa.size() == 2) {
      m.m = sa[0];
      m.a = make_operand(g, ta, OperandView::as_is);
    } else {
      m.m = product(sa, 0, sa.size() - 1);
      m.a = make_operand(g, ta, OperandView::flattened);
    }
    m.b = make_operand(g, tb, OperandView::as_is);
    return "";
  }
  if (sa.size() == 3 && sb.size() == 3 && sa[0] == sb[0] && sa[2] == sb[1]) {
    m.batch = sa[0];
    m.m = sa[1];
    m.k = sa[2];
    m.n = sb[2];
    m.a = make_operand(g, ta, OperandView::as_is);
    m.b = make_operand(g, tb, OperandView::as_is);
    return "";
  }
  // [..., M, K] @ [..., K, N] with equal leading dimensions: one batch of product(leading).
  if (sa.size() == sb.size() && sa.size() > 3 && std::equal(sa.begin(), sa.end() - 2, sb.begin()) &&
      sa.back() == sb[sb.size() - 2]) {
    m.batch = product(sa, 0, sa.size() - 2);
    m.m = sa[sa.size() - 2];
    m.k = sa.back();
    m.n = sb.back();
    m.a = make_operand(g, ta, OperandView::batch_flattened);
    m.b = make_operand(g, tb, OperandView::batch_flattened);
    return "";
  }
  return "broadcast batch dimensions";
}

std::string rule_mm(const OpGraph& g, const Node& n, GemmMatch& m) {
  return mm_like(g, graph::arg_tensor(g, n, 0, "self"), graph::arg_tensor(g, n, 1, "mat2"), false, m);
}
std::string rule_bmm(const OpGraph& g, const Node& n, GemmMatch& m) {
  return mm_like(g, graph::arg_tensor(g, n, 0, "self"), graph::arg_tensor(g, n, 1, "mat2"), true, m);
}
std::string rule_matmul(const OpGraph& g, const Node& n, GemmMatch& m) {
  return mm_like(g, graph::arg_tensor(g, n, 0, "self"), graph::arg_tensor(g, n, 1, "other"), false, m);
}

ChainStep built_in_bias(const Node& n, int bias) {
  ChainStep s;
  s.kind = StepKind::bias_col;
  s.operand = bias;
  s.output = n.outputs[0];
  return s;  // node is set by the caller: the anchor itself
}

bool is_col_bias(const OpGraph& g, int bias, int64_t n) {
  const auto& s = g.tensors[bias].shape;
  return (s.size() == 1 && s[0] == n) || (s.size() == 2 && s[0] == 1 && s[1] == n);
}

std::string rule_linear(const OpGraph& g, const Node& n, GemmMatch& m) {
  int x = graph::arg_tensor(g, n, 0, "input"), w = graph::arg_tensor(g, n, 1, "weight");
  if (x < 0 || w < 0) return "an operand is not a tensor";
  const auto &sx = g.tensors[x].shape, &sw = g.tensors[w].shape;
  if (sx.empty() || sw.size() != 2 || sx.back() != sw[1]) return "unexpected shapes";
  m.k = sw[1];
  m.n = sw[0];
  m.m = product(sx, 0, sx.size() - 1);
  m.a = make_operand(g, x, sx.size() == 2 ? OperandView::as_is : OperandView::flattened);
  m.b = make_operand(g, w, OperandView::transposed);
  int bias = graph::arg_tensor(g, n, 2, "bias");
  if (bias >= 0) {
    if (!is_col_bias(g, bias, m.n)) return "bias is not a length-N vector";
    m.chain.push_back(built_in_bias(n, bias));
  }
  return "";
}

std::string rule_addmm(const OpGraph& g, const Node& n, GemmMatch& m) {
  if (graph::arg_number(n, 3, "beta").value_or(1) != 1 || graph::arg_number(n, 4, "alpha").value_or(1) != 1)
    return "alpha or beta other than 1";
  std::string why = mm_like(g, graph::arg_tensor(g, n, 1, "mat1"), graph::arg_tensor(g, n, 2, "mat2"), false, m);
  if (!why.empty()) return why;
  int bias = graph::arg_tensor(g, n, 0, "self");
  if (bias < 0 || !is_col_bias(g, bias, m.n)) return "the added term is not a length-N vector";
  m.chain.push_back(built_in_bias(n, bias));
  return "";
}

const std::vector<std::pair<std::string_view, AnchorRule>>& anchors() {
  static const std::vector<std::pair<std::string_view, AnchorRule>> rows = {
      {"mm", rule_mm}, {"bmm", rule_bmm}, {"matmul", rule_matmul}, {"linear", rule_linear}, {"addmm", rule_addmm},
  };
  return rows;
}

}  // namespace

std::optional<ir::DType> dsl_dtype(graph::DType d) {
  switch (d) {
    case graph::DType::f32: return ir::DType::f32;
    case graph::DType::f16: return ir::DType::f16;
    case graph::DType::bf16: return ir::DType::bf16;
    default: return std::nullopt;
  }
}

MatchReport match_gemms(const OpGraph& g) {
  MatchReport report;
  const auto consumers = g.consumers();
  std::vector<bool> is_output(g.tensors.size(), false);
  for (int t : g.outputs) is_output[t] = true;
  std::vector<bool> taken(g.nodes.size(), false);
  int gemms = 0, convs = 0;  // kernels are named gemm0.., conv0.. in node order
  // The node that writes each tensor (-1: an input, parameter or constant): a fused step's operand must
  // exist when the kernel runs, at its anchor's place in the forward (the writer follows node order).
  std::vector<int> producer(g.tensors.size(), -1);
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (int t : g.nodes[i].outputs) producer[t] = static_cast<int>(i);

  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    const std::string base = graph::op_base_name(n.op);
    const AnchorRule* rule = nullptr;
    for (const auto& [name, r] : anchors())
      if (name == base) rule = &r;
    const bool conv = is_conv_anchor(base);
    if ((!rule && !conv) || taken[i]) continue;
    GemmMatch m;
    m.anchor = static_cast<int>(i);
    m.anchor_op = base;
    m.fp32_products = g.fp32_products.count(n.id) > 0;
    std::string why = n.outputs.size() != 1 ? "several outputs" : conv ? match_conv_anchor(g, n, m) : (*rule)(g, n, m);
    if (why.empty()) {
      const graph::DType da = g.tensors[m.a.tensor].dtype, db = g.tensors[m.b.tensor].dtype;
      m.output = n.outputs[0];
      m.in = da;
      m.out = g.tensors[m.output].dtype;
      if (da != db) why = "operands of different types";
      else if (!dsl_dtype(da) || !dsl_dtype(m.out)) why = "type " + graph::dtype_name(da) + " has no DSL kernel";
    }
    if (!why.empty()) {
      report.notes.push_back(n.id + " (" + base + "): left to PyTorch: " + why);
      continue;
    }
    for (ChainStep& s : m.chain) s.node = m.anchor;
    int chain = m.output;
    while (!is_output[chain] && consumers[chain].size() == 1) {
      const int next = consumers[chain][0];
      std::optional<ChainStep> s = m.conv ? match_conv_epilogue_step(g, next, chain) : match_epilogue_step(g, next, chain);
      if (!s) break;
      if (s->operand >= 0 && producer[s->operand] >= m.anchor) break;  // written after the kernel runs
      m.chain.push_back(*s);
      taken[next] = true;
      chain = s->output;
    }
    m.name = (m.conv ? "conv" : "gemm") + std::to_string(m.conv ? convs++ : gemms++);
    report.gemms.push_back(std::move(m));
  }
  mark_conv_layout_copies(g, report);
  return report;
}

MatchReport match_gemms_or_attention(OpGraph& g, bool* spelled_out) {
  MatchReport r = match_gemms(g);
  const bool decomposed = r.gemms.empty() && graph::decompose_attention(g) > 0;
  if (decomposed) r = match_gemms(g);
  if (spelled_out) *spelled_out = decomposed;
  return r;
}

bool runs_as_gemv(const GemmMatch& m) {
  const bool type_ok = m.in == graph::DType::f32 || m.in == graph::DType::f16 || m.in == graph::DType::bf16;
  return !m.conv && m.n == 1 && type_ok && m.a.natural == ir::Layout::row && !m.a.strided && !m.b.strided;
}

namespace {

// The DSL step of `s` as an sm90a epilogue step after others (its operand, if any, named as the
// front end names it: ir/lower.cpp's add_extra, base then base_2, base_3, ...), or "" when it has none.
FusedStep later_step(const ChainStep& s, std::vector<std::string>& taken) {
  auto extra = [&](const std::string& base) {
    std::string name = base;
    for (int i = 2; std::find(taken.begin(), taken.end(), name) != taken.end(); ++i) name = base + "_" + std::to_string(i);
    taken.push_back(name);
    return name;
  };
  switch (s.kind) {
    case StepKind::scale: return {&s, "scale(" + dsl_number(s.p0) + ")", ""};
    case StepKind::offset: return {&s, "add(" + dsl_number(s.p0) + ")", ""};
    case StepKind::bias_col: return {&s, "add(col)", extra("add_col")};
    case StepKind::mul_col: return {&s, "mul(col)", extra("mul_col")};
    case StepKind::mul_aux: return {&s, "mul(aux)", extra("mul_aux")};
    case StepKind::residual: return {&s, "residual", extra("residual")};
    case StepKind::bias_row:
    case StepKind::activation: break;
  }
  return {};
}

}  // namespace

FusedEpilogue fusable_prefix(const GemmMatch& m, ir::Arch arch, bool gemv, size_t max_steps) {
  FusedEpilogue f;
  std::vector<std::string> extras;  // operand names taken so far
  // sm80 reads a bias as C with stride 0 (ir validate, check_sm80_bias): a per-column one, before
  // any activation, never beside a residual. The depthwise direct convolution too: its epilogue's
  // iterator addresses an output pixel as row * stride, so a stride of 0 repeats the channels' bias.
  const bool sm80_bias = arch == ir::Arch::sm80;
  bool only_scales = true;              // every step so far is a scale (or the residual)
  bool only_homogeneous = true;         // every step so far is a scale, relu or leaky_relu
  int activations = 0;
  for (const ChainStep& s : m.chain) {
    if (max_steps > 0 && f.steps >= max_steps) break;
    bool ok = false;
    switch (s.kind) {
      case StepKind::scale:
        if (only_scales) {
          f.alpha *= s.p0;
          f.beta *= s.p0;
          ok = true;
        } else if (only_homogeneous && s.p0 > 0 && f.residual < 0) {
          f.alpha *= s.p0;  // relu(x)*s = relu(s*x) for s > 0
          ok = true;
        }
        break;
      case StepKind::residual:
        if (only_scales && f.residual < 0 && f.bias < 0) {
          f.residual = s.operand;
          f.beta = 1;
          ok = true;
        }
        break;
      case StepKind::bias_col:
      case StepKind::bias_row:
      {
        if (gemv) break;
        const bool col = s.kind == StepKind::bias_col;
        const bool right_after_bias = !f.dsl_steps.empty() && f.dsl_steps.back().step->kind == StepKind::bias_col &&
                                      f.dsl_steps.back().extra.empty();
        if (col && f.bias >= 0 && f.bias_kind == ir::BiasKind::col && f.bias2 < 0 && right_after_bias &&
            (m.conv || arch == ir::Arch::sm80)) {
          f.bias2 = s.operand;  // b1 + b2, one vector
          ok = true;
          break;
        }
        const bool sm90_ok = arch == ir::Arch::sm90a && f.bias < 0 && (col || m.batch == 1);
        const bool sm80_ok = sm80_bias && col && f.bias < 0 && f.residual < 0 && f.dsl_steps.empty();
        if (sm90_ok || sm80_ok) {
          f.bias = s.operand;
          f.bias_kind = col ? ir::BiasKind::col : ir::BiasKind::row;
          f.dsl_steps.push_back({&s, step_dsl(s), ""});
          ok = true;
        }
        break;
      }
      case StepKind::activation:
        if (!gemv && (arch == ir::Arch::sm90a || activations == 0)) {
          ++activations;
          f.dsl_steps.push_back({&s, step_dsl(s), ""});
          ok = true;
        }
        break;
      case StepKind::offset:
      case StepKind::mul_col:
      case StepKind::mul_aux:
        break;  // an sm90a epilogue step only (below)
    }
    // What alpha, beta and C cannot hold, an sm90a kernel runs as an epilogue step of its own after
    // the others (EVT nodes): a scale after an activation (level2/002's gelu * 0.5), a second bias or
    // one after an activation, a per-column scale, a residual after other steps. sm80 takes one
    // element-wise step with constants only, a GEMV alpha and beta only. Not convolutions yet: their
    // bindings pass no epilogue operands beside the bias, and the sub-pixel form repeats the bias per
    // phase (solution/subpixel_shuffle.h), which a second vector would need too.
    if (!ok && arch == ir::Arch::sm90a && !gemv && !m.conv) {
      FusedStep later = later_step(s, extras);
      if (!later.dsl.empty()) {
        if (s.kind == StepKind::residual || s.kind == StepKind::mul_aux) f.reads_matrix_extra = true;
        f.dsl_steps.push_back(std::move(later));
        ok = true;
        // alpha and beta apply before every epilogue step: no later scale may fold into them (a scale
        // after a second residual would scale acc and C but not that residual).
        ++f.steps;
        only_scales = only_homogeneous = false;
        continue;
      }
    }
    if (!ok) break;
    ++f.steps;
    if (s.kind != StepKind::scale && s.kind != StepKind::residual) only_scales = false;
    if (!(s.kind == StepKind::scale ||
          (s.kind == StepKind::activation && (s.act == ir::Activation::relu || s.act == ir::Activation::leaky_relu))))
      only_homogeneous = false;
  }
  return f;
}

}  // namespace ucutlass::map

namespace ucutlass::map {

std::string describe(const GemmMatch& m) {
  if (m.attention) {
    const AttentionSpec& a = *m.attention;
    return m.name + " " + m.anchor_op + " attention batch=" + std::to_string(a.batch) + " seq_q=" +
           std::to_string(a.seq_q) + " seq_k=" + std::to_string(a.seq_k) + " head_dim=" + std::to_string(a.head_dim) +
           (a.mask >= 0 ? " mask=tensor" : a.causal ? " mask=causal" : "") + " nodes=" + std::to_string(a.nodes.size());
  }
  if (m.rows)
    return m.name + " " + m.anchor_op + " " + std::string(ir::name_of(m.rows->op)) + " rows=" +
           std::to_string(m.rows->rows) + " length=" + std::to_string(m.rows->length) + " " + graph::dtype_name(m.in) +
           (m.rows->weight >= 0 ? " affine" : "");
  std::string s = m.name + " " + (m.conv ? conv_operation_dsl(*m.conv) : m.anchor_op) + " m=" + std::to_string(m.m) +
                  " n=" + std::to_string(m.n) + " k=" + std::to_string(m.k);
  if (m.batch > 1) s += " batch=" + std::to_string(m.batch);
  s += " " + graph::dtype_name(m.in);
  if (m.conv) {
    // Operands in PyTorch's layouts; which of them the forward copies to channels-last (and back).
    s += std::string(" copies:") + (m.conv->input_copy ? " x" : "") + " w" + (m.conv->output_copy ? " y" : "");
  } else {
    s += std::string(" a=") + std::string(ir::name_of(m.a.natural)) + (m.a.strided ? "(strided)" : "");
    s += std::string(" b=") + std::string(ir::name_of(m.b.natural)) + (m.b.strided ? "(strided)" : "");
  }
  s += " chain:";
  if (m.chain.empty()) s += " -";
  for (const ChainStep& c : m.chain) s += " " + step_text(c);
  return s;
}

}  // namespace ucutlass::map
