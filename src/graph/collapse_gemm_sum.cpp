#include "graph/collapse_gemm_sum.h"

#include "graph/node_args.h"
#include "graph/rewrite_builder.h"

namespace ucutlass::graph {

namespace {

struct Collapse {
  int linear = -1, sum = -1;  // node indices
  int x = -1, w = -1, b = -1;  // tensors (b = -1 without a bias)
  bool keepdim = false;
};

// The linear + sum pair that starts at node `i`, if it is one this rewrite keeps exact.
std::optional<Collapse> find_collapse(const OpGraph& g, const std::vector<std::vector<int>>& consumers, int i) {
  const Node& n = g.nodes[i];
  if (op_base_name(n.op) != "linear" || n.outputs.size() != 1) return std::nullopt;
  Collapse c;
  c.linear = i;
  c.x = arg_tensor(g, n, 0, "input");
  c.w = arg_tensor(g, n, 1, "weight");
  const nlohmann::json* bias = node_arg(n, 2, "bias");
  if (bias && !bias->is_null()) {
    c.b = arg_tensor(g, n, 2, "bias");
    if (c.b < 0) return std::nullopt;
  }
  if (c.x < 0 || c.w < 0) return std::nullopt;
  const int y = n.outputs[0];
  for (int out : g.outputs)
    if (out == y) return std::nullopt;
  if (consumers[y].size() != 1) return std::nullopt;
  c.sum = consumers[y][0];
  const Node& s = g.nodes[c.sum];
  if (op_base_name(s.op) != "sum" || s.outputs.size() != 1 || s.inputs.size() != 1) return std::nullopt;
  const nlohmann::json* dtype = node_arg(s, 3, "dtype");
  if (dtype && !dtype->is_null()) return std::nullopt;
  const std::vector<int64_t> dims = arg_int_list(s, 1, "dim");
  const Tensor& yt = g.tensors[y];
  const int64_t rank = static_cast<int64_t>(yt.shape.size());
  if (rank != 2 || dims.size() != 1 || (dims[0] != -1 && dims[0] != rank - 1)) return std::nullopt;
  c.keepdim = arg_bool(s, 2, "keepdim").value_or(false);
  const Tensor &xt = g.tensors[c.x], &wt = g.tensors[c.w];
  if (xt.shape.size() != 2 || wt.shape.size() != 2 || xt.shape[1] != wt.shape[1] || yt.shape[1] != wt.shape[0])
    return std::nullopt;
  for (int t : {c.x, c.w, y})
    if (g.tensors[t].dtype != DType::f32) return std::nullopt;
  if (c.b >= 0 && (g.tensors[c.b].dtype != DType::f32 || g.tensors[c.b].numel() != wt.shape[0])) return std::nullopt;
  return c;
}

}  // namespace

int collapse_gemm_sums(OpGraph& g) {
  const std::vector<std::vector<int>> consumers = g.consumers();
  std::vector<std::optional<Collapse>> at(g.nodes.size());
  std::vector<bool> replaced(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (auto c = find_collapse(g, consumers, static_cast<int>(i)); c && !replaced[c->sum]) {
      at[c->sum] = c;  // the new nodes go where the sum was: every input is ready there
      replaced[i] = replaced[c->sum] = true;
    }
  int rewritten = 0;
  std::vector<Node> nodes;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!replaced[i]) {
      nodes.push_back(std::move(g.nodes[i]));
      continue;
    }
    if (!at[i]) continue;  // the linear: its work moves to the sum's place
    const Collapse& c = *at[i];
    const Node& sum = g.nodes[c.sum];
    const int64_t m = g.tensors[c.x].shape[0], n = g.tensors[c.w].shape[0], k = g.tensors[c.w].shape[1];
    const int out = sum.outputs[0];
    RewriteBuilder b(g, nodes, "collapse" + std::to_string(rewritten), sum.id);
    const int ones = b.tensor("ones", {1, n}, {n, 1});
    const int column_sums = b.tensor("colsum", {1, k}, {k, 1});
    const int column_sums_t = b.tensor("colsum_t", {k, 1}, {1, k});
    b.node("ones", "aten.ones.default", {}, ones, nlohmann::json::array({nlohmann::json::array({1, n})}),
           {{"dtype", "float32"}, {"device", "cuda"}});
    g.fp32_products.insert(b.node("colsum", "aten.mm.default", {ones, c.w}, column_sums, {b.ref(ones), b.ref(c.w)}).id);
    b.node("colsum_t", "aten.t.default", {column_sums}, column_sums_t, {b.ref(column_sums)});
    // x s^T: [M, 1], the sum with keepdim; without, squeezed to [M]. The bias's sum comes last.
    const bool last_is_product = c.keepdim && c.b < 0;
    const int product = last_is_product ? out : b.tensor("product", {m, 1}, {1, 1});
    g.fp32_products.insert(
        b.node("gemv", "aten.mm.default", {c.x, column_sums_t}, product, {b.ref(c.x), b.ref(column_sums_t)}).id);
    int result = product;
    if (!c.keepdim) {
      result = c.b < 0 ? out : b.tensor("squeezed", {m}, {1});
      b.node("squeeze", "aten.squeeze.dim", {product}, result, {b.ref(product), -1});
    }
    if (c.b >= 0) {
      const int bias_sum = b.tensor("bias_sum", {}, {});
      b.node("bias_sum", "aten.sum.default", {c.b}, bias_sum, {b.ref(c.b)});
      b.node("add_bias", "aten.add.Tensor", {result, bias_sum}, out, {b.ref(result), b.ref(bias_sum)});
    }
    ++rewritten;
  }
  g.nodes = std::move(nodes);
  return rewritten;
}

}  // namespace ucutlass::graph
