# Acceptance: bf16 8192^3 GEMM, D = A @ B (A row-major, B col-major = nn.Linear weight), bf16 out, f32 accumulate.
# Pass: >= 95 % of torch.matmul (bf16) throughput; relative L2 error vs float64 <= 1e-2.
# Candidate: the configuration measured at 791 TFLOP/s in gpu.md (cooperative, TMA epilogue, 2x1 cluster).
kernel bf16_8192_t128x256_c2x1 = gemm(m = 8192, n = 8192, k = 8192)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
