#pragma once
// Reads the op-graph JSON the harness tracer writes (format "ucutlass-opgraph",
// version 1, dialect "aten"; schema in docs/sol.md). A malformed graph is a
// user-facing error, never a crash: the message names the file, the JSON
// pointer of the offending value, and what is wrong, e.g.
//
//   g.json: /tensors/3/dtype: unknown dtype "float33" (did you mean "float32"?)
#include <string>
#include <string_view>

#include "graph/op_graph.h"

namespace ucutlass::graph {

// Parses and validates `text`; `path` only names the source in messages.
// On failure returns false and sets *err to one complete message.
bool read_op_graph(std::string_view text, const std::string& path, OpGraph* out, std::string* err);

// Reads the file at `path`, then read_op_graph.
bool load_op_graph_file(const std::string& path, OpGraph* out, std::string* err);

}  // namespace ucutlass::graph
