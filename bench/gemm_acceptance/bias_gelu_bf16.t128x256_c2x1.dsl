# Acceptance (issue 5): a fused bf16 GEMM + bias + GELU faster than PyTorch's matmul followed by its
# element-wise ops. gelu(x @ W^T + b), x [4096, 4096], W [16384, 4096] (nn.Linear's weight, B column-major),
# bias [16384] per output column, bf16 in and out, f32 accumulation. Reference: F.gelu(torch.addmm(b, x, W.t())).
# Candidate: the tile of the 791 TFLOP/s bf16 8192^3 kernel (gpu.md).
kernel bias_gelu_bf16_t128x256_c2x1 = gemm(m = 4096, n = 16384, k = 4096)
  .with_types(a = bf16, b = bf16, d = bf16)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_epilogue(bias(col), gelu)
