// Table-driven tests of the op-graph matcher over the traced graphs of real
// suite problems (tests/optimize/graphs/, written by
// `python3 -m ucutlass_harness trace PROBLEM --out FILE`).
#include "map/gemm_match.h"

#include <gtest/gtest.h>

#include "graph/graph_reader.h"
#include "map/dsl_writer.h"

namespace ucutlass::map {
namespace {

graph::OpGraph load_fixture(const std::string& name) {
  graph::OpGraph g;
  std::string err;
  const std::string path = std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/" + name + ".json";
  EXPECT_TRUE(graph::load_op_graph_file(path, &g, &err)) << err;
  return g;
}

std::string describe_all(const MatchReport& r) {
  std::string s;
  for (const GemmMatch& m : r.gemms) s += describe(m) + "\n";
  for (const std::string& n : r.notes) s += "note: " + n + "\n";
  return s;
}

struct SuiteCase {
  const char* fixture;
  const char* expected;
};

TEST(GemmMatch, SuiteProblems) {
  const SuiteCase cases[] = {
#include "map/gemm_match_cases.inc"
  };
  for (const SuiteCase& c : cases) {
    SCOPED_TRACE(c.fixture);
    EXPECT_EQ(describe_all(match_gemms(load_fixture(c.fixture))), c.expected);
  }
}

// What one kernel fuses of its chain: the DSL epilogue steps, with the host entry's operand names.
std::string fused(const std::string& fixture, ir::Arch arch) {
  const MatchReport r = match_gemms(load_fixture(fixture));
  EXPECT_EQ(r.gemms.size(), 1u);
  if (r.gemms.empty()) return "";
  const FusedEpilogue f = fusable_prefix(r.gemms[0], arch);
  std::string s = std::to_string(f.steps) + "/" + std::to_string(r.gemms[0].chain.size()) + ":";
  if (f.alpha != 1) s += " alpha(" + dsl_number(f.alpha) + ")";
  if (f.residual >= 0) s += " C";
  for (const FusedStep& x : f.dsl_steps) s += " " + x.dsl + (x.extra.empty() ? "" : "[" + x.extra + "]");
  return s;
}

TEST(GemmMatch, Sm90aFusesTheStepsAfterAnActivationAsEpilogueStepsOfTheirOwn) {
  // 2026-12-01's v0.1 stores: each of these left one or two element-wise kernels of 15-28 us over the
  // 1024 x 8192 output in PyTorch beside a ~0.2 ms GEMM.
  const struct {
    const char* fixture;
    const char* sm90a;
    const char* sm80;
  } cases[] = {
      {"level2_002_gemm_gelu_scale", "3/3: bias(col) gelu scale(0.5)", "2/3: bias(col) gelu"},
      {"level2_004_gemm_sigmoid_residual", "3/3: bias(col) sigmoid residual[residual]", "2/3: bias(col) sigmoid"},
      {"level2_005_gemm_leaky_relu_mul", "3/3: bias(col) leaky_relu(0.01) scale(2.0)", "2/3: bias(col) leaky_relu(0.01)"},
      {"level2_006_gemm_tanh_hardswish", "3/3: bias(col) tanh hardswish", "2/3: bias(col) tanh"},
      {"level2_008_gemm_elu_bias", "3/3: bias(col) elu(1.0) add(col)[add_col]", "2/3: bias(col) elu(1.0)"},
      {"level2_009_gemm_per_channel_scale", "3/3: bias(col) mul(col)[mul_col] relu", "1/3: bias(col)"},
      {"level2_016_gemm_relu_neg_relu_zero_degenerate", "4/4: bias(col) relu scale(-1.0) relu", "2/4: bias(col) relu"},
      // A scale that folds into alpha still does, on either architecture.
      {"level2_027_bmm_scale_softmax", "1/1: alpha(0.08838834764831843)", "1/1: alpha(0.08838834764831843)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fixture);
    EXPECT_EQ(fused(c.fixture, ir::Arch::sm90a), c.sm90a);
    EXPECT_EQ(fused(c.fixture, ir::Arch::sm80), c.sm80);
  }
}

TEST(GemmMatch, NoScaleFoldsIntoAlphaAfterAnEpilogueStep) {
  // acc + c (C, beta 1), + a second same-shape tensor (an aux load), * 2: alpha and beta would scale acc
  // and C but not the aux tensor, so the scale is an epilogue step of its own.
  GemmMatch m;
  m.m = m.n = m.k = 64;
  ChainStep first, second, twice;
  first.kind = second.kind = StepKind::residual;
  first.operand = 1;
  second.operand = 2;
  twice.kind = StepKind::scale;
  twice.p0 = 2;
  m.chain = {first, second, twice};
  const FusedEpilogue f = fusable_prefix(m, ir::Arch::sm90a);
  EXPECT_EQ(f.steps, 3u);
  EXPECT_EQ(f.alpha, 1);
  EXPECT_EQ(f.beta, 1);
  EXPECT_EQ(f.residual, 1);
  ASSERT_EQ(f.dsl_steps.size(), 2u);
  EXPECT_EQ(f.dsl_steps[0].dsl, "residual");
  EXPECT_EQ(f.dsl_steps[1].dsl, "scale(2.0)");
  // A scale before any step still folds: acc * 2 + c is alpha 2, beta 1.
  m.chain = {twice, first};
  const FusedEpilogue g = fusable_prefix(m, ir::Arch::sm90a);
  EXPECT_EQ(g.alpha, 2);
  EXPECT_EQ(g.beta, 1);
  EXPECT_TRUE(g.dsl_steps.empty());
}

TEST(GemmMatch, AnEpilogueOperandMustBeWrittenBeforeTheKernelRuns) {
  // SwiGLU: the up projection's epilogue multiplies by the gate's silu, which the kernel before it wrote.
  graph::OpGraph g = load_fixture("level3_002_swiglu_ffn");
  MatchReport r = match_gemms(g);
  ASSERT_EQ(r.gemms.size(), 3u);
  FusedEpilogue f = fusable_prefix(r.gemms[1], ir::Arch::sm90a);
  ASSERT_EQ(f.dsl_steps.size(), 1u);
  EXPECT_EQ(f.dsl_steps[0].dsl, "mul(aux)");
  EXPECT_EQ(f.dsl_steps[0].extra, "mul_aux");
  EXPECT_TRUE(f.reads_matrix_extra);
  // With the up projection first in the forward, the gate's silu does not exist yet when it runs: its
  // chain stops before the multiply, and the gate's kernel, after it, takes the multiply instead.
  std::vector<graph::Node> reordered;
  for (const graph::Node& n : g.nodes)
    if (n.op.find("linear") != std::string::npos && reordered.empty() && &n != &g.nodes[0]) reordered.push_back(n);
  ASSERT_EQ(reordered.size(), 1u);
  for (const graph::Node& n : g.nodes)
    if (n.id != reordered[0].id) reordered.push_back(n);
  g.nodes = reordered;
  r = match_gemms(g);
  ASSERT_EQ(r.gemms.size(), 3u);
  EXPECT_EQ(describe(r.gemms[0]), "gemm0 linear m=4096 n=11008 k=4096 float32 a=row b=col chain: -");
  EXPECT_EQ(describe(r.gemms[1]), "gemm1 linear m=4096 n=11008 k=4096 float32 a=row b=col chain: silu mul(aux)");
}

}  // namespace
}  // namespace ucutlass::map
