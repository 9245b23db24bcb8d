#pragma once
// The op graph a traced PyTorch problem becomes: tensors with shapes and
// dtypes, and ATen nodes between them. The harness tracer writes it as JSON
// (format "ucutlass-opgraph", see docs/sol.md); graph_reader.h reads it.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace ucutlass::graph {

enum class DType { f64, f32, f16, bf16, f8e4m3, f8e5m2, i64, i32, i16, i8, u8, boolean };

// Every dtype name the schema accepts, in the spelling of torch.
const std::vector<std::string>& dtype_names();
std::optional<DType> parse_dtype(std::string_view name);
std::string dtype_name(DType d);
int dtype_bytes(DType d);
bool is_floating(DType d);

enum class TensorRole { input, weight, buffer, constant, intermediate, output };

std::optional<TensorRole> parse_role(std::string_view name);
std::string role_name(TensorRole r);

struct Tensor {
  std::string id;
  std::string name;
  std::vector<int64_t> shape;
  std::vector<int64_t> stride;  // empty when the tracer gave none
  DType dtype = DType::f32;
  TensorRole role = TensorRole::intermediate;
  std::optional<std::vector<double>> value;  // small constants only

  int64_t numel() const;
  int64_t bytes() const { return numel() * dtype_bytes(dtype); }
  // A module parameter or buffer: the same tensor on every call of the model.
  bool is_parameter() const { return role == TensorRole::weight || role == TensorRole::buffer; }
};

struct Node {
  std::string id;
  std::string op;  // ATen overload as torch.export prints it: "aten.addmm.default"
  std::vector<int> inputs;   // indices into OpGraph::tensors
  std::vector<int> outputs;  // indices into OpGraph::tensors
  nlohmann::json args = nlohmann::json::array();    // tensors appear as {"tensor": "t0"}
  nlohmann::json kwargs = nlohmann::json::object();
};

struct OpGraph {
  std::string problem_name;
  std::string problem_file;
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;  // in execution order: producers come first
  std::vector<int> inputs, weights, outputs;
  // Ids of nodes whose products must stay fp32-accurate whatever the tolerance profile allows: set by
  // rewrites (graph/collapse_gemm_sum.h), never traced or serialized.
  std::set<std::string> fp32_products;

  // Appends a tensor and indexes its id; returns its index.
  int add_tensor(Tensor t);
  int find_tensor(std::string_view id) const;  // -1 when absent
  // For each tensor, the node that produces it (-1 for graph inputs, weights, constants).
  std::vector<int> producers() const;
  // For each tensor, the nodes that read it.
  std::vector<std::vector<int>> consumers() const;

 private:
  std::unordered_map<std::string, int> tensor_index_;
};

// The op's base name without namespace and overload: "aten.addmm.default" -> "addmm",
// "aten::softmax.int" -> "softmax", "torch.ops.aten.mm" -> "mm", "getitem" -> "getitem".
std::string op_base_name(std::string_view op);

}  // namespace ucutlass::graph
