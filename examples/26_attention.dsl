# Fused attention: O = softmax(scale · Q K^T, masked keys at -inf) V for every batch entry, with the
# scores never written to memory (FlashAttention-2's scheme: a CTA keeps a block of queries and walks
# the keys block by block with an online softmax). Q, K and V are f32 in memory and rounded to bf16 on
# their way to the tensor cores (mma.sync, f32 accumulation), so the kernel is for tolerances of 1e-2
# (kernelbench-v0.1); CUTLASS 4.2 has no such kernel in its library, this is ucutlass's own
# (src/codegen/runtime/attention_kernels.hpp), copied into the generated header.
#
# attention(batch, seq_q, seq_k, head_dim, scale, mask): batch is B x heads; head_dim 64 or 128; scale
# defaults to 1 / sqrt(head_dim); mask none, causal, or tensor (a bool [seq_q, seq_k] shared by the batch,
# nonzero = masked; key blocks masked for a whole query block are skipped).
# with_attention(block_q, block_k): queries per CTA (64 or 128) and keys per step (32 or 64).

# problems/level3/003: F.scaled_dot_product_attention over [16, 32, 1024, 128].
kernel sdpa = attention(batch = 512, seq_q = 1024, seq_k = 1024, head_dim = 128)
  .with_types(f32)

# problems/level3/004: matmul(q, k^T) / 8, masked_fill(triu mask, -inf), softmax, matmul(., v) over
# [8, 16, 2048, 64]; the registered mask buffer is the kernel's mask tensor.
kernel causal_explicit = attention(batch = 128, seq_q = 2048, seq_k = 2048, head_dim = 64, scale = 0.125,
                                   mask = tensor)
  .with_types(f32)
  .with_attention(block_q = 128, block_k = 64)
