# sm80 kernels with a fused bias. CUTLASS 2.x epilogues compute act(alpha * acc + beta * C);
# a bias rides in C read with a leading dimension of 0 (every output row reads the same
# vector) and beta = 1, so it needs D's type, no other C, and the output laid out along it.
#
# nn.Linear + ReLU in f32 at 1e-4: 3xTF32 on the sm80 path (sm90a has no 3xTF32 mainloop).
kernel linear_relu_exact = gemm(m = 1024, n = 4096, k = 4096)
  .with_arch(sm80)
  .with_types(f32)
  .with_math(tf32x3)
  .with_epilogue(bias(col), relu)

# A per-row bias with a column-major D (the same trick along the other axis), f16.
kernel row_bias = gemm(m = 4096, n = 1024, k = 2048)
  .with_arch(sm80)
  .with_types(f16)
  .with_layouts(c = col)
  .with_epilogue(bias(row), gelu)

# nn.Conv2d + bias + ReLU on sm80: the bias is C with every stride 0 but the channel's.
kernel conv_bias_relu = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 128, r = 3, s = 3, pad = 1)
  .with_arch(sm80)
  .with_types(f32)
  .with_math(tf32x3)
  .with_epilogue(bias(col), relu)
