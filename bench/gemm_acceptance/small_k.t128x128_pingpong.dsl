# Acceptance: small K, 32768 x 32768 x 64 on TF32 (see small_k.t128x128_c2x1.dsl for the thresholds).
# Candidate: ping-pong, so one warp group's stores overlap the other's (short) mainloop.
kernel small_k_t128x128_pingpong = gemm(m = 32768, n = 32768, k = 64)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(pingpong, epilogue = tma)
