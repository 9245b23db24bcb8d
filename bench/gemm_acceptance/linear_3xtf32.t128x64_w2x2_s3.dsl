# Acceptance: nn.Linear-like y = x @ W^T without bias, 1024 x 8192 x 8192, fp32, on the SM80 path with
# 3xTF32 (split-precision emulation; runs on the H200). x ~ U[0,1) [M, K] row-major; W ~ U(+-1/sqrt(K))
# [N, K] row-major = B column-major. Pass: allclose(atol = rtol = 1e-4) against float64 (plain TF32
# fails this at ~19 % of elements) and faster than PyTorch fp32 eager.
# Candidate: CUTLASS example 27's 3xTF32 shape (tile 128x64x16, warp 64x32, 3 stages).
kernel linear_3xtf32_t128x64_w2x2_s3 = gemm(m = 1024, n = 8192, k = 8192)
  .with_arch(sm80)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32x3)
  .with_tile(128, 64, 16)
  .with_warps(2, 2, 1)
  .with_stages(3)
