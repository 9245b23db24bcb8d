# Acceptance (issue 5): the fused bf16 GEMM + bias + GELU of bias_gelu_bf16.t128x256_c2x1.dsl with the
# transposed tile and cluster (the other shape an optimizer tries first for 16-bit GEMMs).
kernel bias_gelu_bf16_t256x128_c1x2 = gemm(m = 4096, n = 16384, k = 4096)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(256, 128, 64)
  .with_cluster(1, 2, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_epilogue(bias(col), gelu)
