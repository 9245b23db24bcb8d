# Acceptance: batched GEMM, 128 x (512 x 1024 x 2048), fp32 in/out on TF32; A row-major, B column-major.
# Pass: relative L2 error <= 1e-3 and faster than torch.bmm fp32 eager (allow_tf32 = False).
# Candidate: 128 x 128 x 32 cooperative tiles, cluster 2x1.
kernel batched_tf32_t128x128_c2x1 = gemm(m = 512, n = 1024, k = 2048, batch = 128)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
