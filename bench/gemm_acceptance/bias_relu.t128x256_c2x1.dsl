# Acceptance: fused bias + relu, 1024 x 8192 x 8192 on TF32 (see bias_relu.t128x128_c2x1.dsl).
# Candidate: 128 x 256 tiles: 256 tiles, 1.94 waves on 132 SMs.
kernel bias_relu_t128x256_c2x1 = gemm(m = 1024, n = 8192, k = 8192)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 256, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_epilogue(bias(col), relu)
