#pragma once
// Degenerate problems: graphs whose naive cost overstates the work an honest
// kernel must do. KernelBench ships some on purpose or by accident: outputs
// that are provably zero or constant (y - y, softmax over a dimension of size
// 1, a norm over one element), a sum right after a GEMM that collapses it to a
// GEMV (sum_n (x W^T)_mn = x . sum_n W_n), and ops whose results nobody uses.
// The analysis says what it found and which ops the reduced problem still
// runs, so the report can price both.
#include <optional>
#include <string>
#include <vector>

#include "graph/op_graph.h"
#include "sol/op_cost.h"
#include "sol/precision_policy.h"

namespace ucutlass::sol {

// What the reduced problem does with a node.
enum class NodeFate {
  live,       // runs as traced
  dead,       // its outputs reach no graph output
  constant,   // its outputs do not depend on the inputs: precomputable, free
  identity,   // its output equals one of its inputs (e.g. a sum over a size-1 dim): free
  absorbed,   // folded into a collapsed GEMM
  collapsed,  // a GEMM repriced as the GEMV it reduces to
  unneeded    // live in the naive graph, but feeds only constant outputs
};
std::string fate_name(NodeFate f);

struct DegenerateFinding {
  // zero-output, constant-output, gemm-collapses-to-gemv, dead-op, identity-op, and
  // output-under-tolerance (values so small that an all-zero output passes the check)
  std::string kind;
  std::string node;    // the node that causes it
  std::string tensor;  // the output concerned, when one is
  std::string message;
};

struct DegenerateAnalysis {
  std::vector<DegenerateFinding> findings;
  std::vector<NodeFate> fate;                  // per node
  std::vector<std::optional<OpCost>> reduced;  // per node: the repriced cost of a collapsed GEMM
  bool degenerate() const { return !findings.empty(); }
};

// `tolerance` decides when an output is too small for the correctness check to see.
DegenerateAnalysis analyze_degenerate(const graph::OpGraph& g, const std::vector<OpCost>& costs,
                                      ToleranceProfile tolerance = ToleranceProfile::kernelbench);

}  // namespace ucutlass::sol
