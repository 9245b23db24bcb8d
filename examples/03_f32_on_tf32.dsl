# f32 inputs on TF32 tensor cores: about 8x faster than f32 SIMT, with a
# relative error near 1e-3 (inputs are rounded to 10 mantissa bits). Good for
# tolerances of 1e-2; too coarse for 1e-4 on typical nn.Linear data
# (see 05_linear_3xtf32.dsl). TF32 WGMMA needs both operands K-major.
kernel gemm_tf32 = gemm(m = 4096, n = 4096, k = 4096)
  .with_types(f32)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(2, 1, 1)
