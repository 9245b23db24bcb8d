// Attention kernels (attention(batch, seq_q, seq_k, head_dim, ...)): lowering, auto choices and the exact
// diagnostics `check` gives, as "LINE:COL: message", before any nvcc run.
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/canonical.h"
#include "ir/testing_legality.h"

namespace ucutlass {
namespace {

using Row = ir_testing::LegalityRow;
using ir_testing::located_messages;

class AttentionLegality : public ::testing::TestWithParam<Row> {};

TEST_P(AttentionLegality, ExactDiagnostics) {
  const Row& row = GetParam();
  EXPECT_EQ(located_messages(row.program), row.messages) << row.program;
}

#define ATTN "kernel a = attention(batch = 128, seq_q = 2048, seq_k = 2048, head_dim = 64, mask = tensor).with_types(f32)"

INSTANTIATE_TEST_SUITE_P(
    Rules, AttentionLegality,
    ::testing::Values(
        Row{"level3_004", ATTN, {}},
        Row{"every_lever", ATTN ".with_arch(sm90a).with_attention(block_q = 128, block_k = 32, scores = bf16)", {}},
        Row{"split_scores", ATTN ".with_attention(scores = bf16x3)", {}},
        Row{"scores_word", ATTN ".with_attention(scores = tf32)", {"1:133: unknown attention scores 'tf32'"}},
        Row{"causal_sm80", "kernel a = attention(batch = 1, seq_q = 77, seq_k = 1000, head_dim = 128, scale = 0.5, "
                           "mask = causal).with_arch(sm80)",
            {}},
        Row{"missing_head_dim", "kernel a = attention(batch = 1, seq_q = 8, seq_k = 8)",
            {"1:12: attention needs head_dim = ... (fixed)"}},
        Row{"head_dim_96", "kernel a = attention(batch = 1, seq_q = 8, seq_k = 8, head_dim = 96)",
            {"1:66: head_dim = 96 is not a head size the attention kernel is built for"}},
        Row{"mask_word", "kernel a = attention(batch = 1, seq_q = 8, seq_k = 8, head_dim = 64, mask = upper)",
            {"1:77: unknown attention mask 'upper'"}},
        Row{"negative_scale", "kernel a = attention(batch = 1, seq_q = 8, seq_k = 8, head_dim = 64, scale = -1.0)",
            {"1:78: scale must be a positive number"}},
        Row{"bf16_inputs", "kernel a = attention(batch = 1, seq_q = 8, seq_k = 8, head_dim = 64).with_types(bf16)",
            {"1:81: attention kernels read f32 Q, K and V, not bf16", "1:81: attention kernels write f32, not bf16"}},
        Row{"block_q_32", ATTN ".with_attention(block_q = 32)",
            {"1:134: block_q = 32 is not a query block the kernel is built for"}},
        Row{"block_k_128", ATTN ".with_attention(block_k = 128)",
            {"1:134: block_k = 128 is not a key block the kernel is built for"}},
        Row{"tile", ATTN ".with_tile(128, 128, 32)",
            {"1:109: with_tile does not apply to an attention kernel (its two products and softmax are fixed)"}},
        Row{"epilogue", ATTN ".with_epilogue(relu)", {"1:123: attention kernels have no epilogue"}},
        Row{"with_attention_on_gemm", "kernel g = gemm(m = 64, n = 64, k = 64).with_attention(block_q = 64)",
            {"1:41: with_attention applies to attention kernels only"}}),
    [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

// Auto: the scale PyTorch uses, the fastest blocks, and split scores (their error does not grow with
// the scores' size).
TEST(Attention, AutoScaleIsOneOverRootHeadDim) {
  FrontendResult r = run_frontend("t.dsl", "kernel a = attention(batch = 512, seq_q = 1024, seq_k = 1024, head_dim = 128)");
  ASSERT_TRUE(r.ok) << r.diags->render();
  EXPECT_EQ(ir::canonical_text(r.program.kernels[0]),
            "kernel a = attention(batch=512,seq_q=1024,seq_k=1024,head_dim=128)\n"
            "  scale=0.088388347648318433\n  mask=none\n  arch=sm90a\n  types=f32,f32\n"
            "  attention=block_q=128,block_k=64,scores=bf16x3\n");
}

}  // namespace
}  // namespace ucutlass
