# Matrix-vector products y = A x: CUTLASS's SIMT Gemv (cutlass/gemm/kernel/gemv.h),
# f32 multiply-adds on CUDA cores with f32 accumulation. A GEMV reads every element
# of A once and does two flops with it, so it is bound by memory bandwidth, not by
# math: a tiled GEMM with N = 1 wastes its tiles. gemv(m, k) is the GEMM with n = 1
# whose B is the vector x [K] (the bindings take it as [K, 1]) and whose A is
# row-major; it is built for sm80 and runs on Hopper from compute_80 PTX.
#
# with_gemv(access, threads_per_row, threads): elements of A per load (4 f32 = 16
# bytes), the lanes that share one row of A (they add their partial sums with warp
# shuffles) and the threads per CTA. Every lever may be auto.

# problems/level1/016: A [4096, 32768] f32 times x [32768, 1]. Auto: 8-element (32-byte)
# loads, a whole warp per row, 256 threads (8 rows) per CTA.
kernel gemv_f32 = gemv(m = 4096, k = 32768)
  .with_types(f32)

# A batch of bf16 matrix-vector products with y = 2 * A x + c, 16-byte loads,
# 16 lanes per row (a warp covers 2 rows), 128 threads per CTA.
kernel gemv_batched = gemv(m = 2048, k = 4096, batch = 8)
  .with_arch(sm80)
  .with_types(a = bf16, b = bf16, c = f32, d = f32)
  .with_gemv(access = 8, threads_per_row = 16, threads = 128)
  .with_epilogue(alpha(2.0), beta(1.0))
