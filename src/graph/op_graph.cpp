#include "graph/op_graph.h"

#include <array>

namespace ucutlass::graph {

namespace {

struct DTypeInfo {
  DType dtype;
  const char* name;
  int bytes;
  bool floating;
};

constexpr std::array<DTypeInfo, 12> kDTypes{{
    {DType::f64, "float64", 8, true},
    {DType::f32, "float32", 4, true},
    {DType::f16, "float16", 2, true},
    {DType::bf16, "bfloat16", 2, true},
    {DType::f8e4m3, "float8_e4m3fn", 1, true},
    {DType::f8e5m2, "float8_e5m2", 1, true},
    {DType::i64, "int64", 8, false},
    {DType::i32, "int32", 4, false},
    {DType::i16, "int16", 2, false},
    {DType::i8, "int8", 1, false},
    {DType::u8, "uint8", 1, false},
    {DType::boolean, "bool", 1, false},
}};

const DTypeInfo& info(DType d) {
  for (const DTypeInfo& i : kDTypes)
    if (i.dtype == d) return i;
  return kDTypes[1];
}

constexpr std::array<const char*, 6> kRoles{"input", "weight", "buffer", "constant", "intermediate", "output"};

}  // namespace

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const DTypeInfo& i : kDTypes) v.push_back(i.name);
    return v;
  }();
  return names;
}

std::optional<DType> parse_dtype(std::string_view name) {
  // torch prints "torch.float32"; the schema says "float32": accept both.
  if (name.starts_with("torch.")) name.remove_prefix(6);
  for (const DTypeInfo& i : kDTypes)
    if (name == i.name) return i.dtype;
  return std::nullopt;
}

std::string dtype_name(DType d) { return info(d).name; }
int dtype_bytes(DType d) { return info(d).bytes; }
bool is_floating(DType d) { return info(d).floating; }

std::optional<TensorRole> parse_role(std::string_view name) {
  for (size_t i = 0; i < kRoles.size(); ++i)
    if (name == kRoles[i]) return static_cast<TensorRole>(i);
  return std::nullopt;
}

std::string role_name(TensorRole r) { return kRoles[static_cast<size_t>(r)]; }

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int OpGraph::add_tensor(Tensor t) {
  int index = static_cast<int>(tensors.size());
  tensor_index_.emplace(t.id, index);
  tensors.push_back(std::move(t));
  return index;
}

int OpGraph::find_tensor(std::string_view id) const {
  auto it = tensor_index_.find(std::string(id));
  return it == tensor_index_.end() ? -1 : it->second;
}

std::vector<int> OpGraph::producers() const {
  std::vector<int> p(tensors.size(), -1);
  for (size_t n = 0; n < nodes.size(); ++n)
    for (int t : nodes[n].outputs) p[t] = static_cast<int>(n);
  return p;
}

std::vector<std::vector<int>> OpGraph::consumers() const {
  std::vector<std::vector<int>> c(tensors.size());
  for (size_t n = 0; n < nodes.size(); ++n)
    for (int t : nodes[n].inputs)
      if (c[t].empty() || c[t].back() != static_cast<int>(n)) c[t].push_back(static_cast<int>(n));
  return c;
}

std::string op_base_name(std::string_view op) {
  for (std::string_view prefix : {"torch.ops.", "aten::", "aten.", "prims::", "prims.", "_operator.", "operator."})
    if (op.starts_with(prefix)) op.remove_prefix(prefix.size());
  size_t dot = op.find('.');
  return std::string(op.substr(0, dot));
}

}  // namespace ucutlass::graph
