# Row kernels: softmax, norms and row reductions over a contiguous [rows, length]
# tensor, one value or one row out per row. They are bound by memory: PyTorch reads a
# logsumexp's input three times and a group norm's twice, while one read of x and one
# write of y is the floor. Each CTA keeps its chunk of a row in registers, computes the
# statistics from them (max, then the sum of exp(x - max); mean, then the sum of
# squared deviations) and writes the output from the same registers. CUTLASS has no
# such kernels; these run ucutlass's own (src/codegen/runtime/row_kernels.hpp), which
# the emitter copies into the generated header.
#
# with_rows(access, threads, items, splits): elements per vector load (up to 16 bytes),
# threads per CTA (128 to 1024), loads each thread keeps in registers (access x items
# <= 64 values), CTAs per row (a second launch combines their statistics). A chunk of
# ceil(length / splits) elements must fit threads x access x items. Every lever may be
# auto; the operations are softmax, log_softmax, logsumexp, layernorm, groupnorm,
# reduce_sum, reduce_mean, reduce_max and argmax.

# problems/level1/028: torch.softmax(x, dim=1) over x [16384, 16384] f32. Auto: 16-byte
# loads, 512 threads, 8 loads each: a whole row per CTA.
kernel softmax_rows = softmax(rows = 16384, length = 16384)
  .with_types(f32)

# problems/level1/029: 64 rows of 2^20. A CTA holds 512 x 4 x 16 = 32768 elements, so
# each row is cut into 32 chunks (2048 CTAs); the second launch rereads each chunk.
kernel softmax_long = softmax(rows = 64, length = 1048576)
  .with_types(f32)

# problems/level1/030: torch.logsumexp(x, dim=1): one f32 per row.
kernel logsumexp_rows = logsumexp(rows = 16384, length = 16384)
  .with_types(f32)

# problems/level1/031: F.layer_norm(x, (8192,)) without weight and bias.
kernel layer_norm = layernorm(rows = 16384, length = 8192, eps = 1e-5, affine = off)
  .with_types(f32)

# problems/level1/035: nn.GroupNorm(32, 256) over x [32, 256, 64, 64]: row r is group
# r % 32 of sample r / 32, 8 channels of 64 x 64; the weight and bias are per channel.
kernel group_norm = groupnorm(rows = 1024, length = 32768, groups = 32, channel_span = 4096, eps = 1e-5,
                              affine = on)
  .with_types(f32)

# problems/level1/033 and 034: torch.sum(x, dim=1) and torch.argmax(x, dim=1) (int64).
kernel row_sum = reduce_sum(rows = 16384, length = 16384)
  .with_types(f32)
kernel row_argmax = argmax(rows = 16384, length = 16384)
  .with_types(f32)

# A bf16 layer norm with an affine, written in f32, every lever spelled out.
kernel layer_norm_bf16 = layernorm(rows = 4096, length = 4096, eps = 1e-6, affine = on)
  .with_arch(sm90a)
  .with_types(a = bf16, d = f32)
  .with_rows(access = 8, threads = 256, items = 2, splits = 1)
