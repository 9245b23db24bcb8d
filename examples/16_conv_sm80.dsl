# sm80 implicit-GEMM convolutions (CUTLASS 2.x); they run on Hopper too and
# cover what sm90a's conv kernels do not: strided dgrad, tf32 dgrad/wgrad,
# channels that are not 16-byte multiples in 2D.

# Transposed convolution is dgrad: nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1)
# on x [8, 64, 32, 32] is the input gradient of the forward conv
# conv2d(y [8, 32, 64, 64], w [64, 32, 4, 4], stride 2, pad 1), with dy = x
# and w = the ConvTranspose2d weight. The result is [8, 32, 64, 64].
# conv_transpose2d states it in ConvTranspose2d's terms; it is the same kernel as
# conv2d(dgrad, n = 8, h = 64, w = 64, c = 32, k = 64, r = 4, s = 4, pad = 1, stride = 2).
kernel upsample = conv_transpose2d(n = 8, h = 32, w = 32, c = 64, k = 32, r = 4, s = 4, pad = 1, stride = 2)
  .with_arch(sm80)
  .with_types(f16)

# A strided 3x3 layer with 4-channel input: sm80 loads 8-byte vectors where sm90a's TMA needs 16.
kernel downsample = conv2d(fprop, n = 8, h = 224, w = 224, c = 4, k = 64, r = 3, s = 3, pad = 1, stride = 2)
  .with_arch(sm80)
  .with_types(f16)
  .with_epilogue(relu)

# The filter gradient of a 3x3 layer, f32 inputs on TF32 tensor cores.
kernel filter_grad = conv2d(wgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1)
  .with_arch(sm80)
  .with_types(f32)
  .with_math(tf32)

# A 3D convolution with one fused activation (sm80 fuses one element-wise step).
kernel video = conv3d(fprop, n = 2, d = 8, h = 32, w = 32, c = 32, k = 64, t = 3, r = 3, s = 3, pad = 1)
  .with_arch(sm80)
  .with_types(bf16)
  .with_epilogue(silu)
