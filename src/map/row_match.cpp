#include "map/row_match.h"

#include <set>

#include "graph/collapse_gemm_sum.h"
#include "graph/node_args.h"
#include "map/attention_match.h"

namespace ucutlass::map {

namespace {

using graph::Node;
using graph::OpGraph;
using ir::RowOp;

bool row_dtype(graph::DType d) { return d == graph::DType::f32 || d == graph::DType::f16 || d == graph::DType::bf16; }

// `dim` names the last of `rank` dimensions (negative dims count from the end).
bool is_last(int64_t dim, size_t rank) { return dim == -1 || (rank > 0 && dim == static_cast<int64_t>(rank) - 1); }

class RowMatcher {
 public:
  explicit RowMatcher(const OpGraph& g) : g_(g) {}

  MatchReport run() {
    for (size_t i = 0; i < g_.nodes.size(); ++i) match(static_cast<int>(i));
    return std::move(r_);
  }

 private:
  void note(const Node& n, const std::string& why) { r_.notes.push_back(n.id + " " + n.op + ": " + why); }

  void match(int index) {
    const Node& n = g_.nodes[index];
    const std::string base = graph::op_base_name(n.op);
    std::optional<RowOp> op;
    if (base == "softmax" || base == "_softmax") op = RowOp::softmax;
    else if (base == "log_softmax" || base == "_log_softmax") op = RowOp::log_softmax;
    else if (base == "logsumexp") op = RowOp::logsumexp;
    else if (base == "sum") op = RowOp::sum;
    else if (base == "mean") op = RowOp::mean;
    else if (base == "amax") op = RowOp::max;
    else if (base == "argmax") op = RowOp::argmax;
    else if (base == "layer_norm") op = RowOp::layernorm;
    else if (base == "group_norm") op = RowOp::groupnorm;
    if (!op || n.outputs.empty()) return;
    const int x = graph::arg_tensor(g_, n, 0, "input");
    if (x < 0) return note(n, "its input is not a tensor");
    const graph::Tensor& t = g_.tensors[x];
    const graph::Tensor& out = g_.tensors[n.outputs[0]];
    if (!row_dtype(t.dtype)) return note(n, "row kernels read f32, f16 or bf16, not " + graph::dtype_name(t.dtype));
    if (*op != RowOp::argmax && out.dtype != t.dtype)
      return note(n, "its output type differs from its input's (a dtype= conversion)");
    if (t.shape.empty() || t.numel() == 0) return note(n, "its input has no rows");
    const size_t rank = t.shape.size();
    RowSpec s;
    s.op = *op;
    s.x = x;
    s.length = t.shape.back();
    switch (*op) {
      case RowOp::softmax:
      case RowOp::log_softmax: {
        const auto dim = graph::arg_int(n, 1, "dim");
        if (!dim || !is_last(*dim, rank)) return note(n, "it is not over the last dimension");
        if (graph::node_arg(n, 2, "dtype") && base[0] != '_') return note(n, "it converts its input's type");
        break;
      }
      case RowOp::argmax: {
        const auto dim = graph::arg_int(n, 1, "dim");
        if (!dim || !is_last(*dim, rank)) return note(n, "it is not over the last dimension");
        break;
      }
      case RowOp::logsumexp:
      case RowOp::sum:
      case RowOp::mean:
      case RowOp::max: {
        const std::vector<int64_t> dims = graph::arg_int_list(n, 1, "dim");
        if (dims.size() != 1 || !is_last(dims[0], rank)) return note(n, "it does not reduce the last dimension alone");
        if (graph::node_arg(n, 3, "dtype")) return note(n, "it converts its input's type");
        break;
      }
      case RowOp::layernorm: {
        const std::vector<int64_t> shape = graph::arg_int_list(n, 1, "normalized_shape");
        if (shape.size() != 1 || shape[0] != s.length) return note(n, "it normalizes more than the last dimension");
        if (!affine(n, 2, 3, s)) return;
        s.eps = graph::arg_number(n, 4, "eps").value_or(1e-5);
        break;
      }
      case RowOp::groupnorm: {
        const auto groups = graph::arg_int(n, 1, "num_groups");
        if (rank < 2 || !groups || *groups < 1 || t.shape[1] % *groups != 0)
          return note(n, "its groups do not divide its channels");
        int64_t span = 1;
        for (size_t d = 2; d < rank; ++d) span *= t.shape[d];
        s.groups = *groups;
        s.channel_span = span;
        s.length = t.shape[1] / *groups * span;
        if (!affine(n, 2, 3, s)) return;
        s.eps = graph::arg_number(n, 4, "eps").value_or(1e-5);
        break;
      }
    }
    s.rows = t.numel() / s.length;
    GemmMatch m;
    m.name = "row" + std::to_string(r_.gemms.size());
    m.anchor = index;
    m.anchor_op = n.op;
    m.m = s.rows;
    m.n = 1;
    m.k = s.length;
    m.in = t.dtype;
    m.out = t.dtype;
    m.output = n.outputs[0];
    m.rows = s;
    r_.gemms.push_back(std::move(m));
  }

  // A norm's weight and bias: both tensors of x's type, or neither.
  bool affine(const Node& n, size_t w_at, size_t b_at, RowSpec& s) {
    const int w = graph::arg_tensor(g_, n, w_at, "weight"), b = graph::arg_tensor(g_, n, b_at, "bias");
    if ((w < 0) != (b < 0)) {
      note(n, "it has a weight without a bias or a bias without a weight");
      return false;
    }
    if (w >= 0 && (g_.tensors[w].dtype != g_.tensors[s.x].dtype || g_.tensors[b].dtype != g_.tensors[s.x].dtype)) {
      note(n, "its weight or bias has another type than its input");
      return false;
    }
    s.weight = w;
    s.bias = b;
    return true;
  }

  const OpGraph& g_;
  MatchReport r_;
};

}  // namespace

MatchReport match_rows(const OpGraph& g) { return RowMatcher(g).run(); }

MatchReport match_problem(OpGraph& g, bool fused_attention) {
  // A sum over a linear layer's features is a GEMV (graph/collapse_gemm_sum.h): rewritten first, so the
  // GEMMs below are the collapsed problem's.
  const int collapsed = graph::collapse_gemm_sums(g);
  MatchReport attention = fused_attention ? match_attention(g) : MatchReport{};
  attention.collapsed_sums = collapsed;
  if (attention.gemms.empty()) {
    bool spelled_out = false;
    MatchReport r = match_gemms_or_attention(g, &spelled_out);
    if (r.gemms.empty()) {
      r = match_rows(g);
    } else if (!spelled_out) {
      // A softmax, norm or row reduction over a GEMM's or conv's result runs as a row kernel beside them
      // (level2/011's logsumexp, 013's and 021's group norms had run as PyTorch's 2-3 kernels each). Not
      // in a spelled-out attention, whose softmax between the two GEMMs is measured as PyTorch's against
      // the fused attention kernel.
      MatchReport rows = match_rows(g);  // named row0, row1, ...: no GEMM or conv name clashes
      for (GemmMatch& m : rows.gemms) r.gemms.push_back(std::move(m));
    }
    r.collapsed_sums = collapsed;
    return r;
  }
  // The GEMMs an attention kernel replaces (the explicit form's two matmuls) are not kernels of their own.
  std::set<int> inside;
  for (const GemmMatch& m : attention.gemms) inside.insert(m.attention->nodes.begin(), m.attention->nodes.end());
  MatchReport r = match_gemms(g);
  for (GemmMatch& m : r.gemms) {
    if (inside.count(m.anchor)) continue;
    for (size_t i = 0; i < m.chain.size(); ++i)
      if (inside.count(m.chain[i].node)) {
        m.chain.resize(i);
        break;
      }
    attention.gemms.push_back(std::move(m));
  }
  attention.notes.insert(attention.notes.end(), r.notes.begin(), r.notes.end());
  return attention;
}

}  // namespace ucutlass::map
