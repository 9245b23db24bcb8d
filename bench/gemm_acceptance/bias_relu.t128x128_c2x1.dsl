# Acceptance: fused epilogue, relu(x @ W^T + bias) as nn.Linear + ReLU, 1024 x 8192 x 8192, fp32 in/out
# on TF32; bias [N] per output column. Reference: F.relu(F.linear(x, W, bias)) in fp32 eager.
# Pass: relative L2 error <= 1e-3 (TF32 accuracy) and faster than the PyTorch reference.
# Candidate: the configuration measured at 375 TFLOP/s in gpu.md.
kernel bias_relu_t128x128_c2x1 = gemm(m = 1024, n = 8192, k = 8192)
  .with_types(a = f32, b = f32, d = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_math(tf32)
  .with_tile(128, 128, 32)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_epilogue(bias(col), relu)
