# Acceptance: bf16 8192^3 GEMM (see bf16_8192.t128x256_c2x1.dsl for the thresholds).
# Candidate: the transposed tile (256 x 128) with a 1x2 cluster, multicasting A along N.
kernel bf16_8192_t256x128_c1x2 = gemm(m = 8192, n = 8192, k = 8192)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(256, 128, 64)
  .with_cluster(1, 2, 1)
  .with_schedule(cooperative, epilogue = tma)
