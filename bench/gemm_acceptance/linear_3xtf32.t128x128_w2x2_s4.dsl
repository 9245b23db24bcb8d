# Acceptance: nn.Linear-like 1024 x 8192 x 8192 on SM80 3xTF32 (see linear_3xtf32.t128x64_w2x2_s3.dsl).
# Candidate: 128x128x16 tile, 64x64 warp tiles, 4 stages (the resolver's default for f32 on sm80).
kernel linear_3xtf32_t128x128_w2x2_s4 = gemm(m = 1024, n = 8192, k = 8192)
  .with_arch(sm80)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32x3)
  .with_tile(128, 128, 16)
  .with_warps(2, 2, 1)
  .with_stages(4)
