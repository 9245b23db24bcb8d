#include "graph/rewrite_builder.h"

namespace ucutlass::graph {

int RewriteBuilder::tensor(const std::string& what, std::vector<int64_t> shape, std::vector<int64_t> stride, DType dtype) {
  Tensor t;
  t.id = tensor_tag_ + "_" + what;
  t.name = t.id;
  t.shape = std::move(shape);
  t.stride = std::move(stride);
  t.dtype = dtype;
  return g_.add_tensor(std::move(t));
}

Node& RewriteBuilder::node(const std::string& what, const std::string& op, std::vector<int> inputs, int output,
                           nlohmann::json args, nlohmann::json kwargs) {
  Node n;
  n.id = node_prefix_ + "_" + what;
  n.op = op;
  n.inputs = std::move(inputs);
  n.outputs = {output};
  n.args = std::move(args);
  n.kwargs = std::move(kwargs);
  nodes_.push_back(std::move(n));
  return nodes_.back();
}

}  // namespace ucutlass::graph
