#pragma once
// The rules of attention kernels (attention_problem.h) and their auto choices.
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Fills every `auto` of an attention kernel (k.is_attention()): f32 in and out (the only types), scale 1 / sqrt(head_dim),
// sm90a, block_q 128, block_k 64 for a 128-wide head and 32 for a 64-wide one (the fastest measured),
// scores bf16x3.
void resolve_attention(GemmKernel& k);

// The rules of the runtime kernel (src/codegen/runtime/attention_kernels.hpp), after resolve_auto.
bool validate_attention(const GemmKernel& k, Diagnostics& diags);

}  // namespace ucutlass::ir
