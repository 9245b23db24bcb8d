// The linear + sum rewrite: level2/017's graph becomes ones W, (x s^T), squeeze, plus the bias's sum,
// writing the sum's own output; the forms it must not touch stay as traced.
#include "graph/collapse_gemm_sum.h"

#include <gtest/gtest.h>

#include "graph/testing_fixture.h"

namespace ucutlass::graph {
namespace {

std::string ops(const OpGraph& g) {
  std::string s;
  for (const Node& n : g.nodes) s += (s.empty() ? "" : " ") + op_base_name(n.op);
  return s;
}

TEST(CollapseGemmSum, Level2017BecomesAGemvOverTheWeightsColumnSums) {
  OpGraph g = testing::suite_graph("level2_017_gemm_sum_collapses_to_gemv_degenerate");
  const int out = g.outputs.at(0);
  ASSERT_EQ(collapse_gemm_sums(g), 1);
  EXPECT_EQ(ops(g), "ones mm t mm squeeze sum add");
  EXPECT_EQ(g.outputs.at(0), out);
  EXPECT_EQ(g.nodes.back().outputs.at(0), out);
  const Node& column_sums = g.nodes[1];
  EXPECT_EQ(g.tensors[column_sums.outputs[0]].shape, (std::vector<int64_t>{1, 8192}));
  EXPECT_EQ(g.tensors[column_sums.inputs[1]].name, "linear.weight");
  const Node& gemv = g.nodes[3];
  EXPECT_EQ(g.tensors[gemv.inputs[0]].name, "x");
  EXPECT_EQ(g.tensors[gemv.outputs[0]].shape, (std::vector<int64_t>{1024, 1}));
  EXPECT_EQ(g.nodes[0].kwargs.dump(), R"({"device":"cuda","dtype":"float32"})");
  // Both products keep fp32 accuracy whatever the profile (collapse_gemm_sum.h says why).
  EXPECT_EQ(g.fp32_products, (std::set<std::string>{column_sums.id, gemv.id}));
  EXPECT_EQ(collapse_gemm_sums(g), 0);  // nothing left to rewrite
}

TEST(CollapseGemmSum, KeepdimWithoutBiasEndsAtTheProduct) {
  OpGraph g = testing::suite_graph("level2_017_gemm_sum_collapses_to_gemv_degenerate");
  g.nodes[0].args.erase(2);  // linear(x, W): no bias
  g.nodes[1].args.push_back(true);  // keepdim
  const int out = g.outputs.at(0);
  g.tensors[out].shape = {1024, 1};
  ASSERT_EQ(collapse_gemm_sums(g), 1);
  EXPECT_EQ(ops(g), "ones mm t mm");
  EXPECT_EQ(g.nodes.back().outputs.at(0), out);
}

TEST(CollapseGemmSum, OtherSumsAndSharedOutputsStay) {
  {
    OpGraph g = testing::suite_graph("level2_017_gemm_sum_collapses_to_gemv_degenerate");
    g.nodes[1].args[1] = nlohmann::json::array({0});  // over the batch: not a GEMV of x
    EXPECT_EQ(collapse_gemm_sums(g), 0);
  }
  {
    OpGraph g = testing::suite_graph("level2_017_gemm_sum_collapses_to_gemv_degenerate");
    g.outputs.push_back(g.nodes[0].outputs[0]);  // the linear's output is wanted too
    EXPECT_EQ(collapse_gemm_sums(g), 0);
  }
  {
    OpGraph g = testing::suite_graph("level2_001_gemm_bias_relu");
    EXPECT_EQ(collapse_gemm_sums(g), 0);
  }
}

}  // namespace
}  // namespace ucutlass::graph
