# Acceptance: large K, 256 x 256 x 524288 on TF32 (see large_k.splitk32.dsl for the thresholds).
# Candidate: stream-K, which divides the 4 tiles' K iterations evenly over all SMs.
kernel large_k_streamk = gemm(m = 256, n = 256, k = 524288)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(1, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_scheduler(stream_k)
