# A plain bf16 GEMM on Hopper: D = A * B with A (M x K) row-major and B
# (K x N) column-major, the layout nn.Linear uses (its weight W[N, K] is B).
# Everything not said here is chosen by `auto`: run
#   ucutlass check --resolved examples/01_bf16_gemm.dsl
# to see the tile, cluster, schedule and alignment it picked.
kernel gemm_bf16 = gemm(m = 8192, n = 8192, k = 8192)
  .with_types(bf16)
