// Row anchors found in the suite's traced graphs (tests/optimize/graphs), and what stays in PyTorch.
#include "map/row_match.h"

#include <gtest/gtest.h>

#include "graph/graph_reader.h"
#include "graph/testing_fixture.h"

namespace ucutlass::map {
namespace {

graph::OpGraph fixture(const std::string& name) { return graph::testing::suite_graph(name); }

struct Case {
  const char* graph;
  const char* description;  // describe() of the one match
};

TEST(RowMatch, EveryRowProblemOfTheSuite) {
  const Case cases[] = {
      {"level1_028_softmax_rows", "row0 aten.softmax.int softmax rows=16384 length=16384 float32"},
      {"level1_029_softmax_long_rows_degenerate", "row0 aten.softmax.int softmax rows=64 length=1048576 float32"},
      {"level1_030_logsumexp_rows", "row0 aten.logsumexp.default logsumexp rows=16384 length=16384 float32"},
      {"level1_031_layernorm_rows", "row0 aten.layer_norm.default layernorm rows=16384 length=8192 float32"},
      {"level1_033_sum_reduction", "row0 aten.sum.dim_IntList reduce_sum rows=16384 length=16384 float32"},
      {"level1_034_argmax_rows", "row0 aten.argmax.default argmax rows=16384 length=16384 float32"},
      {"level1_035_group_norm", "row0 aten.group_norm.default groupnorm rows=1024 length=32768 float32 affine"},
  };
  for (const Case& c : cases) {
    const graph::OpGraph g = fixture(c.graph);
    const MatchReport r = match_rows(g);
    ASSERT_EQ(r.gemms.size(), 1u) << c.graph;
    EXPECT_EQ(describe(r.gemms[0]), c.description);
    EXPECT_TRUE(r.notes.empty()) << c.graph << ": " << r.notes.at(0);
  }
  const MatchReport gn = match_rows(fixture("level1_035_group_norm"));
  const RowSpec& s = *gn.gemms[0].rows;
  EXPECT_EQ(s.groups, 32);
  EXPECT_EQ(s.channel_span, 64 * 64);
  EXPECT_GE(s.weight, 0);
  EXPECT_GE(s.bias, 0);
  EXPECT_DOUBLE_EQ(s.eps, 1e-5);
}

TEST(RowMatch, ElementWiseAndGemmProblemsHaveNone) {
  EXPECT_TRUE(match_rows(fixture("level1_032_gelu_elementwise")).gemms.empty());
  EXPECT_TRUE(match_rows(fixture("level1_001_gemm_square_4096")).gemms.empty());
}

TEST(RowMatch, ASoftmaxOverAnotherDimensionStaysInPyTorch) {
  graph::OpGraph g = fixture("level1_028_softmax_rows");
  g.nodes[0].args[1] = 0;
  const MatchReport r = match_rows(g);
  EXPECT_TRUE(r.gemms.empty());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], g.nodes[0].id + " aten.softmax.int: it is not over the last dimension");
}

}  // namespace
}  // namespace ucutlass::map

namespace ucutlass::map {
namespace {

// match_problem rewrites a linear + sum as ones W and a GEMV first and says so (the optimizer then
// schedules the problem on its reduced SOL floor); a plain GEMM problem has nothing to collapse.
TEST(MatchProblem, ReportsTheCollapsedLinearSums) {
  graph::OpGraph g = graph::testing::suite_graph("level2_017_gemm_sum_collapses_to_gemv_degenerate");
  const MatchReport r = match_problem(g, false);
  EXPECT_EQ(r.collapsed_sums, 1);
  EXPECT_EQ(r.gemms.size(), 2u);
  graph::OpGraph plain = graph::testing::suite_graph("level2_001_gemm_bias_relu");
  EXPECT_EQ(match_problem(plain, true).collapsed_sums, 0);
}

}  // namespace
}  // namespace ucutlass::map
