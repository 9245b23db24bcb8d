# A 3x3 convolution layer, nn.Conv2d(64, 128, 3, padding=1) + ReLU, on sm90a.
# A convolution is an implicit GEMM (M = N*P*Q output pixels, N = K output
# channels, K = R*S*C filter taps x input channels), so it takes the GEMM's
# settings: types, tile, cluster, stages and a fused epilogue. sm90a loads
# through TMA im2col: channels must be multiples of 8 (16-bit types).
# Schedules: CUTLASS 4.2's non-persistent 'warpspecialized' kernel (tile M 64 or
# 128, any pass), and ucutlass's persistent kernel (fprop, 1x1x1 cluster), which
# overlaps a tile's epilogue with other work: 'cooperative' (two warp groups split
# a tile, M 128 or 256) or 'pingpong' (they take turns, M 64 or 128). On the H200
# this layer ran 0.91-0.98 ms on pingpong 128x128, 1.13-1.20 ms on cooperative
# 256x128 and 1.34-1.50 ms on the best non-persistent tile; cuDNN 1.11 ms
# (bench/results/conv-2026-11-30-105331.json and -105448.json).
# bias(col) is one value per output channel, like nn.Conv2d's bias.
# The torch binding takes NCHW tensors (channels_last ones without a copy).
kernel conv3x3_bias_relu = conv2d(fprop, n = 8, h = 512, w = 1024, c = 64, k = 128, r = 3, s = 3, pad = 1)
  .with_types(bf16)
  .with_schedule(cooperative)
  .with_tile(256, 128, 64)
  .with_epilogue(bias(col), relu)

# The same layer on f32 tensors (TF32 math) with a residual read through C, on the
# persistent kernel's ping-pong schedule: the two consumer warp groups take
# alternate tiles (tile M 64 or 128), one's epilogue beside the other's MMAs.
kernel conv3x3_residual_tf32 = conv2d(fprop, n = 8, h = 512, w = 1024, c = 64, k = 128, r = 3, s = 3, pad = 1)
  .with_types(f32)
  .with_schedule(pingpong)
  .with_tile(128, 128, 32)
  .with_epilogue(beta(1.0), relu)
