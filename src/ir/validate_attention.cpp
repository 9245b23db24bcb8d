#include "ir/validate_attention.h"

#include <cmath>
#include <string>

#include "ir/gemm_settings_check.h"

namespace ucutlass::ir {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

const char* kAttentionSettings =
    "attention kernels take with_arch(sm90a | sm80), with_types(a = f32, d = f32) and "
    "with_attention(block_q, block_k, scores)";

}  // namespace

void resolve_attention(GemmKernel& k) {
  choose(k.a, DType::f32);  // the only input type the kernel reads
  if (k.b.is_auto) k.b.value = k.a.value;
  if (k.d.is_auto) k.d.value = k.a.value;
  if (k.c.is_auto) k.c.value = DType::void_;
  choose(k.acc, DType::f32);
  choose(k.arch, Arch::sm90a);
  AttentionProblem& a = *k.attention;
  if (a.scale == 0 && a.head_dim > 0) a.scale = 1.0 / std::sqrt(static_cast<double>(a.head_dim));
  // The fastest of the runtime test's instantiations on the H200 (2026-12-01, bench/results/
  // attention-2026-12-01-call4.json): block_q 128 for both heads (D 128: 1.77 ms against 2.33 at 64;
  // D 64 causal: 0.70 against 0.77), block_k 64 for D 128 and 32 for D 64.
  choose(k.attention_levers.block_q, 128);
  choose(k.attention_levers.block_k, a.head_dim == 64 ? 32 : 64);
  // Split scores unless asked otherwise: their error does not grow with the scores' size, and bf16
  // scores of unnormalized inputs missed 1e-2 (attention_problem.h).
  choose(k.attention_levers.scores, AttentionScores::bf16x3);
}

bool validate_attention(const GemmKernel& k, Diagnostics& d) {
  const size_t before = d.error_count();
  const AttentionProblem& a = *k.attention;
  reject_gemm_settings(k, d, "an attention kernel (its two products and softmax are fixed)", kAttentionSettings,
                       "the attention kernel's levers are with_attention(block_q, block_k, scores)");
  for (const EpilogueStep& s : k.epilogue)
    d.error(s.span, "attention kernels have no epilogue", kAttentionSettings, "apply element-wise steps after the kernel");
  if (!k.alpha.is_auto || !k.beta.is_auto)
    d.error(k.alpha.is_auto ? k.beta.span : k.alpha.span, "attention kernels have no alpha or beta; the scale is scale = ...",
            kAttentionSettings);
  if (a.head_dim != 64 && a.head_dim != 128)
    d.error(a.head_dim_span, "head_dim = " + str(a.head_dim) + " is not a head size the attention kernel is built for",
            "head_dim = 64 or 128");
  if (!(a.scale > 0) || !std::isfinite(a.scale))
    d.error(a.scale_span, "scale must be a positive number", "a number such as 0.125 (1 / sqrt(head_dim), the default)");
  // The kernel reads f32 and rounds to bf16 on its way to the tensor cores.
  if (k.a.value != DType::f32)
    d.error(k.a.span, "attention kernels read f32 Q, K and V, not " + std::string(name_of(k.a.value)),
            "with_types(a = f32, d = f32)");
  if (k.d.value != DType::f32)
    d.error(k.d.span, "attention kernels write f32, not " + std::string(name_of(k.d.value)), "with_types(a = f32, d = f32)");
  if (!k.c.is_auto && k.c.value != DType::void_)
    d.error(k.c.span, "attention kernels read Q, K and V; c does not apply", "with_types(a = f32, d = f32)");
  if (k.acc.value != DType::f32)
    d.error(k.acc.span, "attention kernels accumulate in f32, not " + std::string(name_of(k.acc.value)), "acc = f32");
  const AttentionLevers& l = k.attention_levers;
  if (l.block_q.value != 64 && l.block_q.value != 128)
    d.error(l.block_q.span, "block_q = " + str(l.block_q.value) + " is not a query block the kernel is built for",
            "64 or 128 (16 queries per warp)");
  if (l.block_k.value != 32 && l.block_k.value != 64)
    d.error(l.block_k.span, "block_k = " + str(l.block_k.value) + " is not a key block the kernel is built for", "32 or 64");
  return d.error_count() == before;
}

}  // namespace ucutlass::ir
