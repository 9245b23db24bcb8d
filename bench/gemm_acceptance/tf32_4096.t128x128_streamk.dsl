# Acceptance: fp32 4096^3 on TF32 (see tf32_4096.t128x128_c2x1.dsl for the thresholds).
# Candidate: 128 x 128 tiles under stream-K: 1024 tiles are 7.76 waves on 132 SMs, and stream-K
# spreads the last partial wave over all SMs.
kernel tf32_4096_t128x128_streamk = gemm(m = 4096, n = 4096, k = 4096)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_scheduler(stream_k)
