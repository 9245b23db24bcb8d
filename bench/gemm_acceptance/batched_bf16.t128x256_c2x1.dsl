# Acceptance: batched GEMM, 128 x (512 x 1024 x 2048), bf16 in/out, f32 accumulate; A [batch, M, K]
# row-major, B [batch, N, K] row-major = column-major K x N. Pass: relative L2 error <= 1e-2 and faster
# than torch.bmm (bf16). Candidate: 128 x 256 cooperative tiles, 16 per batch, 2048 in all.
kernel batched_bf16_t128x256_c2x1 = gemm(m = 512, n = 1024, k = 2048, batch = 128)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
