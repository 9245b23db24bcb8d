#include "graph/node_args.h"

namespace ucutlass::graph {

const nlohmann::json* node_arg(const Node& node, size_t position, std::string_view name) {
  const nlohmann::json* found = nullptr;
  if (node.args.is_array() && position < node.args.size()) found = &node.args[position];
  if (!found && !name.empty() && node.kwargs.is_object()) {
    auto it = node.kwargs.find(std::string(name));
    if (it != node.kwargs.end()) found = &*it;
  }
  return found && !found->is_null() ? found : nullptr;
}

std::optional<int64_t> arg_int(const Node& node, size_t position, std::string_view name) {
  const nlohmann::json* a = node_arg(node, position, name);
  if (a && a->is_number_integer()) return a->get<int64_t>();
  if (a && a->is_array() && a->size() == 1 && (*a)[0].is_number_integer()) return (*a)[0].get<int64_t>();
  return std::nullopt;
}

std::optional<double> arg_number(const Node& node, size_t position, std::string_view name) {
  const nlohmann::json* a = node_arg(node, position, name);
  if (a && a->is_number()) return a->get<double>();
  if (a && a->is_boolean()) return a->get<bool>() ? 1.0 : 0.0;
  return std::nullopt;
}

std::optional<bool> arg_bool(const Node& node, size_t position, std::string_view name) {
  const nlohmann::json* a = node_arg(node, position, name);
  if (a && a->is_boolean()) return a->get<bool>();
  if (a && a->is_number_integer()) return a->get<int64_t>() != 0;
  return std::nullopt;
}

std::vector<int64_t> arg_int_list(const Node& node, size_t position, std::string_view name, size_t rank) {
  const nlohmann::json* a = node_arg(node, position, name);
  std::vector<int64_t> out;
  if (!a) return out;
  if (a->is_number_integer()) return std::vector<int64_t>(rank, a->get<int64_t>());
  if (!a->is_array()) return out;
  for (const nlohmann::json& e : *a)
    if (e.is_number_integer()) out.push_back(e.get<int64_t>());
  if (out.size() == 1 && rank > 1) out.assign(rank, out[0]);
  return out;
}

int arg_tensor(const OpGraph& graph, const Node& node, size_t position, std::string_view name) {
  const nlohmann::json* a = node_arg(node, position, name);
  if (!a || !a->is_object()) return -1;
  auto it = a->find("tensor");
  if (it == a->end() || !it->is_string()) return -1;
  return graph.find_tensor(it->get<std::string>());
}

}  // namespace ucutlass::graph
