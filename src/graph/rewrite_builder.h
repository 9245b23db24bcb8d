#pragma once
// What a graph rewrite (decompose_attention.h, collapse_gemm_sum.h) needs to write its replacement: new
// tensors named after the rewrite, and new nodes named after the node they replace, appended to the
// node list the rewrite is building. Tensors are added to the graph at once (their ids must resolve in
// the new nodes' arguments); nodes go to `nodes`, which the rewrite installs as the graph's when done.
#include <string>
#include <vector>

#include "graph/op_graph.h"

namespace ucutlass::graph {

class RewriteBuilder {
 public:
  // Tensors get ids "<tensor_tag>_<what>", nodes "<node_prefix>_<what>".
  RewriteBuilder(OpGraph& g, std::vector<Node>& nodes, std::string tensor_tag, std::string node_prefix)
      : g_(g), nodes_(nodes), tensor_tag_(std::move(tensor_tag)), node_prefix_(std::move(node_prefix)) {}

  // A new intermediate tensor; returns its index.
  int tensor(const std::string& what, std::vector<int64_t> shape, std::vector<int64_t> stride, DType dtype = DType::f32);

  // Appends a node writing `output`; returns it (valid until the next append).
  Node& node(const std::string& what, const std::string& op, std::vector<int> inputs, int output, nlohmann::json args,
             nlohmann::json kwargs = nlohmann::json::object());

  // A tensor as a node argument: {"tensor": id}.
  nlohmann::json ref(int t) const { return nlohmann::json{{"tensor", g_.tensors[t].id}}; }

 private:
  OpGraph& g_;
  std::vector<Node>& nodes_;
  std::string tensor_tag_, node_prefix_;
};

}  // namespace ucutlass::graph
