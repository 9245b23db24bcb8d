// Attention anchors found in the suite's traced graphs (tests/optimize/graphs), and what the optimizer
// maps in those problems when the tolerance allows the attention kernel.
#include "map/attention_match.h"

#include <gtest/gtest.h>

#include <cmath>

#include "graph/graph_reader.h"
#include "graph/testing_fixture.h"
#include "map/row_match.h"

namespace ucutlass::map {
namespace {

graph::OpGraph fixture(const std::string& name) { return graph::testing::suite_graph(name); }

// q and k as if a projection in the model had computed them (attention over the problem's own inputs
// is marked for split scores only: attention_match.cpp says why).
graph::OpGraph projected(const std::string& name) {
  graph::OpGraph g = fixture(name);
  for (graph::Tensor& t : g.tensors)
    if (t.role == graph::TensorRole::input) t.role = graph::TensorRole::intermediate;
  return g;
}

TEST(AttentionMatch, SdpaAndTheExplicitMaskedForm) {
  const MatchReport sdpa = match_attention(projected("level3_003_attention_sdpa"));
  ASSERT_EQ(sdpa.gemms.size(), 1u);
  EXPECT_EQ(describe(sdpa.gemms[0]),
            "attn0 aten.scaled_dot_product_attention.default attention batch=512 seq_q=1024 seq_k=1024 head_dim=128 nodes=1");
  EXPECT_DOUBLE_EQ(sdpa.gemms[0].attention->scale, 1.0 / std::sqrt(128.0));
  // level3/004: matmul(q, k^T) / 8 -> masked_fill(mask, -inf) -> softmax -> matmul(., v): six nodes, the
  // registered bool buffer as the mask.
  const graph::OpGraph g = projected("level3_004_attention_causal_explicit");
  const MatchReport explicit_form = match_attention(g);
  ASSERT_EQ(explicit_form.gemms.size(), 1u);
  const AttentionSpec& a = *explicit_form.gemms[0].attention;
  EXPECT_EQ(describe(explicit_form.gemms[0]),
            "attn0 aten.matmul.default attention batch=128 seq_q=2048 seq_k=2048 head_dim=64 mask=tensor nodes=6");
  EXPECT_DOUBLE_EQ(a.scale, 0.125);
  EXPECT_EQ(g.tensors[a.mask].name, "mask");
  EXPECT_EQ(g.tensors[a.v].name, "v");
}

TEST(AttentionMatch, AttentionOverTheProblemsInputsIsMarkedForSplitScores) {
  const MatchReport r = match_attention(fixture("level3_004_attention_causal_explicit"));
  ASSERT_EQ(r.gemms.size(), 1u);
  EXPECT_TRUE(r.gemms[0].attention->scores_from_inputs);
  EXPECT_TRUE(r.notes.empty());
  const MatchReport sdpa = match_attention(fixture("level3_003_attention_sdpa"));
  ASSERT_EQ(sdpa.gemms.size(), 1u);
  EXPECT_TRUE(sdpa.gemms[0].attention->scores_from_inputs);
  EXPECT_FALSE(match_attention(projected("level3_004_attention_causal_explicit")).gemms[0].attention->scores_from_inputs);
}

TEST(AttentionMatch, TheOptimizerFusesAttentionOnlyWhereBf16IsAllowed) {
  graph::OpGraph explicit_form = projected("level3_004_attention_causal_explicit");
  EXPECT_EQ(match_problem(explicit_form, true).gemms.size(), 1u);  // the two matmuls are inside it
  graph::OpGraph unfused = projected("level3_004_attention_causal_explicit");
  EXPECT_EQ(match_problem(unfused, false).gemms.size(), 3u);  // the two matmuls and a row softmax between them
  graph::OpGraph inputs = fixture("level3_004_attention_causal_explicit");
  EXPECT_EQ(match_problem(inputs, true).gemms.size(), 1u);
  // level3/005: its sdpa (over projected q, k, v) beside the four linears (QKV, out, fc1, fc2).
  graph::OpGraph block = fixture("level3_005_transformer_block");
  const MatchReport r = match_problem(block, true);
  ASSERT_EQ(r.gemms.size(), 5u);
  EXPECT_TRUE(r.gemms[0].attention.has_value());
  EXPECT_FALSE(r.gemms[0].attention->scores_from_inputs);
}

TEST(AttentionMatch, AScoreReadTwiceIsNotFused) {
  graph::OpGraph g = projected("level3_004_attention_causal_explicit");
  // The scores also become an output: the kernel, which never stores them, cannot replace them.
  const int scores = g.nodes[1].outputs[0];
  g.outputs.push_back(scores);
  graph::Node extra;
  extra.id = "n_extra";
  extra.op = "aten.relu.default";
  extra.inputs = {scores};
  extra.args = nlohmann::json::array({nlohmann::json{{"tensor", g.tensors[scores].id}}});
  g.nodes.push_back(extra);
  EXPECT_TRUE(match_attention(g).gemms.empty());
}

}  // namespace
}  // namespace ucutlass::map
