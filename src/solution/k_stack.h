#pragma once
// 3xTF32 (or 3xBF16) on sm90a by stacking K (map::KernelConfig::k_stack3): what a solution adds around
// a kernel whose operands are split into high and low parts; and the plain bf16 rounding of
// map::KernelConfig::bf16_operands.

#include <cstdint>
#include <string>
#include <string_view>

#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::solution {

// The Python helpers a solution defines once when any of its kernels is K-stacked.
extern const std::string_view kStack3Helpers;

// The stacked form of an operand expression `expr`, stacked along axis `k_dim` ("-1": A's K; "-2": a
// B's K; "1": a conv's input channels): [lo, hi, hi] for the A side, [hi, lo, hi] for the B side, in
// TF32 parts (f32) or, with `bf16`, bf16 parts (3xBF16). A parameter's stack is built once per
// version (_ucutlass_stack3_param). With k_out > 0 each part is k_out wide, zero-padded beyond K
// (map/stacked_k.h).
std::string stacked_operand(const graph::OpGraph& g, const std::string& kernel, const map::GemmOperand& op,
                            const std::string& expr, bool a_side, const std::string& k_dim, bool bf16 = false,
                            int64_t k_out = 0);

// An f32 operand expression rounded to bf16 for a kernel with bf16_operands (map::KernelConfig): per
// call for an input, once per version for a parameter.
std::string rounded_to_bf16(const graph::OpGraph& g, const std::string& kernel, const map::GemmOperand& op,
                            const std::string& expr, bool a_side);

}  // namespace ucutlass::solution
