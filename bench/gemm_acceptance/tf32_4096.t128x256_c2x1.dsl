# Acceptance: fp32 4096^3 on TF32 (see tf32_4096.t128x128_c2x1.dsl for the thresholds).
# Candidate: a wider 128 x 256 tile: half the A re-reads, 512 tiles (3.9 waves on 132 SMs).
kernel tf32_4096_t128x256_c2x1 = gemm(m = 4096, n = 4096, k = 4096)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 256, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
