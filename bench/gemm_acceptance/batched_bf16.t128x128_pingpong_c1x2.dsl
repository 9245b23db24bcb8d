# Acceptance: batched bf16 128 x (512 x 1024 x 2048) (see batched_bf16.t128x256_c2x1.dsl).
# Candidate: as batched_bf16.t128x128_pingpong.dsl with a 1x2 cluster (A multicast along N).
kernel batched_bf16_t128x128_pingpong_c1x2 = gemm(m = 512, n = 1024, k = 2048, batch = 128)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(128, 128, 64)
  .with_cluster(1, 2, 1)
  .with_schedule(pingpong, epilogue = tma)
