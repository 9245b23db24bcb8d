# An epilogue chain: D = clamp(gelu(alpha * A*B + beta * C + bias), -2, 2).
# beta(1.0) makes the kernel read C (a residual, for example); steps apply in
# the order written.
kernel fused_chain = gemm(m = 4096, n = 4096, k = 4096)
  .with_types(a = bf16, b = bf16, c = bf16, d = bf16)
  .with_epilogue(alpha(0.5), beta(1.0), bias(col), gelu, clamp(-2, 2))
