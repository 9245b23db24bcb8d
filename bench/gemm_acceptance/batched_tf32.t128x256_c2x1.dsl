# Acceptance: batched fp32 on TF32, 128 x (512 x 1024 x 2048) (see batched_tf32.t128x128_c2x1.dsl).
# Candidate: 128 x 256 x 32 cooperative tiles: half the A re-reads.
kernel batched_tf32_t128x256_c2x1 = gemm(m = 512, n = 1024, k = 2048, batch = 128)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 256, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
