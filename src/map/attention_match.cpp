#include "map/attention_match.h"

#include <cmath>

#include "graph/node_args.h"

namespace ucutlass::map {

namespace {

using graph::Node;
using graph::OpGraph;

class AttentionMatcher {
 public:
  explicit AttentionMatcher(const OpGraph& g) : g_(g), producers_(g.producers()), consumers_(g.consumers()) {}

  MatchReport run() {
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      const std::string base = graph::op_base_name(g_.nodes[i].op);
      if (base == "scaled_dot_product_attention") sdpa(static_cast<int>(i));
      else if (base == "matmul" || base == "bmm") explicit_form(static_cast<int>(i));
    }
    return std::move(r_);
  }

 private:
  void note(const Node& n, const std::string& why) { r_.notes.push_back(n.id + " " + n.op + ": " + why); }

  // The one node that reads tensor t, or -1.
  int only_consumer(int t) const {
    if (t < 0 || consumers_[t].size() != 1) return -1;
    return consumers_[t][0];
  }
  int producer(int t) const { return t < 0 ? -1 : producers_[t]; }
  std::string base(int node) const { return node < 0 ? "" : graph::op_base_name(g_.nodes[node].op); }

  // q, k, v shapes [..., L, D], f32, equal leading dimensions, a head size the kernel has. Where q or k
  // is a problem input, the harness's redraws reach the scores unnormalized, and on its shifted trial
  // (x * 4 - 1) bf16 scores missed 1e-2 on both such problems of the suite (H200, 2026-12-01:
  // level3/004, 19 of 16.8M outputs, max error 0.022; level3/003 too), while level3/005's, behind a
  // layer norm and a projection, passed: such a spec is marked for split (bf16x3) scores only.
  bool shapes(const Node& n, AttentionSpec& s) {
    for (int t : {s.q, s.k})
      if (g_.tensors[t].role == graph::TensorRole::input) s.scores_from_inputs = true;
    const auto& q = g_.tensors[s.q].shape;
    const auto& k = g_.tensors[s.k].shape;
    const auto& v = g_.tensors[s.v].shape;
    for (int t : {s.q, s.k, s.v})
      if (g_.tensors[t].dtype != graph::DType::f32) {
        note(n, "attention kernels read f32 q, k and v");
        return false;
      }
    if (q.size() < 3 || k.size() != q.size() || v.size() != q.size() ||
        !std::equal(q.begin(), q.end() - 2, k.begin()) || !std::equal(q.begin(), q.end() - 2, v.begin()) ||
        k[k.size() - 2] != v[v.size() - 2] || q.back() != k.back() || v.back() != q.back()) {
      note(n, "q, k and v do not share their leading dimensions and head size");
      return false;
    }
    s.head_dim = q.back();
    if (s.head_dim != 64 && s.head_dim != 128) {
      note(n, "head size " + std::to_string(s.head_dim) + " is not 64 or 128");
      return false;
    }
    s.seq_q = q[q.size() - 2];
    s.seq_k = k[k.size() - 2];
    s.batch = 1;
    for (size_t d = 0; d + 2 < q.size(); ++d) s.batch *= q[d];
    return true;
  }

  // A bool [Lq, Lk] mask (leading 1s allowed).
  bool mask_ok(int t, const AttentionSpec& s) const {
    const graph::Tensor& m = g_.tensors[t];
    if (m.dtype != graph::DType::boolean || m.shape.size() < 2) return false;
    for (size_t d = 0; d + 2 < m.shape.size(); ++d)
      if (m.shape[d] != 1) return false;
    return m.shape[m.shape.size() - 2] == s.seq_q && m.shape.back() == s.seq_k;
  }

  void sdpa(int index) {
    const Node& n = g_.nodes[index];
    AttentionSpec s;
    s.q = graph::arg_tensor(g_, n, 0, "query");
    s.k = graph::arg_tensor(g_, n, 1, "key");
    s.v = graph::arg_tensor(g_, n, 2, "value");
    if (s.q < 0 || s.k < 0 || s.v < 0 || n.outputs.empty()) return;
    if (!shapes(n, s)) return;
    if (graph::arg_number(n, 4, "dropout_p").value_or(0.0) != 0.0) return note(n, "it applies dropout");
    if (graph::arg_bool(n, 7, "enable_gqa").value_or(false)) return note(n, "it groups heads (GQA)");
    if (graph::node_arg(n, 3, "attn_mask")) {
      s.mask = graph::arg_tensor(g_, n, 3, "attn_mask");
      if (s.mask < 0 || !mask_ok(s.mask, s)) return note(n, "its attn_mask is not a bool [seq_q, seq_k] tensor");
    }
    s.causal = graph::arg_bool(n, 5, "is_causal").value_or(false);
    if (s.causal && s.mask >= 0) return note(n, "it has both a mask and is_causal");
    s.scale = graph::arg_number(n, 6, "scale").value_or(1.0 / std::sqrt(static_cast<double>(s.head_dim)));
    s.nodes = {index};
    add(index, n.outputs[0], s);
  }

  // matmul(q, k^T) -> div|mul c -> [masked_fill(mask, -inf)] -> softmax(-1) -> matmul(., v), from the first.
  void explicit_form(int first) {
    const Node& scores = g_.nodes[first];
    if (scores.outputs.empty()) return;
    const int kt = graph::arg_tensor(g_, scores, 1, "other");
    const int transpose = producer(kt);
    if (base(transpose) != "transpose" || only_consumer(kt) != first) return;
    const Node& tr = g_.nodes[transpose];
    const auto d0 = graph::arg_int(tr, 1, "dim0"), d1 = graph::arg_int(tr, 2, "dim1");
    const int rank = static_cast<int>(g_.tensors[kt].shape.size());
    auto last_two = [&](int64_t d) { return d == -1 || d == -2 || d == rank - 1 || d == rank - 2; };
    if (!d0 || !d1 || *d0 == *d1 || !last_two(*d0) || !last_two(*d1)) return;
    AttentionSpec s;
    s.q = graph::arg_tensor(g_, scores, 0, "input");
    s.k = graph::arg_tensor(g_, tr, 0, "input");
    int at = only_consumer(scores.outputs[0]);
    const std::string scale_op = base(at);
    if (scale_op != "div" && scale_op != "mul") return;
    const auto c = graph::arg_number(g_.nodes[at], 1, "other");
    if (!c || *c == 0) return;
    s.scale = scale_op == "div" ? 1.0 / *c : *c;
    std::vector<int> nodes = {transpose, first, at};
    int next = only_consumer(g_.nodes[at].outputs[0]);
    if (base(next) == "masked_fill") {
      const Node& mf = g_.nodes[next];
      const nlohmann::json* value = graph::node_arg(mf, 2, "value");
      if (!value || !value->is_string() || value->get<std::string>() != "-inf") return;
      s.mask = graph::arg_tensor(g_, mf, 1, "mask");
      nodes.push_back(next);
      next = only_consumer(mf.outputs[0]);
    }
    if (base(next) != "softmax" && base(next) != "_softmax") return;
    const Node& sm = g_.nodes[next];
    const auto dim = graph::arg_int(sm, 1, "dim");
    if (!dim || (*dim != -1 && *dim != static_cast<int64_t>(g_.tensors[sm.outputs[0]].shape.size()) - 1)) return;
    if (g_.tensors[sm.outputs[0]].dtype != graph::DType::f32) return;
    nodes.push_back(next);
    const int out = only_consumer(sm.outputs[0]);
    if (base(out) != "matmul" && base(out) != "bmm") return;
    const Node& pv = g_.nodes[out];
    if (graph::arg_tensor(g_, pv, 0, "input") != sm.outputs[0] || pv.outputs.empty()) return;
    s.v = graph::arg_tensor(g_, pv, 1, "other");
    if (s.q < 0 || s.k < 0 || s.v < 0) return;
    if (!shapes(scores, s)) return;
    if (s.mask >= 0 && !mask_ok(s.mask, s)) return note(scores, "its mask is not a bool [seq_q, seq_k] tensor");
    nodes.push_back(out);
    s.nodes = nodes;
    add(out, pv.outputs[0], s);
  }

  void add(int anchor, int output, const AttentionSpec& s) {
    GemmMatch m;
    m.name = "attn" + std::to_string(r_.gemms.size());
    m.anchor = anchor;
    m.anchor_op = g_.nodes[anchor].op;
    m.m = s.batch * s.seq_q;
    m.n = s.head_dim;
    m.k = s.seq_k;
    m.in = m.out = graph::DType::f32;
    m.output = output;
    m.attention = s;
    r_.gemms.push_back(std::move(m));
  }

  const OpGraph& g_;
  std::vector<int> producers_;
  std::vector<std::vector<int>> consumers_;
  MatchReport r_;
};

}  // namespace

MatchReport match_attention(const OpGraph& g) { return AttentionMatcher(g).run(); }

}  // namespace ucutlass::map
