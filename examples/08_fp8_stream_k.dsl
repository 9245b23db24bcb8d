# fp8 (e4m3) inputs with bf16 output on Hopper's fp8 tensor cores, with the
# fast-accumulation mainloop and the stream-K scheduler, which balances the
# last partial wave of tiles across SMs. fp8 WGMMA needs both operands K-major.
kernel fp8_gemm = gemm(m = 4096, n = 4096, k = 4096)
  .with_types(a = e4m3, b = e4m3, d = bf16)
  .with_layouts(a = row, b = col)
  .with_math(fast_accum)
  .with_tile(128, 128, 128)
  .with_cluster(1, 2, 1)
  .with_schedule(cooperative)
  .with_scheduler(stream_k)
