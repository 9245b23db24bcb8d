// The fused bound's compulsory bytes under each tolerance profile.
#include "sol/sol_report.h"

#include <gtest/gtest.h>

#include "sol/testing_graph.h"

namespace ucutlass::sol {
namespace {

using testing::TestGraph;

SelectedProfile h200() {
  SelectedProfile p;
  std::string err;
  EXPECT_TRUE(select_profile({"H200", "", false}, &p, &err)) << err;
  return p;
}

// x [M, K] (an input) times W^T (a parameter, viewed transposed), plus a bias parameter.
graph::OpGraph linear(int64_t m, int64_t n, int64_t k) {
  TestGraph t;
  const std::string x = t.input({m, k});
  const std::string w = t.weight({n, k});
  const std::string b = t.weight({n});
  const std::string wt = t.tensor({k, n});
  const std::string y = t.tensor({m, n});
  t.node("aten.t.default", {TestGraph::ref(w)}, {wt});
  t.node("aten.addmm.default", {TestGraph::ref(b), TestGraph::ref(x), TestGraph::ref(wt)}, {y});
  t.output(y);
  return t.build();
}

TEST(FusedBytes, ParametersAtTheOperandWidthTheirPathAllows) {
  // level2/014's Linear, 128 x 16384 x 16384, f32. Under 1e-4 (TF32 path) every tensor is read at 4
  // bytes; under 1e-2 (bf16 path) the weight and bias are parameters a solution may keep in bf16, so
  // they count 2 bytes; the input and output stay at 4.
  const graph::OpGraph g = linear(128, 16384, 16384);
  const double x = 128.0 * 16384 * 4, w = 16384.0 * 16384, b = 16384, y = 128.0 * 16384 * 4;
  SolOptions kb;
  EXPECT_DOUBLE_EQ(build_sol_report(g, h200(), kb).fused.bytes, x + 4 * w + 4 * b + y);
  SolOptions v01;
  v01.tolerance = ToleranceProfile::kernelbench_v01;
  EXPECT_DOUBLE_EQ(build_sol_report(g, h200(), v01).fused.bytes, x + 2 * w + 2 * b + y);
}

TEST(FusedBytes, InputsKeepTheirOwnWidth) {
  // Both operands inputs: fresh on every call, read at 4 bytes whatever the path.
  TestGraph t;
  const std::string a = t.input({256, 512}), b = t.input({512, 1024}), c = t.tensor({256, 1024});
  t.node("aten.mm.default", {TestGraph::ref(a), TestGraph::ref(b)}, {c});
  t.output(c);
  SolOptions v01;
  v01.tolerance = ToleranceProfile::kernelbench_v01;
  EXPECT_DOUBLE_EQ(build_sol_report(t.build(), h200(), v01).fused.bytes, 4.0 * (256 * 512 + 512 * 1024 + 256 * 1024));
}

}  // namespace
}  // namespace ucutlass::sol
