# Acceptance: fp32 inputs and output, 4096^3, computed on the TF32 tensor-core path.
# Pass: relative L2 error vs float64 <= 1e-3 and >= 6x PyTorch fp32 eager (allow_tf32 = False).
# Candidate: the configuration measured at 355 TFLOP/s in gpu.md.
kernel tf32_4096_t128x128_c2x1 = gemm(m = 4096, n = 4096, k = 4096)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
