// What the cost model charges for the ops a solution leaves to PyTorch.
#include "search/cost_model.h"

#include <string>

#include <gtest/gtest.h>

#include "graph/graph_reader.h"
#include "graph/testing_fixture.h"
#include "sol/gpu_profile.h"
#include "sol/op_cost.h"
#include "sol/testing_profile.h"

namespace ucutlass::search {
namespace {

graph::OpGraph fixture(const std::string& name) { return graph::testing::suite_graph(name); }

TEST(CostModel, OpsLeftToPyTorchCostOnePassThroughDramEach) {
  // conv2d -> group_norm -> gelu: the conv is the kernel; the group norm stops its chain, so the
  // group norm and the gelu after it run in PyTorch: their bytes at DRAM bandwidth, a launch each.
  const graph::OpGraph g = fixture("level2_021_conv_groupnorm_gelu");
  const map::MatchReport r = map::match_gemms(g);
  ASSERT_EQ(r.gemms.size(), 1u);
  const sol::GpuProfile gpu = sol::testing::h200();
  double expected = 0;
  for (size_t i = 1; i < g.nodes.size(); ++i)
    expected += sol::cost_node(g, g.nodes[i]).bytes() / sol::realistic_dram_bandwidth(gpu) + 3e-6;
  EXPECT_GT(expected, 0.0);
  EXPECT_DOUBLE_EQ(unmapped_ops_seconds(g, r.gemms, gpu), expected);
  // Without the match every node is PyTorch's, the conv included.
  EXPECT_GT(unmapped_ops_seconds(g, {}, gpu), expected);
  // nn.Linear + relu: the whole graph is one kernel and its fused step, nothing left over.
  const graph::OpGraph linear = fixture("level2_001_gemm_bias_relu");
  EXPECT_DOUBLE_EQ(unmapped_ops_seconds(linear, map::match_gemms(linear).gemms, gpu), 0.0);
}

TEST(CostModel, AccumulatorsPastAWarpGroupsRegistersSpill) {
  // 128 f32 accumulators per thread fit (a 128x256 cooperative tile: two warp groups); 256 spill (a
  // 256x256 cooperative or 128x256 pingpong tile), which ran 12-14x slower on the H200.
  const graph::OpGraph g = fixture("level2_001_gemm_bias_relu");
  const map::GemmMatch m = map::match_gemms(g).gemms.at(0);
  const sol::GpuProfile gpu = sol::testing::h200();
  map::KernelConfig c;
  c.bf16_operands = true;
  c.tile = {128, 256, 64};
  c.cluster = {2, 1, 1};
  c.schedule = ir::KernelSchedule::cooperative;
  c.scheduler = ir::TileScheduler::persistent;
  const double fits = estimate_time(m, c, gpu).t_math;
  c.tile = {256, 256, 64};
  EXPECT_GT(estimate_time(m, c, gpu).t_math, 10 * fits);
  c.tile = {128, 256, 64};
  c.schedule = ir::KernelSchedule::pingpong;
  EXPECT_GT(estimate_time(m, c, gpu).t_math, 10 * fits);
  c.tile = {64, 256, 64};
  EXPECT_LT(estimate_time(m, c, gpu).t_math, 2 * fits);
}

TEST(CostModel, Sm80ThreeTf32TilesOfAFullWarpTileRunAtHalfSpeed) {
  // sm80's 3xTF32 mainloop at 128 accumulators per thread (128x128 on the default 2x2 warps) ran half
  // as fast as 128x64 on the H200; the estimate must rank 128x64 first (it did the opposite).
  const graph::OpGraph g = fixture("level1_001_gemm_square_4096");
  const map::GemmMatch m = map::match_gemms(g).gemms.at(0);
  const sol::GpuProfile gpu = sol::testing::h200();
  map::KernelConfig c;
  c.arch = ir::Arch::sm80;
  c.math = ir::MathPath::tf32x3;
  c.schedule = ir::KernelSchedule::multistage;
  c.stages = 3;
  c.tile = {128, 64, 16};
  const double half = estimate_time(m, c, gpu).t_math;
  c.tile = {128, 128, 16};
  EXPECT_GT(estimate_time(m, c, gpu).t_math, 1.5 * half);
  c.warps = {4, 2, 1};  // 64 accumulators per thread again
  EXPECT_LT(estimate_time(m, c, gpu).t_math, 1.2 * half);
}

}  // namespace
}  // namespace ucutlass::search
