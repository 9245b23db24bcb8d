# Acceptance: small K, 32768 x 32768 x 64, fp32 in/out on TF32: bound by the 4.3 GB store of D.
# Pass: relative L2 error <= 1e-3 and >= 2x PyTorch fp32 eager.
# Candidate: the configuration measured at 92 TFLOP/s in gpu.md (cuBLAS fp32: 32.5).
kernel small_k_t128x128_c2x1 = gemm(m = 32768, n = 32768, k = 64)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
