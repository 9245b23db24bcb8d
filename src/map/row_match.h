#pragma once
// Row anchors: the graph's softmaxes, norms and row reductions that a row kernel
// (ir/row_problem.h) computes in one read of their input, as GemmMatches named row0, row1, ...
// with `rows` set and m = rows, n = 1, k = length.
//
//   softmax(x, dim = -1), log_softmax(x, -1)     over x's last dimension
//   logsumexp | sum | mean | amax (x, [-1], keepdim), argmax(x, -1, keepdim)
//   layer_norm(x, [L], weight, bias, eps)        over the last dimension, affine or not
//   group_norm(x [N, C, ...], G, weight, bias, eps)
//
// x must be f32, f16 or bf16 with its output of the same type (no dtype= conversions), and every
// reduced dimension the innermost one; anything else stays in PyTorch, with a note saying why.
// The optimizer maps rows only in problems with no GEMM or convolution (cmd_optimize), where
// they are the whole custom work of the solution.
#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::map {

MatchReport match_rows(const graph::OpGraph& g);

// What `ucutlass optimize` maps in a problem, after rewriting a sum over a linear layer's features as
// the GEMV it is (graph/collapse_gemm_sum.h: the graph changes): with `fused_attention` (the tolerance allows bf16
// operands) its attentions as attention kernels (map/attention_match.h) and the GEMMs and convolutions
// outside them; else its GEMMs and convolutions (match_gemms_or_attention); with none of those, its row
// anchors.
MatchReport match_problem(graph::OpGraph& g, bool fused_attention = false);

}  // namespace ucutlass::map
