# Strided batched GEMM: 128 independent 512x1024x2048 products in one launch
# (torch.bmm). Batch strides default to packed tensors; the host entry takes
# others at run time.
kernel bmm = gemm(m = 512, n = 1024, k = 2048, batch = 128)
  .with_types(bf16)
  .with_layouts(a = row, b = col)
  .with_tile(128, 128, 64)
