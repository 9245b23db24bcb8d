#include "sol/degenerate.h"

#include <functional>

#include <gtest/gtest.h>

#include "graph/graph_reader.h"
#include "sol/testing_graph.h"

namespace ucutlass::sol {
namespace {

using testing::TestGraph;

DegenerateAnalysis analyze(const graph::OpGraph& g) {
  std::vector<OpCost> costs;
  for (const graph::Node& n : g.nodes) costs.push_back(cost_node(g, n));
  return analyze_degenerate(g, costs);
}

std::string summary(const DegenerateAnalysis& a) {
  std::string s;
  for (const DegenerateFinding& f : a.findings) s += (s.empty() ? "" : "; ") + f.kind + "@" + f.node;
  return s;
}

std::string fates(const DegenerateAnalysis& a) {
  std::string s;
  for (NodeFate f : a.fate) s += (s.empty() ? "" : " ") + fate_name(f);
  return s;
}

TEST(Degenerate, PlantedFixtures) {
  struct Case {
    const char* graph;
    const char* findings;
    const char* fates;
  };
  const std::vector<Case> cases = {
      {"zero_output", "zero-output@n1", "unneeded constant"},
      {"gemm_sum_gemv", "gemm-collapses-to-gemv@n0", "collapsed absorbed absorbed"},
      {"dead_ops", "dead-op@n2; dead-op@n3", "live live dead dead"},
      {"softmax_singleton", "constant-output@n3", "unneeded unneeded unneeded constant"},
      {"gemm_square", "", "live"},
      {"linear_bias_relu", "", "constant live live"},  // t(W) depends on weights only,
      {"attention_explicit", "", "live live live live live"},
  };
  for (const Case& c : cases) {
    graph::OpGraph g;
    std::string err;
    ASSERT_TRUE(graph::load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/sol/graphs/" + c.graph + ".json", &g, &err))
        << err;
    DegenerateAnalysis a = analyze(g);
    EXPECT_EQ(summary(a), c.findings) << c.graph;
    EXPECT_EQ(fates(a), c.fates) << c.graph;
  }
}

TEST(Degenerate, ExactMessages) {
  TestGraph t;
  std::string x = t.input({8, 4}), w = t.weight({4, 6});
  std::string y = t.tensor({8, 6}), z = t.tensor({8, 6});
  t.node("aten.mm.default", {TestGraph::ref(x), TestGraph::ref(w)}, {y});
  t.node("aten.sub.Tensor", {TestGraph::ref(y), TestGraph::ref(y)}, {z});
  t.output(z);
  DegenerateAnalysis a = analyze(t.build());
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].message,
            "output \"t3\" (t3) is provably zero: node n1 (aten.sub.Tensor) subtracts a tensor from itself; "
            "the reduced problem skips n0, n1");
}

// Small rule table: op chain -> whether the output is flagged.
TEST(Degenerate, ValueRules) {
  struct Case {
    const char* name;
    std::function<graph::OpGraph()> make;
    const char* findings;
  };
  auto unary = [](const char* op, std::vector<int64_t> in, std::vector<int64_t> out, nlohmann::json extra) {
    return [=] {
      TestGraph t;
      std::string x = t.input(in), y = t.tensor(out);
      nlohmann::json args = nlohmann::json::array({TestGraph::ref(x)});
      for (const auto& e : extra) args.push_back(e);
      t.node(op, args, {y});
      t.output(y);
      return t.build();
    };
  };
  const std::vector<Case> cases = {
      {"mul by 0", unary("aten.mul.Tensor", {4, 4}, {4, 4}, {0.0}), "zero-output@n0"},
      {"mul by 2", unary("aten.mul.Tensor", {4, 4}, {4, 4}, {2.0}), ""},
      {"log_softmax over size 1", unary("aten._log_softmax.default", {4, 1}, {4, 1}, {1, false}), "zero-output@n0"},
      {"softmax over size 4", unary("aten._softmax.default", {4, 4}, {4, 4}, {1, false}), ""},
      {"mean over size 1", unary("aten.mean.dim", {4, 1}, {4, 1}, {nlohmann::json::array({1}), true}), "identity-op@n0"},
      {"argmax over size 1", unary("aten.argmax.default", {4, 1}, {4}, {1}), "zero-output@n0"},
      {"layer norm over one element, no affine",
       unary("aten.layer_norm.default", {4, 1}, {4, 1}, {nlohmann::json::array({1})}), "zero-output@n0"},
      {"group norm, one channel per group, 1x1",
       [] {
         TestGraph t;
         std::string x = t.input({4, 8, 1, 1}), w = t.weight({8}), b = t.weight({8}), y = t.tensor({4, 8, 1, 1});
         t.node("aten.group_norm.default", {TestGraph::ref(x), 8, TestGraph::ref(w), TestGraph::ref(b)}, {y});
         t.output(y);
         return t.build();
       },
       "constant-output@n0"},
      {"x - mean(x) over a size-1 dim",
       [] {
         TestGraph t;
         std::string x = t.input({4, 1}), m = t.tensor({4, 1}), y = t.tensor({4, 1});
         t.node("aten.mean.dim", {TestGraph::ref(x), nlohmann::json::array({1}), true}, {m});
         t.node("aten.sub.Tensor", {TestGraph::ref(x), TestGraph::ref(m)}, {y});
         t.output(y);
         return t.build();
       },
       "zero-output@n1"},
      {"x - x.t() is not zero",
       [] {
         TestGraph t;
         std::string x = t.input({4, 4}), xt = t.tensor({4, 4}), y = t.tensor({4, 4});
         t.node("aten.t.default", {TestGraph::ref(x)}, {xt});
         t.node("aten.sub.Tensor", {TestGraph::ref(x), TestGraph::ref(xt)}, {y});
         t.output(y);
         return t.build();
       },
       ""},
      {"GEMM then amax over N does not collapse",
       [] {
         TestGraph t;
         std::string x = t.input({64, 32}), w = t.weight({32, 16}), y = t.tensor({64, 16}), s = t.tensor({64});
         t.node("aten.mm.default", {TestGraph::ref(x), TestGraph::ref(w)}, {y});
         t.node("aten.amax.default", {TestGraph::ref(y), nlohmann::json::array({1})}, {s});
         t.output(s);
         return t.build();
       },
       ""},
      {"GEMM, relu, sum over N does not collapse",
       [] {
         TestGraph t;
         std::string x = t.input({64, 32}), w = t.weight({32, 16}), y = t.tensor({64, 16}), r = t.tensor({64, 16}),
                     s = t.tensor({64});
         t.node("aten.mm.default", {TestGraph::ref(x), TestGraph::ref(w)}, {y});
         t.node("aten.relu.default", {TestGraph::ref(y)}, {r});
         t.node("aten.sum.dim_IntList", {TestGraph::ref(r), nlohmann::json::array({1})}, {s});
         t.output(s);
         return t.build();
       },
       ""},
      {"GEMM then sum over M collapses",
       [] {
         TestGraph t;
         std::string x = t.input({64, 32}), w = t.weight({32, 16}), y = t.tensor({64, 16}), s = t.tensor({16});
         t.node("aten.mm.default", {TestGraph::ref(x), TestGraph::ref(w)}, {y});
         t.node("aten.sum.dim_IntList", {TestGraph::ref(y), nlohmann::json::array({0})}, {s});
         t.output(s);
         return t.build();
       },
       "gemm-collapses-to-gemv@n0"},
  };
  for (const Case& c : cases) EXPECT_EQ(summary(analyze(c.make())), c.findings) << c.name;
}

TEST(Degenerate, CollapsedGemmIsRepricedAsGemv) {
  graph::OpGraph g;
  std::string err;
  ASSERT_TRUE(graph::load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/sol/graphs/gemm_sum_gemv.json", &g, &err));
  DegenerateAnalysis a = analyze(g);
  ASSERT_TRUE(a.reduced[0]);
  EXPECT_EQ(a.reduced[0]->kind, OpKind::gemv);
  EXPECT_DOUBLE_EQ(a.reduced[0]->flops, 2.0 * 1024 * 8192 + 8192.0 * 8192);
  EXPECT_EQ(a.reduced[0]->shape, "M=1024 N=1 K=8192 (from N=8192)");
}

}  // namespace
}  // namespace ucutlass::sol
