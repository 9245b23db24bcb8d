# Depthwise convolutions (groups = c = k) on sm80: CUTLASS's direct convolution
# (DefaultDepthwiseDirect2dConvFprop + DirectConvolution), which runs on CUDA
# cores. sm90a has no depthwise kernel in CUTLASS 4.2 (its convs take groups = 1).
#
# with_tile(M, N, K) means M output pixels per CTA tile (a power of two: 64 is
# 8x8), N channels per CTA (16, 32, 64 or 128) and K = r * s filter taps;
# with_warps(M, 1, 1) splits the output tile over warps. Each launch first
# reorders the filter to [r * s, k] (a CUTLASS kernel) into the kernel's
# workspace (k * r * s elements).

# problems/level1/022: nn.Conv2d(512, 512, 3, padding=1, groups=512, bias=False)
# on x [32, 512, 64, 64], f32. Auto: 8x8 pixels x 64 channels per CTA, 4 warps,
# 3 stages. A bias per channel fuses as on every sm80 kernel: read as C with
# every stride 0 but the channel's, added with beta = 1 (so C itself is not read).
kernel depthwise = conv2d(fprop, n = 32, h = 64, w = 64, c = 512, k = 512, r = 3, s = 3, pad = 1, groups = 512)
  .with_arch(sm80)
  .with_types(f32)
  .with_epilogue(bias(col))

# A MobileNet-style strided depthwise layer, f16, any batch size, with ReLU:
# 4x8 pixels x 32 channels per CTA on 2 warps.
kernel depthwise_strided = conv2d(fprop, n = dynamic, h = 112, w = 112, c = 96, k = 96, r = 3, s = 3, pad = 1,
                                  stride = 2, groups = 96)
  .with_arch(sm80)
  .with_types(f16)
  .with_tile(32, 32, 9)
  .with_warps(2, 1, 1)
  .with_epilogue(relu)
