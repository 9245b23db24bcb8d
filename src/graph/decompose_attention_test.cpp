#include "graph/decompose_attention.h"

#include <gtest/gtest.h>

#include <cmath>

#include "graph/graph_reader.h"
#include "map/gemm_match.h"

namespace ucutlass::graph {
namespace {

OpGraph sdpa_fixture() {
  OpGraph g;
  std::string err;
  EXPECT_TRUE(load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/level3_003_attention_sdpa.json", &g, &err))
      << err;
  return g;
}

TEST(DecomposeAttention, PlainAttentionBecomesTwoMatmulsAroundASoftmax) {
  OpGraph g = sdpa_fixture();
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_TRUE(map::match_gemms(g).gemms.empty());  // one opaque node: nothing to map
  const std::string out = g.tensors[g.outputs[0]].id;
  ASSERT_EQ(decompose_attention(g), 1);
  std::vector<std::string> ops;
  for (const Node& n : g.nodes) ops.push_back(n.op);
  EXPECT_EQ(ops, (std::vector<std::string>{"aten.transpose.int", "aten.matmul.default", "aten.mul.Tensor", "aten.softmax.int",
                                           "aten.matmul.default"}));
  // The last product writes the graph's own output; the scale is 1/sqrt(head_dim = 128).
  EXPECT_EQ(g.tensors[g.nodes.back().outputs[0]].id, out);
  EXPECT_DOUBLE_EQ(g.nodes[2].args[1].get<double>(), 1.0 / std::sqrt(128.0));
  EXPECT_EQ(g.tensors[g.nodes[1].outputs[0]].shape, (std::vector<int64_t>{16, 32, 1024, 1024}));
  // K^T is a view: K's strides swapped.
  EXPECT_EQ(g.tensors[g.nodes[0].outputs[0]].stride, (std::vector<int64_t>{4194304, 131072, 1, 128}));

  const map::MatchReport r = map::match_gemms(g);
  ASSERT_EQ(r.gemms.size(), 2u);
  EXPECT_EQ(r.gemms[0].batch, 512);
  EXPECT_EQ(r.gemms[0].m, 1024);
  EXPECT_EQ(r.gemms[0].n, 1024);
  EXPECT_EQ(r.gemms[0].k, 128);
  ASSERT_EQ(r.gemms[0].chain.size(), 1u);  // the scale, fused
  EXPECT_EQ(r.gemms[1].k, 1024);
  EXPECT_EQ(r.gemms[1].n, 128);
}

TEST(DecomposeAttention, MaskedCausalOrDropoutAttentionIsLeftAlone) {
  for (const char* extra : {"is_causal", "dropout_p", "attn_mask", "enable_gqa"}) {
    OpGraph g = sdpa_fixture();
    Node& n = g.nodes[0];
    if (std::string(extra) == "attn_mask")
      n.kwargs[extra] = nlohmann::json{{"tensor", g.tensors[g.inputs[0]].id}};
    else if (std::string(extra) == "dropout_p")
      n.kwargs[extra] = 0.1;
    else
      n.kwargs[extra] = true;
    EXPECT_EQ(decompose_attention(g), 0) << extra;
    EXPECT_EQ(g.nodes.size(), 1u) << extra;
  }
  OpGraph g = sdpa_fixture();
  g.nodes[0].kwargs["scale"] = 0.5;  // a given scale is kept
  ASSERT_EQ(decompose_attention(g), 1);
  EXPECT_EQ(g.nodes[2].args[1].get<double>(), 0.5);
}

TEST(DecomposeAttention, OnlyWhereTheProblemHasNoOtherGemm) {
  OpGraph alone = sdpa_fixture();
  EXPECT_EQ(map::match_gemms_or_attention(alone).gemms.size(), 2u);
  // The transformer block's projections map already: its attention stays PyTorch's fused one.
  OpGraph block;
  std::string err;
  ASSERT_TRUE(load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/level3_005_transformer_block.json",
                                 &block, &err))
      << err;
  const size_t nodes = block.nodes.size();
  EXPECT_EQ(map::match_gemms_or_attention(block).gemms.size(), 4u);
  EXPECT_EQ(block.nodes.size(), nodes);
}

}  // namespace
}  // namespace ucutlass::graph
