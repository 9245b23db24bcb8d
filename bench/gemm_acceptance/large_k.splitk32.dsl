# Acceptance: large K, 256 x 256 x 524288, fp32 in/out on TF32. Only 4 output tiles of 128 x 128,
# so K must be split across SMs. Pass: relative L2 error <= 1e-3 and >= 3x PyTorch fp32 eager.
# Candidate: split-K into 32 slices: 4 x 32 = 128 CTAs on 132 SMs, 512 K-steps each.
kernel large_k_splitk32 = gemm(m = 256, n = 256, k = 524288)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(1, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_scheduler(split_k(32))
