# Acceptance: batched bf16 128 x (512 x 1024 x 2048) (see batched_bf16.t128x256_c2x1.dsl).
# Candidate: ping-pong with a 128 x 128 tile per consumer warp group: with K = 2048 a tile's epilogue is
# a large share of its time, and ping-pong overlaps it with the other group's mainloop. First H200 runs
# (bench/results/gemm-2026-11-29-141750.json, 9 configurations): this one was best, at 0.99x torch.bmm.
kernel batched_bf16_t128x128_pingpong = gemm(m = 512, n = 1024, k = 2048, batch = 128)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(128, 128, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(pingpong, epilogue = tma)
