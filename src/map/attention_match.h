#pragma once
// Attention anchors: the graph's attention, fused into one attention kernel (ir/attention_problem.h),
// as GemmMatches named attn0, attn1, ... with `attention` set (m = batch x seq_q, n = head_dim,
// k = seq_k). Two forms:
//
//   scaled_dot_product_attention(q, k, v[, attn_mask = bool [Lq, Lk]][, is_causal][, scale])
//     (no dropout, no grouped heads)
//   matmul(q, k.transpose(-2, -1)) / c (or * c) [-> masked_fill(mask, -inf)] -> softmax(-1) -> matmul(., v)
//     (every intermediate read only by the next step; mask a bool [Lq, Lk] tensor)
//
// q, k, v must be f32 [..., L, D] with the same leading dimensions (their product is the batch) and
// D = 64 or 128; where q or k is a problem input the spec says so (scores_from_inputs: only split
// scores are searched, attention_match.cpp says why); what else the kernel needs (contiguity) the
// solution provides with .contiguous().
#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::map {

MatchReport match_attention(const graph::OpGraph& g);

}  // namespace ucutlass::map
