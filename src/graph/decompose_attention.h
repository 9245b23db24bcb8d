#pragma once
// scaled_dot_product_attention as the GEMMs it holds. The op is one node in the traced graph, so the
// optimizer found no GEMM in it and left the problem to PyTorch; spelled out as
//   softmax(Q K^T * scale) V  =  matmul(softmax(mul(matmul(Q, transpose(K)), scale)), V)
// its two products map to CUTLASS kernels (the scale fused into the first one's epilogue) and the
// softmax stays in PyTorch between them, as for an attention the problem writes out itself
// (level3/004). Only the plain form: no mask, no dropout, not causal, no grouped-query heads. The SOL
// bound is taken before this rewrite: it prices the fused attention, which never stores Q K^T.
#include "graph/op_graph.h"

namespace ucutlass::graph {

// Rewrites every plain scaled_dot_product_attention node in place (the new nodes write the node's
// own output tensor, so graph outputs are unchanged); returns how many it rewrote.
int decompose_attention(OpGraph& g);

}  // namespace ucutlass::graph
