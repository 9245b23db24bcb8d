# Acceptance: bf16 8192^3 GEMM (see bf16_8192.t128x256_c2x1.dsl for the thresholds).
# Candidate: ping-pong schedule, one 64 x 256 tile per consumer warp group, so one group's epilogue
# overlaps the other's mainloop.
kernel bf16_8192_t64x256_pingpong = gemm(m = 8192, n = 8192, k = 8192)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(64, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(pingpong, epilogue = tma)
