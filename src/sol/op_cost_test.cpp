#include "sol/op_cost.h"

#include <functional>

#include <gtest/gtest.h>

#include "sol/testing_graph.h"

namespace ucutlass::sol {
namespace {

using testing::TestGraph;
using J = nlohmann::json;

struct CostCase {
  const char* name;
  std::function<graph::OpGraph()> make;  // the node under test is the last one
  OpKind kind;
  double flops;
  double bytes;  // reads + writes, unfused
};

OpCost cost_last(const graph::OpGraph& g) { return cost_node(g, g.nodes.back()); }

// One-node graphs: out = op(args), the output tensor of `out_shape`.
graph::OpGraph single(const char* op, std::vector<std::vector<int64_t>> input_shapes, std::vector<int64_t> out_shape,
                      J extra_args = J::array(), J kwargs = J::object(), std::string dtype = "float32") {
  TestGraph t;
  J args = J::array();
  for (const auto& s : input_shapes) args.push_back(TestGraph::ref(t.input(s, dtype)));
  for (const auto& a : extra_args) args.push_back(a);
  std::string out = t.tensor(out_shape, dtype);
  t.node(op, args, {out}, kwargs);
  t.output(out);
  return t.build();
}

TEST(OpCost, FormulasPerOp) {
  const double f4 = 4;  // bytes per fp32 element
  const std::vector<CostCase> cases = {
      {"mm: 2MNK; A, B, C once", [] { return single("aten.mm.default", {{64, 32}, {32, 16}}, {64, 16}); },
       OpKind::gemm, 2.0 * 64 * 16 * 32, f4 * (64 * 32 + 32 * 16 + 64 * 16)},
      {"addmm: + MN for the bias add (beta = 1)",
       [] { return single("aten.addmm.default", {{16}, {64, 32}, {32, 16}}, {64, 16}); }, OpKind::gemm,
       2.0 * 64 * 16 * 32 + 64 * 16, f4 * (16 + 64 * 32 + 32 * 16 + 64 * 16)},
      {"addmm beta = 0: the input is not read",
       [] { return single("aten.addmm.default", {{16}, {64, 32}, {32, 16}}, {64, 16}, J::array(), {{"beta", 0}}); },
       OpKind::gemm, 2.0 * 64 * 16 * 32, f4 * (64 * 32 + 32 * 16 + 64 * 16)},
      {"addmm beta = 2: scale and add",
       [] { return single("aten.addmm.default", {{16}, {64, 32}, {32, 16}}, {64, 16}, J::array(), {{"beta", 2}}); },
       OpKind::gemm, 2.0 * 64 * 16 * 32 + 2.0 * 64 * 16, f4 * (16 + 64 * 32 + 32 * 16 + 64 * 16)},
      {"linear over 3-D input folds batch into M",
       [] { return single("aten.linear.default", {{4, 8, 32}, {16, 32}, {16}}, {4, 8, 16}); }, OpKind::gemm,
       2.0 * 32 * 16 * 32 + 32 * 16, f4 * (4 * 8 * 32 + 16 * 32 + 16 + 4 * 8 * 16)},
      {"_grouped_mm 2-D x 3-D (MoE): the sum over groups is 2 (sum m_g) N K; offs not recorded: all rows",
       [] { return single("aten._grouped_mm.default", {{96, 32}, {4, 32, 16}, {4}}, {96, 16}); }, OpKind::bmm,
       2.0 * 96 * 16 * 32, f4 * (96 * 32 + 4 * 32 * 16 + 4 + 96 * 16)},
      {"_grouped_mm 3-D x 3-D: like bmm",
       [] { return single("aten._grouped_mm.default", {{4, 64, 32}, {4, 32, 16}}, {4, 64, 16}); }, OpKind::bmm,
       4 * 2.0 * 64 * 16 * 32, f4 * 4 * (64 * 32 + 32 * 16 + 64 * 16)},
      {"_grouped_mm 2-D x 2-D: groups split K, out [G, M, N]",
       [] { return single("aten._grouped_mm.default", {{64, 96}, {96, 16}, {3}}, {3, 64, 16}); }, OpKind::bmm,
       2.0 * 64 * 16 * 96, f4 * (64 * 96 + 96 * 16 + 3 + 3 * 64 * 16)},
      {"bmm: sum over the batch", [] { return single("aten.bmm.default", {{8, 64, 32}, {8, 32, 16}}, {8, 64, 16}); },
       OpKind::bmm, 8 * 2.0 * 64 * 16 * 32, f4 * 8 * (64 * 32 + 32 * 16 + 64 * 16)},
      {"matmul with a broadcast operand counts it once",
       [] { return single("aten.matmul.default", {{8, 64, 32}, {32, 16}}, {8, 64, 16}); }, OpKind::gemm,
       2.0 * 8 * 64 * 16 * 32, f4 * (8 * 64 * 32 + 32 * 16 + 8 * 64 * 16)},
      {"matmul 4-D batched", [] { return single("aten.matmul.default", {{2, 3, 64, 32}, {2, 3, 32, 16}}, {2, 3, 64, 16}); },
       OpKind::bmm, 6 * 2.0 * 64 * 16 * 32, f4 * 6 * (64 * 32 + 32 * 16 + 64 * 16)},
      {"GEMV: N = 1", [] { return single("aten.mm.default", {{256, 1024}, {1024, 1}}, {256, 1}); }, OpKind::gemv,
       2.0 * 256 * 1024, f4 * (256 * 1024 + 1024 + 256)},
      {"mv", [] { return single("aten.mv.default", {{256, 1024}, {1024}}, {256}); }, OpKind::gemv, 2.0 * 256 * 1024,
       f4 * (256 * 1024 + 1024 + 256)},
      {"conv2d fprop: 2 N K P Q C R S + bias",
       [] {
         return single("aten.convolution.default", {{2, 3, 10, 10}, {8, 3, 3, 3}, {8}}, {2, 8, 8, 8},
                       J::array({{1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1}));
       },
       OpKind::conv, 2.0 * 2 * 8 * 8 * 8 * 3 * 3 * 3 + 2 * 8 * 8 * 8, f4 * (2 * 3 * 100 + 8 * 27 + 8 + 2 * 8 * 64)},
      {"conv1d", [] { return single("aten.conv1d.default", {{2, 4, 20}, {6, 4, 5}}, {2, 6, 16}); }, OpKind::conv,
       2.0 * 2 * 6 * 16 * 4 * 5, f4 * (2 * 4 * 20 + 6 * 4 * 5 + 2 * 6 * 16)},
      {"conv3d", [] { return single("aten.conv3d.default", {{1, 2, 6, 6, 6}, {4, 2, 3, 3, 3}}, {1, 4, 4, 4, 4}); },
       OpKind::conv, 2.0 * 4 * 64 * 2 * 27, f4 * (2 * 216 + 4 * 2 * 27 + 4 * 64)},
      {"grouped conv: C/g enters",
       [] {
         return single("aten.conv2d.default", {{1, 8, 6, 6}, {8, 2, 3, 3}}, {1, 8, 4, 4},
                       J::array({nullptr, {1, 1}, {0, 0}, {1, 1}, 4}));
       },
       OpKind::conv, 2.0 * 8 * 16 * 2 * 9, f4 * (8 * 36 + 8 * 2 * 9 + 8 * 16)},
      {"depthwise conv",
       [] {
         return single("aten.conv2d.default", {{1, 8, 6, 6}, {8, 1, 3, 3}}, {1, 8, 4, 4},
                       J::array({nullptr, {1, 1}, {0, 0}, {1, 1}, 8}));
       },
       OpKind::conv_depthwise, 2.0 * 8 * 16 * 9, f4 * (8 * 36 + 8 * 9 + 8 * 16)},
      {"transposed conv: input spatial size, useful MACs only",
       [] {
         return single("aten.convolution.default", {{2, 4, 5, 5}, {4, 6, 3, 3}}, {2, 6, 11, 11},
                       J::array({nullptr, {2, 2}, {0, 0}, {1, 1}, true, {0, 0}, 1}));
       },
       OpKind::conv_transpose, 2.0 * 2 * 4 * 25 * 6 * 9, f4 * (2 * 4 * 25 + 4 * 6 * 9 + 2 * 6 * 121)},
      {"SDPA: 4 B H Sq Sk D",
       [] { return single("aten.scaled_dot_product_attention.default", {{2, 4, 128, 64}, {2, 4, 256, 64}, {2, 4, 256, 64}}, {2, 4, 128, 64}); },
       OpKind::attention, 4.0 * 8 * 128 * 256 * 64, f4 * 8 * 64 * (128 + 256 + 256 + 128)},
      {"SDPA causal, square: only the unmasked pairs",
       [] {
         return single("aten.scaled_dot_product_attention.default", {{1, 1, 128, 64}, {1, 1, 128, 64}, {1, 1, 128, 64}},
                       {1, 1, 128, 64}, J::array(), {{"is_causal", true}});
       },
       OpKind::attention, 4.0 * (128.0 * 129 / 2) * 64, f4 * 4 * 128 * 64},
      {"softmax: 5 per element, in + out",
       [] { return single("aten._softmax.default", {{64, 1000}}, {64, 1000}, J::array({1, false})); }, OpKind::softmax,
       5.0 * 64000, f4 * 2 * 64000},
      {"layer norm: 8 per element + params",
       [] { return single("aten.layer_norm.default", {{64, 512}, {512}, {512}}, {64, 512}, J::array({})); }, OpKind::norm,
       8.0 * 64 * 512, f4 * (2 * 64 * 512 + 2 * 512)},
      {"sum over a dim: n FLOPs, in + out",
       [] { return single("aten.sum.dim_IntList", {{64, 512}}, {64}, J::array({{1}})); }, OpKind::reduction, 64 * 512.0,
       f4 * (64 * 512 + 64)},
      {"logsumexp: 4 per element", [] { return single("aten.logsumexp.default", {{64, 512}}, {64}, J::array({{1}})); },
       OpKind::reduction, 4.0 * 64 * 512, f4 * (64 * 512 + 64)},
      {"add with a broadcast bias reads the bias once",
       [] { return single("aten.add.Tensor", {{64, 512}, {512}}, {64, 512}); }, OpKind::elementwise, 64 * 512.0,
       f4 * (64 * 512 + 512 + 64 * 512)},
      {"mul by a Python scalar reads one tensor",
       [] { return single("aten.mul.Tensor", {{64, 512}}, {64, 512}, J::array({2.0})); }, OpKind::elementwise, 64 * 512.0,
       f4 * 2 * 64 * 512},
      {"gelu: 8 per element", [] { return single("aten.gelu.default", {{1000}}, {1000}); }, OpKind::elementwise, 8000,
       f4 * 2000},
      {"max.other is element-wise", [] { return single("aten.max.other", {{100}, {100}}, {100}); }, OpKind::elementwise,
       100, f4 * 300},
      {"max_pool2d: window per output element",
       [] { return single("aten.max_pool2d.default", {{1, 4, 8, 8}}, {1, 4, 4, 4}, J::array({{2, 2}, {2, 2}})); },
       OpKind::pooling, 4.0 * 64, f4 * (256 + 64)},
      {"adaptive avg pool to 1x1: the whole plane",
       [] { return single("aten.adaptive_avg_pool2d.default", {{2, 4, 8, 8}}, {2, 4, 1, 1}, J::array({{1, 1}})); },
       OpKind::pooling, 64.0 * 8, f4 * (512 + 8)},
      {"view ops move nothing", [] { return single("aten.view.default", {{64, 512}}, {512, 64}, J::array({{512, 64}})); },
       OpKind::view, 0, 0},
      {"clone copies", [] { return single("aten.clone.default", {{1000}}, {1000}); }, OpKind::copy, 0, f4 * 2000},
      {"zeros_like writes only", [] { return single("aten.zeros_like.default", {{1000}}, {1000}); }, OpKind::creation, 0,
       f4 * 1000},
      {"unknown op: reads, writes, one FLOP per output element",
       [] { return single("aten.special_bessel_j0.default", {{1000}}, {1000}); }, OpKind::unknown, 1000, f4 * 2000},
  };
  for (const CostCase& c : cases) {
    OpCost cost = cost_last(c.make());
    EXPECT_EQ(kind_name(cost.kind), kind_name(c.kind)) << c.name;
    EXPECT_DOUBLE_EQ(cost.flops, c.flops) << c.name;
    EXPECT_DOUBLE_EQ(cost.bytes(), c.bytes) << c.name;
  }
}

TEST(OpCost, EmbeddingReadsOnlyTheRowsLookedUp) {
  TestGraph t;
  std::string w = t.weight({50000, 64});
  std::string idx = t.input({8, 16}, "int64");
  std::string out = t.tensor({8, 16, 64});
  t.node("aten.embedding.default", {TestGraph::ref(w), TestGraph::ref(idx)}, {out});
  t.output(out);
  OpCost c = cost_last(t.build());
  EXPECT_EQ(c.kind, OpKind::embedding);
  EXPECT_DOUBLE_EQ(c.bytes_read(), 128.0 * 64 * 4 + 128 * 8);
  EXPECT_DOUBLE_EQ(c.bytes_written(), 128.0 * 64 * 4);
}

TEST(OpCost, GemmDimsFeedTheRestOfTheEngine) {
  OpCost c = cost_last(single("aten.linear.default", {{4, 8, 32}, {16, 32}}, {4, 8, 16}));
  ASSERT_TRUE(c.gemm);
  EXPECT_EQ(c.gemm->batch, 1);
  EXPECT_EQ(c.gemm->m, 32);
  EXPECT_EQ(c.gemm->n, 16);
  EXPECT_EQ(c.gemm->k, 32);
  EXPECT_EQ(c.shape, "M=32 N=16 K=32");
  EXPECT_EQ(c.math_dtype, graph::DType::f32);
}

// A grouped GEMM's bound is the sum over its groups; for torch._grouped_mm with a 2-D mat_a that needs only
// the rows the groups cover, offs[G - 1], which the graph carries when offs is a recorded constant.
TEST(OpCost, GroupedMmSumsTheRowsItsGroupsCover) {
  auto graph = [](bool with_offsets) {
    TestGraph t;
    const std::string a = t.input({96, 32}, "bfloat16"), b = t.input({4, 32, 16}, "bfloat16");
    const std::string offs = t.input({4}, "int32"), out = t.tensor({96, 16}, "bfloat16");
    t.node("aten._grouped_mm.default", J::array({TestGraph::ref(a), TestGraph::ref(b), TestGraph::ref(offs)}), {out});
    t.output(out);
    J j = t.json();
    if (with_offsets) j["tensors"][2]["value"] = {8, 24, 40, 48};  // 48 of the 96 rows in 4 groups
    graph::OpGraph g;
    std::string err;
    EXPECT_TRUE(graph::read_op_graph(j.dump(), "test.json", &g, &err)) << err;
    return g;
  };
  const OpCost known = cost_last(graph(true));
  EXPECT_EQ(known.kind, OpKind::bmm);
  EXPECT_DOUBLE_EQ(known.flops, 2.0 * 48 * 16 * 32);
  EXPECT_DOUBLE_EQ(known.bytes(), 2.0 * (48 * 32 + 4 * 32 * 16 + 48 * 16) + 4 * 4);
  EXPECT_EQ(known.shape, "grouped G=4 sum M=48 N=16 K=32");
  EXPECT_EQ(known.note, "");
  const OpCost assumed = cost_last(graph(false));
  EXPECT_DOUBLE_EQ(assumed.flops, 2.0 * 96 * 16 * 32);
  EXPECT_EQ(assumed.note,
            "grouped_mm: offs is not recorded, so the groups are assumed to cover all 96 rows of mat_a; the bound "
            "needs the sum of the groups' extents (offs[-1]) to be exact");
}

}  // namespace
}  // namespace ucutlass::sol
