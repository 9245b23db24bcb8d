#pragma once
// Attention kernels: O = softmax(scale · Q K^T, masked keys at -inf) V per batch entry, fused (the
// scores never reach memory), with Q [batch, seq_q, head_dim], K and V [batch, seq_k, head_dim] and O
// like Q, f32 in memory:
//
//   attention(batch = B, seq_q = Lq, seq_k = Lk, head_dim = D, scale = 0.125, mask = none | causal | tensor)
//     .with_types(a = f32, d = f32)
//     .with_attention(block_q = 64, block_k = 64, scores = bf16x3)
//
// They run our kernel (src/codegen/runtime/attention_kernels.hpp), FlashAttention-2's scheme: a CTA
// keeps a block of queries, walks the keys block by block with an online softmax, and multiplies on
// bf16 tensor cores (mma.sync m16n8k16, f32 accumulation): Q, K and V are rounded to bf16 in shared
// memory, so the kernel is legal only under a tolerance that allows bf16 operands (the optimizer
// offers it under kernelbench-v0.1, 1e-2). A `tensor` mask is a bool [seq_q, seq_k] shared by every
// batch entry (masked_fill semantics); key blocks masked for the whole query block are skipped.
//
//   block_q  queries per CTA: 64 or 128 (16 per warp)
//   block_k  keys per step: 32 or 64
//   scores   bf16 (one bf16 product) or bf16x3 (three: Q and K split into bf16 high and low parts,
//            scores to about fp32 accuracy for three times the S products); auto bf16x3, the one whose
//            error does not grow with the scores' size
#include <cstdint>

#include "ir/setting.h"
#include "ir/types.h"
#include "support/source_file.h"

namespace ucutlass::ir {

struct AttentionProblem {
  int64_t batch = 0, seq_q = 0, seq_k = 0, head_dim = 0;
  Span batch_span, seq_q_span, seq_k_span, head_dim_span;
  double scale = 0;  // 0 until given: 1 / sqrt(head_dim), as PyTorch's default
  Span scale_span;
  AttentionMask mask = AttentionMask::none;
  Span mask_span;
};

struct AttentionLevers {
  Setting<int> block_q{0}, block_k{0};
  Setting<AttentionScores> scores{AttentionScores::bf16x3};
};

}  // namespace ucutlass::ir
