# Near-f32 accuracy on tensor cores: 3xTF32 splits each f32 operand into a
# TF32 "big" part and a TF32 "small" remainder and sums three products, so it
# passes a 1e-4 tolerance where plain TF32 fails, at about a third of TF32
# speed (still faster than f32 SIMT). CUTLASS 4.2 has this mainloop for SM80;
# built as compute_80 PTX it runs on Hopper too.
kernel linear_3xtf32 = gemm(m = 1024, n = 8192, k = 8192)
  .with_arch(sm80)
  .with_types(f32)
  .with_math(tf32x3)
  .with_tile(128, 128, 16)
  .with_warps(2, 2, 1)
  .with_stages(4)
