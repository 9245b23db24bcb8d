# The CUTLASS 2.x path (sm80): a multistage cp.async mainloop with mma.sync,
# for Ampere, and a fallback on Hopper for what sm90a cannot express. The warp
# grid splits the 128x128 tile into four 64x64 warp tiles.
kernel gemm_sm80 = gemm(m = 4096, n = 4096, k = 4096)
  .with_arch(sm80)
  .with_types(bf16)
  .with_tile(128, 128, 32)
  .with_warps(2, 2, 1)
  .with_stages(4)
  .with_epilogue(relu)
