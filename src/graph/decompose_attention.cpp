#include "graph/decompose_attention.h"

#include <cmath>

#include "graph/node_args.h"
#include "graph/rewrite_builder.h"

namespace ucutlass::graph {

namespace {

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

bool absent_or(const Node& n, size_t position, std::string_view name, double value) {
  const nlohmann::json* a = node_arg(n, position, name);
  if (!a || a->is_null()) return true;
  if (a->is_boolean()) return static_cast<double>(a->get<bool>()) == value;
  return a->is_number() && a->get<double>() == value;
}

// The scale of a plain attention node, or nullopt when the node is not one this rewrite keeps exact.
std::optional<double> plain_attention_scale(const OpGraph& g, const Node& n) {
  if (op_base_name(n.op) != "scaled_dot_product_attention" || n.outputs.size() != 1) return std::nullopt;
  const int q = arg_tensor(g, n, 0, "query"), k = arg_tensor(g, n, 1, "key"), v = arg_tensor(g, n, 2, "value");
  if (q < 0 || k < 0 || v < 0) return std::nullopt;
  const nlohmann::json* mask = node_arg(n, 3, "attn_mask");
  if ((mask && !mask->is_null()) || !absent_or(n, 4, "dropout_p", 0) || !absent_or(n, 5, "is_causal", 0) ||
      !absent_or(n, 7, "enable_gqa", 0))
    return std::nullopt;
  const auto &sq = g.tensors[q].shape, &sk = g.tensors[k].shape, &sv = g.tensors[v].shape;
  if (sq.size() < 3 || sk.size() != sq.size() || sv.size() != sq.size()) return std::nullopt;
  for (size_t i = 0; i + 2 < sq.size(); ++i)
    if (sk[i] != sq[i] || sv[i] != sq[i]) return std::nullopt;  // broadcast or grouped heads
  if (sk.back() != sq.back() || sv[sv.size() - 2] != sk[sk.size() - 2] || sq.back() <= 0) return std::nullopt;
  for (int t : {q, k, v})
    if (!is_floating(g.tensors[t].dtype)) return std::nullopt;
  const nlohmann::json* scale = node_arg(n, 6, "scale");
  if (scale && !scale->is_null()) return scale->is_number() ? std::optional(scale->get<double>()) : std::nullopt;
  return 1.0 / std::sqrt(static_cast<double>(sq.back()));
}

}  // namespace

int decompose_attention(OpGraph& g) {
  int rewritten = 0;
  std::vector<Node> nodes;
  for (Node& n : g.nodes) {
    const std::optional<double> scale = plain_attention_scale(g, n);
    if (!scale) {
      nodes.push_back(std::move(n));
      continue;
    }
    const int q = arg_tensor(g, n, 0, "query"), k = arg_tensor(g, n, 1, "key"), v = arg_tensor(g, n, 2, "value");
    const int out = n.outputs[0];
    RewriteBuilder b(g, nodes, "attn" + std::to_string(rewritten), n.id);
    const DType dtype = g.tensors[q].dtype;
    auto tensor = [&](const std::string& what, std::vector<int64_t> shape, std::vector<int64_t> stride) {
      return b.tensor(what, std::move(shape), std::move(stride), dtype);
    };
    // K^T: a view with the last two dimensions (and strides, when known) swapped.
    std::vector<int64_t> kt_shape = g.tensors[k].shape, kt_stride = g.tensors[k].stride;
    std::swap(kt_shape[kt_shape.size() - 1], kt_shape[kt_shape.size() - 2]);
    if (kt_stride.size() == kt_shape.size()) std::swap(kt_stride[kt_stride.size() - 1], kt_stride[kt_stride.size() - 2]);
    const int kt = tensor("kt", kt_shape, kt_stride);
    std::vector<int64_t> s_shape = g.tensors[q].shape;
    s_shape.back() = g.tensors[k].shape[g.tensors[k].shape.size() - 2];
    const int scores = tensor("scores", s_shape, contiguous_strides(s_shape));
    const int scaled = tensor("scaled", s_shape, contiguous_strides(s_shape));
    const int probs = tensor("probs", s_shape, contiguous_strides(s_shape));
    b.node("kt", "aten.transpose.int", {k}, kt, {b.ref(k), -2, -1});
    b.node("qk", "aten.matmul.default", {q, kt}, scores, {b.ref(q), b.ref(kt)});
    b.node("scale", "aten.mul.Tensor", {scores}, scaled, {b.ref(scores), *scale});
    b.node("softmax", "aten.softmax.int", {scaled}, probs, {b.ref(scaled), -1});
    b.node("pv", "aten.matmul.default", {probs, v}, out, {b.ref(probs), b.ref(v)});
    ++rewritten;
  }
  g.nodes = std::move(nodes);
  return rewritten;
}

}  // namespace ucutlass::graph
