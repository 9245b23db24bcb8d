#pragma once
// The bias expression a kernel call passes: the fused bias as a flat vector, or, where a second
// per-column vector follows it in the chain (map::FusedEpilogue::bias2: a deconv's own bias and a bias
// parameter, level2/025), their sum. The sum is computed on every call, not cached: either vector may
// change on its own, and a per-channel add is a few microseconds against two passes over the output.
// A vector the trace shows flat and dense is passed as it is, without a view per call.
#include <string>

#include "graph/op_graph.h"

namespace ucutlass::solution {

std::string bias_argument(const graph::OpGraph& g, int bias, int bias2);

}  // namespace ucutlass::solution
