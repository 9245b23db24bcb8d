# nn.Linear + ReLU fused: D = relu(x * W^T + bias), one kernel, the
# intermediate never reaches memory. bias(col) is one value per output column
# (length N), which is nn.Linear's bias (CUTLASS calls it "per-column").
kernel linear_relu = gemm(m = 1024, n = 8192, k = 8192)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_epilogue(bias(col), relu)
