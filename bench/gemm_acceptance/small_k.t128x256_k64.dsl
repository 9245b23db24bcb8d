# Acceptance: small K, 32768 x 32768 x 64 on TF32 (see small_k.t128x128_c2x1.dsl for the thresholds).
# Candidate: a 128 x 256 tile holding all of K (64) in one stage: half as many tiles, and A read once
# per 256 columns.
kernel small_k_t128x256_k64 = gemm(m = 32768, n = 32768, k = 64)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
