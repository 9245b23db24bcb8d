#include "map/conv_match.h"

#include <array>
#include <set>

#include "graph/node_args.h"
#include "ir/conv_problem.h"

namespace ucutlass::map {

namespace {

using graph::Node;
using graph::OpGraph;

// Where an anchor keeps its window arguments (ATen positions); -1 = absent.
struct ConvSignature {
  std::string_view op;
  int stride, padding, dilation, groups, output_padding, transposed_flag;
  bool transposed;
};

const std::vector<ConvSignature>& signatures() {
  static const std::vector<ConvSignature> rows = {
      {"conv1d", 3, 4, 5, 6, -1, -1, false},
      {"conv2d", 3, 4, 5, 6, -1, -1, false},
      {"conv3d", 3, 4, 5, 6, -1, -1, false},
      {"conv_transpose1d", 3, 4, 7, 6, 5, -1, true},
      {"conv_transpose2d", 3, 4, 7, 6, 5, -1, true},
      {"conv_transpose3d", 3, 4, 7, 6, 5, -1, true},
      {"convolution", 3, 4, 5, 8, 7, 6, false},
      {"_convolution", 3, 4, 5, 8, 7, 6, false},
  };
  return rows;
}

const ConvSignature* signature_of(std::string_view base) {
  for (const ConvSignature& s : signatures())
    if (s.op == base) return &s;
  return nullptr;
}

// A window argument as one value per used spatial dimension (ir index 3 - dims + i).
std::string read_window(const Node& n, int position, std::string_view name, int dims, int64_t fallback,
                        std::array<int64_t, 3>* out) {
  std::vector<int64_t> v;
  if (position >= 0) v = graph::arg_int_list(n, static_cast<size_t>(position), name, static_cast<size_t>(dims));
  if (v.empty()) v.assign(static_cast<size_t>(dims), fallback);
  if (v.size() != static_cast<size_t>(dims)) return std::string(name) + " has " + std::to_string(v.size()) + " values for " + std::to_string(dims) + " spatial dimensions";
  for (int i = 0; i < dims; ++i) (*out)[3 - dims + i] = v[i];
  return "";
}

// padding = "valid" | "same" (conv*d.padding): the symmetric padding it means, when there is one.
std::string string_padding(const std::string& mode, ConvSpec& s) {
  for (int i = 3 - s.dims; i < 3; ++i) {
    const int64_t reach = s.dilation[i] * (s.filter[i] - 1);
    if (mode == "valid") s.pad[i] = 0;
    else if (mode == "same" && reach % 2 == 0) s.pad[i] = reach / 2;
    else if (mode == "same")
      return "padding='same' with an even filter reach pads one side more; the DSL's padding is symmetric";
    else
      return "padding '" + mode + "' is not valid or same";
  }
  return "";
}

std::string window_text(const ConvSpec& s, const std::array<int64_t, 3>& v) {
  bool equal = true;
  for (int i = 3 - s.dims; i < 3; ++i) equal = equal && v[i] == v[2];
  if (equal) return std::to_string(v[2]);
  std::string out = "(";
  for (int i = 3 - s.dims; i < 3; ++i) out += (i > 3 - s.dims ? ", " : "") + std::to_string(v[i]);
  return out + ")";
}

bool any_not(const ConvSpec& s, const std::array<int64_t, 3>& v, int64_t value) {
  for (int i = 3 - s.dims; i < 3; ++i)
    if (v[i] != value) return true;
  return false;
}

bool is_view(std::string_view base) { return base == "view" || base == "_unsafe_view"; }

// Ops whose CUDA kernels index NCHW memory and so copy a channels-last input to contiguous themselves
// (PyTorch 2.11: group norm's RowwiseMoments, avg_pool3d's update_output; on the H200 that copy ran at
// about 1.1-1.3 TB/s in level2/021 and level2/026). The solution copies first, through the binding's
// tiled transpose.
bool wants_contiguous_input(std::string_view base) {
  return base == "group_norm" || base == "native_group_norm" || base == "avg_pool3d";
}

}  // namespace

bool is_conv_anchor(std::string_view base) { return signature_of(base) != nullptr; }

std::string match_conv_anchor(const OpGraph& g, const Node& n, GemmMatch& m) {
  const ConvSignature& sig = *signature_of(graph::op_base_name(n.op));
  const int x = graph::arg_tensor(g, n, 0, "input"), w = graph::arg_tensor(g, n, 1, "weight");
  if (x < 0 || w < 0) return "an operand is not a tensor";
  const auto &sx = g.tensors[x].shape, &sw = g.tensors[w].shape;
  if (sw.size() < 3 || sw.size() > 5) return "a " + std::to_string(sw.size()) + "-D weight";
  if (sx.size() != sw.size()) return "an unbatched input (" + std::to_string(sx.size()) + "-D for a " + std::to_string(sw.size() - 2) + "-D convolution)";
  const bool transposed = sig.transposed_flag >= 0 ? graph::arg_bool(n, sig.transposed_flag, "transposed").value_or(false) : sig.transposed;
  ConvSpec s;
  s.dims = static_cast<int>(sw.size()) - 2;
  s.transposed = transposed;
  s.n = sx[0];
  s.groups = graph::arg_int(n, sig.groups, "groups").value_or(1);
  if (s.groups < 1) return "groups " + std::to_string(s.groups);
  s.input = s.filter = {1, 1, 1};
  for (int i = 0; i < s.dims; ++i) {
    s.input[3 - s.dims + i] = sx[2 + i];
    s.filter[3 - s.dims + i] = sw[2 + i];
  }
  std::string why = read_window(n, sig.stride, "stride", s.dims, 1, &s.stride);
  if (why.empty()) why = read_window(n, sig.dilation, "dilation", s.dims, 1, &s.dilation);
  if (why.empty() && sig.output_padding >= 0 && transposed)
    why = read_window(n, sig.output_padding, "output_padding", s.dims, 0, &s.output_padding);
  const nlohmann::json* padding = graph::node_arg(n, sig.padding, "padding");
  if (why.empty()) why = padding && padding->is_string() ? string_padding(padding->get<std::string>(), s)
                                                         : read_window(n, sig.padding, "padding", s.dims, 0, &s.pad);
  if (!why.empty()) return why;

  // The kernel's problem in ir terms (a transposed conv is the dgrad of the forward conv from its output).
  ir::ConvProblem p;
  p.dims = s.dims;
  p.n.value = s.n;
  p.groups.value = s.groups;
  for (int i = 0; i < 3; ++i) {
    p.filter[i].value = s.filter[i];
    p.pad.value[i] = s.pad[i];
    p.stride.value[i] = s.stride[i];
    p.dilation.value[i] = s.dilation[i];
  }
  const auto& sy = g.tensors[n.outputs[0]].shape;
  if (sy.size() != sx.size()) return "the output's rank differs from the input's";
  if (!transposed) {
    s.c = sx[1];
    s.k = sw[0];
    if (sw[1] * s.groups != s.c) return "the weight's " + std::to_string(sw[1]) + " channels x groups differ from the input's " + std::to_string(s.c);
    p.mode = ir::ConvMode::fprop;
    p.c.value = s.c;
    p.k.value = s.k;
    for (int i = 0; i < 3; ++i) p.input[i].value = s.input[i];
  } else {
    s.c = sx[1];
    s.k = sw[1] * s.groups;
    if (sw[0] != s.c) return "the weight's " + std::to_string(sw[0]) + " input channels differ from the input's " + std::to_string(s.c);
    p.mode = ir::ConvMode::dgrad;
    p.c.value = s.k;  // the forward conv maps the transposed output (k channels) to its input (c channels)
    p.k.value = s.c;
    p.input = {ir::ConvValue{1, {}}, ir::ConvValue{1, {}}, ir::ConvValue{1, {}}};
    for (int i = 0; i < s.dims; ++i) p.input[3 - s.dims + i].value = sy[2 + i];
  }
  const ir::ConvGemmExtents e = ir::conv_gemm_extents(p);
  if (e.m <= 0 || e.n <= 0 || e.k <= 0) return "an empty implicit GEMM";
  m.m = e.m;
  m.n = e.n;
  m.k = e.k;
  m.a = {x, OperandView::as_is, ir::Layout::row, false, g.tensors[x].is_parameter()};
  m.b = {w, OperandView::as_is, ir::Layout::col, false, g.tensors[w].is_parameter()};
  s.x_elements = g.tensors[x].numel();
  s.w_elements = g.tensors[w].numel();
  s.y_elements = g.tensors[n.outputs[0]].numel();
  const int bias = graph::arg_tensor(g, n, 2, "bias");
  if (bias >= 0) {
    const auto& sb = g.tensors[bias].shape;
    if (sb.size() != 1 || sb[0] != sy[1]) return "bias is not one value per output channel";
    ChainStep step;
    step.kind = StepKind::bias_col;
    step.operand = bias;
    step.output = n.outputs[0];
    m.chain.push_back(step);
  }
  m.conv = s;
  return "";
}

std::optional<ChainStep> match_conv_epilogue_step(const OpGraph& g, int node, int chain) {
  const Node& n = g.nodes[node];
  const graph::Tensor& y = g.tensors[chain];
  if (graph::op_base_name(n.op) == "add" && n.outputs.size() == 1 && g.tensors[n.outputs[0]].shape == y.shape &&
      g.tensors[n.outputs[0]].dtype == y.dtype && graph::arg_number(n, 2, "alpha").value_or(1.0) == 1.0) {
    const int t0 = graph::arg_tensor(g, n, 0, "self"), t1 = graph::arg_tensor(g, n, 1, "other");
    const int other = t0 == chain ? t1 : t1 == chain ? t0 : -1;
    if (other >= 0 && other != chain && g.tensors[other].dtype == y.dtype) {
      // One value per channel, broadcast from the right: [C, 1, 1] or [1, C, 1, 1] against [N, C, H, W].
      const auto& o = g.tensors[other].shape;
      const size_t rank = y.shape.size();
      bool channel_vector = o.size() + 1 >= rank && o.size() <= rank && o != y.shape;
      for (size_t j = 0; channel_vector && j < o.size(); ++j) {
        const size_t axis = rank - o.size() + j;
        channel_vector = o[j] == (axis == 1 ? y.shape[1] : 1);
      }
      if (channel_vector) {
        ChainStep s;
        s.kind = StepKind::bias_col;
        s.node = node;
        s.output = n.outputs[0];
        s.operand = other;
        return s;
      }
    }
  }
  // The table's bias steps read the last axis as columns; on a conv output that is width, not channels.
  std::optional<ChainStep> s = match_epilogue_step(g, node, chain);
  if (s && (s->kind == StepKind::bias_col || s->kind == StepKind::bias_row)) return std::nullopt;
  return s;
}

void mark_conv_layout_copies(const OpGraph& g, MatchReport& r) {
  const auto consumers = g.consumers();
  const auto producers = g.producers();
  std::set<int> conv_anchors;
  for (const GemmMatch& m : r.gemms)
    if (m.conv) conv_anchors.insert(m.anchor);
  // Output first: a later conv's input is channels-last only if this one's result stayed so.
  // The walk stops at the next conv kernel, whose result is its own.
  for (GemmMatch& m : r.gemms) {
    if (!m.conv) continue;
    const size_t rank = g.tensors[m.output].shape.size();
    std::vector<int> todo{m.output};
    std::set<int> seen;
    while (!todo.empty() && !m.conv->output_copy) {
      const int t = todo.back();
      todo.pop_back();
      if (!seen.insert(t).second) continue;
      for (int c : consumers[t]) {
        const Node& n = g.nodes[c];
        const std::string base = graph::op_base_name(n.op);
        if (is_view(base) || wants_contiguous_input(base)) m.conv->output_copy = true;
        if (conv_anchors.count(c)) continue;
        for (int o : n.outputs)
          if (g.tensors[o].shape.size() == rank) todo.push_back(o);
      }
    }
  }
  for (GemmMatch& m : r.gemms) {
    if (!m.conv) continue;
    // Back from the activation through ops that keep the rank (element-wise, norms, pooling keep
    // PyTorch's memory format) to an earlier conv kernel, whose result is channels-last.
    int t = m.a.tensor;
    bool copy = true;
    for (int hops = 0; hops < 64; ++hops) {
      const int p = producers[t];
      if (p < 0) break;
      const GemmMatch* from = nullptr;
      for (const GemmMatch& o : r.gemms)
        if (o.conv && o.anchor == p && conv_anchors.count(p)) from = &o;
      if (from) {
        copy = from->conv->output_copy;
        break;
      }
      const Node& n = g.nodes[p];
      if (n.inputs.empty() || g.tensors[n.inputs[0]].shape.size() != g.tensors[t].shape.size()) break;
      t = n.inputs[0];
    }
    m.conv->input_copy = copy;
  }
}

std::string conv_operation_dsl(const ConvSpec& s) {
  static const char* const input_names[] = {"d", "h", "w"};
  static const char* const filter_names[] = {"t", "r", "s"};
  std::string o = (s.transposed ? "conv_transpose" : "conv") + std::to_string(s.dims) + "d(";
  if (!s.transposed) o += "fprop, ";
  o += "n = " + std::to_string(s.n);
  for (int i = 3 - s.dims; i < 3; ++i) o += std::string(", ") + input_names[i] + " = " + std::to_string(s.input[i]);
  o += ", c = " + std::to_string(s.c) + ", k = " + std::to_string(s.k);
  for (int i = 3 - s.dims; i < 3; ++i) o += std::string(", ") + filter_names[i] + " = " + std::to_string(s.filter[i]);
  if (any_not(s, s.pad, 0)) o += ", pad = " + window_text(s, s.pad);
  if (any_not(s, s.stride, 1)) o += ", stride = " + window_text(s, s.stride);
  if (any_not(s, s.dilation, 1)) o += ", dilation = " + window_text(s, s.dilation);
  if (s.transposed && any_not(s, s.output_padding, 0)) o += ", output_padding = " + window_text(s, s.output_padding);
  if (s.groups != 1) o += ", groups = " + std::to_string(s.groups);
  return o + ")";
}

ConvLayoutCopies conv_layout_copies(const GemmMatch& m, bool rounding) {
  ConvLayoutCopies c;
  if (!m.conv) return c;
  const double in = graph::dtype_bytes(m.in), out = graph::dtype_bytes(m.out);
  const double per_element = rounding ? graph::dtype_bytes(graph::DType::f32) + in : 2.0 * in;
  // A weight parameter's copy is cached by the solution (solution/conv_forward.h): once per version.
  if (!m.b.parameter) c.weight = per_element * static_cast<double>(m.conv->w_elements);
  if (m.conv->input_copy) c.activation = per_element * static_cast<double>(m.conv->x_elements);
  if (m.conv->output_copy) c.result = 2.0 * static_cast<double>(m.conv->y_elements) * out;
  return c;
}

double conv_layout_copy_bytes(const GemmMatch& m) { return conv_layout_copies(m).total(); }

double conv_kernel_bytes(const GemmMatch& m) {
  if (!m.conv) return 0;
  return static_cast<double>(m.conv->x_elements + m.conv->w_elements) * graph::dtype_bytes(m.in) +
         static_cast<double>(m.conv->y_elements) * graph::dtype_bytes(m.out);
}

}  // namespace ucutlass::map
