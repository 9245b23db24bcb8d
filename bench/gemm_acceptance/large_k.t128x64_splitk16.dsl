# Acceptance: large K, 256 x 256 x 524288 on TF32 (see large_k.splitk32.dsl for the thresholds).
# Candidate: narrower 128 x 64 tiles (8 output tiles) split 16 ways: 128 CTAs, 1024 K-steps each,
# half the partial-sum traffic of 32 slices.
kernel large_k_t128x64_splitk16 = gemm(m = 256, n = 256, k = 524288)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 64, 32)
  .with_cluster(1, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_scheduler(split_k(16))
