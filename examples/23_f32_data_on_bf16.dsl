# f32 data on bf16 tensor cores: the caller rounds A and B to bf16 (or, for
# near-f32 accuracy, splits each into bf16 high and low parts stacked along K:
# 3xBF16, k = 3K), the kernel accumulates in f32 and writes f32. One rounding
# leaves a relative error near 4e-3 per product: enough for 1e-2 where a
# weight keeps outputs small, not where two N(0, 1) inputs meet over a long K
# (use the split there). Its binding carries `bf16_stack3`, the split.
kernel gemm_bf16_f32 = gemm(m = 4096, n = 4096, k = 12288)
  .with_types(a = bf16, b = bf16, c = void, d = f32, acc = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative)
