#pragma once
// 3xTF32 on sm90a by stacking K (map::KernelConfig::k_stack3): what a solution adds around a kernel
// whose operands are split into TF32 high and low parts.

#include <string>
#include <string_view>

#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::solution {

// The Python helpers a solution defines once when any of its kernels is K-stacked.
extern const std::string_view kStack3Helpers;

// The stacked form of an operand expression `expr`, stacked along axis `k_dim` ("-1": A's K; "-2": a
// column-major B's K; "1": a conv's input channels): [lo, hi, hi] for the A side, [hi, lo, hi] for
// the B side. A parameter's stack is built once per version (_ucutlass_stack3_param).
std::string stacked_operand(const graph::OpGraph& g, const std::string& kernel, const map::GemmOperand& op,
                            const std::string& expr, bool a_side, const std::string& k_dim);

}  // namespace ucutlass::solution
