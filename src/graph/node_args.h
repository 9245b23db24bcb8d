#pragma once
// Reading a node's arguments the way ATen binds them: by position, or by
// keyword when the tracer passed it that way. Every accessor tolerates a
// missing or ill-typed argument and returns the caller's default, because a
// cost model must price whatever a tracer produced, never crash on it.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "graph/op_graph.h"

namespace ucutlass::graph {

// The argument at `position`, or the keyword `name`; nullptr when absent or null.
const nlohmann::json* node_arg(const Node& node, size_t position, std::string_view name);

std::optional<int64_t> arg_int(const Node& node, size_t position, std::string_view name);
std::optional<double> arg_number(const Node& node, size_t position, std::string_view name);
std::optional<bool> arg_bool(const Node& node, size_t position, std::string_view name);
// An int list; a single int stands for itself repeated `rank` times (PyTorch's `_pair`).
std::vector<int64_t> arg_int_list(const Node& node, size_t position, std::string_view name, size_t rank = 1);
// Index of the tensor passed at this argument, -1 if it is not a tensor.
int arg_tensor(const OpGraph& graph, const Node& node, size_t position, std::string_view name);

}  // namespace ucutlass::graph
