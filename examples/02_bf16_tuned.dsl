# The same GEMM with the levers spelled out. A 128x256 tile with a 2x1
# cluster (TMA multicast of B across the pair) and the cooperative schedule
# (two consumer warp groups share the tile) is a strong choice for large
# square bf16 problems on an H100/H200.
kernel gemm_bf16_tuned = gemm(m = 8192, n = 8192, k = 8192)
  .with_arch(sm90a)
  .with_types(a = bf16, b = bf16, d = bf16, acc = f32)
  .with_layouts(a = row, b = col, c = row)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_stages(auto)              # as many as shared memory allows
  .with_raster(along_n, swizzle = 2)
