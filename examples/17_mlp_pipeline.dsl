# A transformer MLP block as one pipeline: y = down(gelu(up(x))), bf16.
#   x [tokens, hidden] -> h = gelu(x W1^T + b1) [tokens, ffn] -> y = h W2^T + b2 [tokens, hidden]
# Each kernel fuses its bias (and up's GELU) into the epilogue, so eager PyTorch's
# separate GELU pass over h (2 x 128 MiB of traffic) disappears. The pipeline's
# host entry places h in its workspace and runs up then down on one stream.
# Tiles: the 128 x 256 cooperative configuration with a 2 x 1 cluster that
# matched torch.matmul on bf16 8192^3 (bench/results/gemm-2026-11-29-141150.json).
kernel up = gemm(m = 4096, n = 16384, k = 4096)      # tokens x ffn x hidden
  .with_types(bf16)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_epilogue(bias(col), gelu)

kernel down = gemm(m = 4096, n = 4096, k = 16384)    # tokens x hidden x ffn
  .with_types(bf16)
  .with_tile(128, 256, 64)
  .with_cluster(2, 1, 1)
  .with_schedule(cooperative, epilogue = tma)
  .with_epilogue(bias(col))

# Weights as nn.Linear keeps them, W [out, in], passed as W.t() (column-major B).
pipeline mlp = inputs(x, w1, b1, w2, b2)
  .up(a = x, b = w1, bias = b1, d = h)
  .down(a = h, b = w2, bias = b2, d = y)
  .outputs(y)
