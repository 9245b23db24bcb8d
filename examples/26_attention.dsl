# Fused attention: O = softmax(scale · Q K^T, masked keys at -inf) V for every batch entry, with the
# scores never written to memory (FlashAttention-2's scheme: a CTA keeps a block of queries and walks
# the keys block by block with an online softmax). Q, K and V are f32 in memory and go to the tensor
# cores as bf16 (mma.sync, f32 accumulation), so the kernel is for tolerances of 1e-2 (kernelbench-v0.1);
# CUTLASS 4.2 has no such kernel in its library, this is ucutlass's own
# (src/codegen/runtime/attention_kernels.hpp), copied into the generated header.
#
# attention(batch, seq_q, seq_k, head_dim, scale, mask): batch is B x heads; head_dim 64 or 128; scale
# defaults to 1 / sqrt(head_dim); mask none, causal, or tensor (a bool [seq_q, seq_k] shared by the batch,
# nonzero = masked; key blocks masked for a whole query block are skipped).
# with_attention(block_q, block_k, scores): queries per CTA (64 or 128), keys per step (32 or 64), and
# the scores S = Q K^T as one bf16 product (bf16) or three (bf16x3, the default: Q and K split into a
# bf16 part and the bf16 rounding of the remainder, about fp32-accurate scores). bf16 scores move with
# the scores' size: on unnormalized inputs (scores of tens) their error reaches the softmax's weights.

# problems/level3/003: F.scaled_dot_product_attention over [16, 32, 1024, 128]; auto levers (split scores).
kernel sdpa = attention(batch = 512, seq_q = 1024, seq_k = 1024, head_dim = 128)
  .with_types(f32)

# problems/level3/004: matmul(q, k^T) / 8, masked_fill(triu mask, -inf), softmax, matmul(., v) over
# [8, 16, 2048, 64]; the registered mask buffer is the kernel's mask tensor. Split scores, as the
# optimizer searches where q and k are the problem's inputs.
kernel causal_explicit = attention(batch = 128, seq_q = 2048, seq_k = 2048, head_dim = 64, scale = 0.125,
                                   mask = tensor)
  .with_types(f32)
  .with_attention(block_q = 128, block_k = 32, scores = bf16x3)

# The same with one bf16 product for the scores: fewer products, for q and k of modest size (behind a
# normalization, as in level3/005's transformer block).
kernel causal_explicit_bf16 = attention(batch = 128, seq_q = 2048, seq_k = 2048, head_dim = 64, scale = 0.125,
                                        mask = tensor)
  .with_types(f32)
  .with_attention(block_q = 128, block_k = 32, scores = bf16)
