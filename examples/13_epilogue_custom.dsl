# custom("expression", inputs...) computes any element-wise formula over
#   x    the value after the steps before it (alpha * A*B + beta * C at first)
#   acc  the raw accumulator A*B,   c  the source C (read when the formula uses it)
# and named inputs: scalar (f32 device scalar), row ([M]), col ([N]), aux ([M, N]),
# each optionally typed: col(f32). Functions: relu gelu gelu_tanh silu sigmoid tanh
# mish hardswish hardsigmoid elu selu softplus exp log abs sqrt rsqrt erf
# min max leaky_relu clamp; operators + - * / and unary minus.
# Here: a gated activation with a residual read as an aux tensor, batched, with a
# column-major output, and an aux tensor read by add(aux).
kernel gated = gemm(m = 512, n = 1024, k = 256, batch = 2)
  .with_types(bf16)
  .with_layouts(c = col)
  .with_epilogue(
    custom("gelu(x) * sigmoid(gate) + 0.1 * c", gate = aux),
    custom("relu(acc * s + shift) - min(x, g) / 2", s = scalar, shift = row(f32), g = col),
    add(aux), aux_load(f32), max(aux(f32)))
