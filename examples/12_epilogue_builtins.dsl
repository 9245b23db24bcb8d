# Every named epilogue step on sm90a in one kernel (one nvcc translation unit),
# in the order written: D = steps(alpha * A*B + beta * C). Vectors, scalars and
# aux tensors become extra operands of the host entry, in program order:
#   scale (f32 scalar), per_row_scale [M], per_col_scale [N], per_channel_scale [N],
#   sub_row [M], div_col [N], residual [M, N] read, aux_store [M, N] written.
# The aux_store output holds the value at that point of the chain (before tanh).
kernel every_step = gemm(m = 1024, n = 1024, k = 512)
  .with_types(a = bf16, b = bf16, c = bf16, d = bf16)
  .with_epilogue(beta(1.0), scale(0.5), scale(scalar), bias(col, f32),
                 per_row_scale(f32), per_col_scale, per_channel_scale(f32),
                 add(1), sub(row), mul(2), div(col(f32)), min(6), max(-6), residual,
                 relu, gelu, gelu_tanh, silu, sigmoid, mish, hardswish, hardsigmoid,
                 leaky_relu(0.1), elu(0.5), selu, softplus(2, 10), clamp(-4, 4), clip(-3, 3),
                 aux_store, tanh)
