#pragma once
// A sum over a linear layer's output features, rewritten as the GEMV it is:
//
//   sum_n (x W^T + b)[m, n]  =  x[m, :] . s  +  sum_n b[n],   s = sum_n W[n, :] = ones[1, N] W
//
// KernelBench writes this on purpose (a "degenerate" problem: level2/017's nn.Linear(8192, 8192) then
// .sum(dim=1)); the SOL analysis prices it as the GEMV (sol/degenerate.h: gemm-collapses-to-gemv), and
// a kernel that runs the full GEMM first does 8192x the work the answer needs. The rewrite is exact
// algebra, so every call computes the output from the current x, W and b: s is a product of W with a
// row of ones, computed on each call (nothing is cached across calls), the GEMV reads x once, and the
// bias adds its own sum. The new nodes are ordinary ATen ops, so the mapper finds an M = 1 GEMM
// (ones W) and a GEMV (x s^T), and the writer emits the rest as PyTorch calls.
//
// Both products are marked fp32-accurate (OpGraph::fp32_products): each output sums N x K products
// (67M on level2/017) into a value of tens, and the harness's 1e-2 is absolute there; with bf16 or
// TF32 operands the collapsed form missed it on 85-118 of 1024 outputs (H200, 2026-12-01, max error
// 0.12-0.37), as the uncollapsed GEMM did with them; 3xTF32 passed.
//
// Only the plain form: aten.linear (2-D x, f32 weight [N, K]) whose output only the sum reads, summed
// over its last dimension alone (keepdim either way, no dtype).
#include "graph/op_graph.h"

namespace ucutlass::graph {

// Rewrites every such linear + sum pair in place (the last new node writes the sum's own output
// tensor, so graph outputs are unchanged); returns how many it rewrote.
int collapse_gemm_sums(OpGraph& g);

}  // namespace ucutlass::graph
