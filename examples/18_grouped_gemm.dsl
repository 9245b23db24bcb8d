# Grouped GEMM: the experts of a mixture-of-experts layer in one launch. Group g
# computes D_g = silu(A_g B_g) with A_g [m_g, 2048] (the tokens routed to expert
# g, a different count per group), B_g [2048, 4096] (its weight, nn.Linear's W.t())
# and D_g [m_g, 4096]. The group count and every m_g are given at run time; n and k
# are fixed, so their alignment is checked here. CUTLASS's pointer-array kernel
# walks all groups' tiles with one persistent grid (cutlass::gemm::GroupProblemShape).
kernel experts = gemm(m = dynamic, n = 4096, k = 2048, groups = dynamic)
  .with_types(bf16)
  .with_tile(128, 128, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative)
  .with_epilogue(silu)
