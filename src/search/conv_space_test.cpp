// Convolutions in the optimizer: which suite problems map and to which DSL
// (conv_map_cases.inc, a golden table over the traced suite graphs), the exact
// reasons of the ones left to PyTorch, the legality of the conv space, and the
// implicit-GEMM cost model with its layout copies.
#include "search/conv_space.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/validate_depthwise.h"
#include "graph/graph_reader.h"
#include "map/conv_match.h"
#include "map/run_form.h"
#include "search/cost_model.h"
#include "sol/testing_profile.h"

namespace ucutlass::search {
namespace {

using sol::testing::h200;

graph::OpGraph load_fixture(const std::string& name) {
  graph::OpGraph g;
  std::string err;
  // A suite graph by name, or a path under tests/optimize/ (fixtures outside the suite).
  const std::string path = name.find('/') != std::string::npos ? "/tests/optimize/" + name : "/tests/optimize/graphs/" + name;
  EXPECT_TRUE(graph::load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + path + ".json", &g, &err))
      << err;
  return g;
}

// What `optimize` places for a problem: per kernel its best honest candidate's
// path and fused steps and its DSL operation, then the notes.
std::string placed(const std::string& fixture, sol::ToleranceProfile tol) {
  graph::OpGraph g = load_fixture(fixture);
  map::MatchReport r = map::match_gemms(g);
  const std::vector<std::vector<Candidate>> lists = candidate_lists(g, tol, h200(), r);
  std::string s;
  for (size_t i = 0; i < r.gemms.size(); ++i) {
    const map::GemmMatch& m = r.gemms[i];
    if (!m.conv) continue;
    size_t best = 0;
    while (best + 1 < lists[i].size() && lists[i][best].speculative) ++best;
    const map::KernelConfig& c = lists[i][best].config;
    const map::FusedEpilogue f = map::fusable_prefix(map::as_run(m, c), c.arch);
    s += m.name + " " + std::string(ir::name_of(c.arch)) + " " + std::string(ir::name_of(c.math)) +
         (c.bf16_operands ? " bf16-operands" : "") + (c.k_stack3 ? " k-stacked" : "") + (c.form == map::ConvForm::subpixel ? " sub-pixel" : "") +
         (c.form == map::ConvForm::padded_channels ? " padded-channels" : "") +
         (c.form == map::ConvForm::space_to_depth ? " space-to-depth" : "") + " fused " +
         std::to_string(f.steps) + "/" + std::to_string(m.chain.size()) + ": " + map::conv_operation_dsl(*m.conv) + "\n";
  }
  for (const std::string& n : r.notes) s += "note: " + n + "\n";
  return s;
}

struct MapCase {
  const char* fixture;
  const char* kernelbench;      // tolerance 1e-4 (optimize's default)
  const char* kernelbench_v01;  // tolerance 1e-2
};

TEST(ConvMap, SuiteProblems) {
  const MapCase cases[] = {
#include "search/conv_map_cases.inc"
  };
  for (const MapCase& c : cases) {
    SCOPED_TRACE(c.fixture);
    EXPECT_EQ(placed(c.fixture, sol::ToleranceProfile::kernelbench), c.kernelbench);
    EXPECT_EQ(placed(c.fixture, sol::ToleranceProfile::kernelbench_v01), c.kernelbench_v01);
  }
}

map::GemmMatch first_conv(const std::string& fixture) {
  map::MatchReport r = map::match_gemms(load_fixture(fixture));
  for (const map::GemmMatch& m : r.gemms)
    if (m.conv) return m;
  ADD_FAILURE() << "no conv in " << fixture;
  return {};
}

TEST(ConvSpace, SurvivorsAreLegalAndUseOnlyConvKnobs) {
  const map::GemmMatch m = first_conv("level1_019_conv2d_3x3");
  SpaceStats stats;
  const std::vector<Candidate> list = legal_candidates(m, sol::ToleranceProfile::kernelbench_v01, h200(), &stats);
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(stats.legal - stats.duplicates, static_cast<int>(list.size()));
  std::set<std::string> hashes, paths;
  for (const Candidate& c : list) {
    EXPECT_TRUE(hashes.insert(c.hash).second) << c.dsl;
    paths.insert(std::string(ir::name_of(c.config.arch)) + "/" + std::string(ir::name_of(c.config.math)) +
                 (c.config.bf16_operands ? "(bf16)" : ""));
    FrontendResult fe = run_frontend("c.dsl", c.dsl + "\n");
    EXPECT_TRUE(fe.ok) << c.dsl;
    EXPECT_EQ(c.dsl.find("with_layouts"), std::string::npos) << c.dsl;
    EXPECT_EQ(c.dsl.find("with_scheduler"), std::string::npos) << c.dsl;
    if (c.config.arch == ir::Arch::sm90a) {
      EXPECT_TRUE(c.config.schedule == ir::KernelSchedule::warpspecialized ||
                  ((c.config.schedule == ir::KernelSchedule::cooperative || c.config.schedule == ir::KernelSchedule::pingpong) &&
                   c.config.cluster.m * c.config.cluster.n == 1))
          << c.dsl;
    }
  }
  EXPECT_EQ(paths, (std::set<std::string>{"sm90a/tensor_op(bf16)", "sm90a/tf32", "sm80/tf32", "sm80/tf32x3"}));
  // A conv config has no layouts and no tile scheduler to report.
  // The persistent pingpong kernel over f32 rounded to bf16 ranks first (the cost model's measured
  // schedule factors; twice the TF32 rate).
  EXPECT_EQ(list.front().config.summary(), "sm90a tensor_op bf16-operands 128x128x64 c1x1x1 pingpong");
  // Every sm90a tile M 64|128 x N 64|128|256 with three clusters, five persistent cooperative tiles,
  // three pingpong ones, for each of sm90a's two paths; every sm80 tile with three stage counts for
  // each of sm80's two math paths.
  EXPECT_EQ(stats.enumerated, 2 * (6 * 3 + 5 + 3) + 2 * 5 * 3);
}

TEST(ConvSpace, SixteenBitConvsMayFallBackToSm80) {
  std::string got;
  for (const MathChoice& p : conv_math_paths(graph::DType::bf16, sol::ToleranceProfile::kernelbench))
    got += std::string(ir::name_of(p.arch)) + "/" + std::string(ir::name_of(p.math)) + " ";
  EXPECT_EQ(got, "sm90a/tensor_op sm80/tensor_op ");
}

TEST(ConvSpace, UnplacedReasonNamesEveryPath) {
  // level1_022 with 6 channels: no path takes a depthwise conv of 24-byte pixels.
  const map::GemmMatch m = first_conv("unplaceable/depthwise_6_channels");
  EXPECT_TRUE(legal_candidates(m, sol::ToleranceProfile::kernelbench_v01, h200()).empty());
  EXPECT_EQ(unplaced_reason(m, sol::ToleranceProfile::kernelbench_v01),
            "sm90a tensor_op (f32 rounded to bf16), sm90a tf32: sm90a convolutions in CUTLASS 4.2 take groups = 1 "
            "(depthwise is groups = c, groups = 6); "
            "sm80 tf32: depthwise convolutions run on CUDA cores (CUTLASS's direct convolution is SIMT only), not "
            "'tf32'; sm80 tf32x3: depthwise convolutions run on CUDA cores (CUTLASS's direct convolution is SIMT only), "
            "not 'tf32x3'; sm80 simt: the direct convolution loads 16-byte vectors of channels: c = 6 f32 channels are 24 "
            "bytes per pixel");
  // The depthwise conv of the suite (512 channels) runs on sm80's direct convolution.
  const std::vector<Candidate> depthwise =
      legal_candidates(first_conv("level1_022_conv2d_depthwise"), sol::ToleranceProfile::kernelbench, h200());
  ASSERT_FALSE(depthwise.empty());
  for (const Candidate& c : depthwise) EXPECT_EQ(c.config.math, ir::MathPath::simt) << c.dsl;
  // A legal conv has no reason.
  EXPECT_EQ(unplaced_reason(first_conv("level1_019_conv2d_3x3"), sol::ToleranceProfile::kernelbench_v01), "");
}

// A 16-bit depthwise conv (level1_022 in f16): the space holds no kernel whose f32 accumulators
// outgrow the activation stage the epilogue stages them in (validate_depthwise.h); 8x16 output tiles of
// 64 channels never fit and are dropped, 8x8 ones take 8 warps instead of 4.
TEST(ConvSpace, DepthwiseEpilogueFitsAnActivationStage) {
  map::GemmMatch m = first_conv("level1_022_conv2d_depthwise");
  m.in = m.out = graph::DType::f16;
  SpaceStats stats;
  const std::vector<Candidate> list = legal_candidates(m, sol::ToleranceProfile::kernelbench_v01, h200(), &stats);
  ASSERT_FALSE(list.empty());
  EXPECT_LT(stats.legal, stats.enumerated);
  bool tile64x64 = false;
  for (const Candidate& c : list) {
    FrontendResult fe = run_frontend("c.dsl", c.dsl + "\n");
    ASSERT_TRUE(fe.ok) << c.dsl;
    const ir::GemmKernel& k = fe.program.kernels[0];
    EXPECT_EQ(k.math.value, ir::MathPath::simt) << c.dsl;
    EXPECT_LE(ir::depthwise_epilogue_bytes(k), ir::depthwise_activation_stage_bytes(k)) << c.dsl;
    EXPECT_NE(k.tile.value, (ir::Shape3{128, 64, 9})) << c.dsl;
    if (k.tile.value == ir::Shape3{64, 64, 9}) {
      tile64x64 = true;
      EXPECT_EQ(k.warps.value, (ir::Shape3{8, 1, 1})) << c.dsl;
    }
  }
  EXPECT_TRUE(tile64x64);
}

TEST(ConvCost, LayoutCopiesAreCounted) {
  map::GemmMatch m = first_conv("level1_019_conv2d_3x3");
  const std::vector<Candidate> list = legal_candidates(m, sol::ToleranceProfile::kernelbench_v01, h200());
  ASSERT_FALSE(list.empty());
  const auto tf32 = std::find_if(list.begin(), list.end(), [](const Candidate& x) { return x.config.math == ir::MathPath::tf32; });
  ASSERT_NE(tf32, list.end());
  const map::KernelConfig& c = tf32->config;
  ASSERT_TRUE(m.conv->input_copy);
  const Estimate with_copy = estimate_time(m, c, h200());
  m.conv->input_copy = false;
  const Estimate without = estimate_time(m, c, h200());
  const double x_bytes = 32.0 * 64 * 128 * 128 * 4, bw = sol::realistic_dram_bandwidth(h200());
  // One read and one write of x by the binding's tiled transpose, at its measured 0.62 of the DRAM rate.
  EXPECT_NEAR(with_copy.t_overhead - without.t_overhead, 2 * x_bytes / (0.62 * bw) + 3e-6, 1e-9);
  // Rounded to bf16, that transpose writes half the bytes (f32 read, bf16 write); without it (x already
  // channels-last) the rounding is a pass of its own at the DRAM rate, with its own launch.
  map::KernelConfig rounded = c;
  rounded.bf16_operands = true;
  const double copy_s = 1.5 * x_bytes / (0.62 * bw), pass_s = 1.5 * x_bytes / bw;
  m.conv->input_copy = true;
  const double with_rounding_copy = estimate_time(m, rounded, h200()).t_overhead;
  m.conv->input_copy = false;
  EXPECT_NEAR(with_rounding_copy - estimate_time(m, rounded, h200()).t_overhead, copy_s - pass_s, 1e-9);
  EXPECT_DOUBLE_EQ(with_copy.t_math, without.t_math);
  // The kernel reads x once (not the M x K im2col matrix): memory is x + w + y.
  const double bytes = x_bytes + 128.0 * 64 * 9 * 4 + 32.0 * 128 * 128 * 128 * 4;
  EXPECT_NEAR(without.t_memory, bytes / sol::realistic_dram_bandwidth(h200()), 1e-12);
}

TEST(ConvCost, RankingSanity) {
  // A large f32 3x3 conv under 1e-2: TF32 on sm90a beats 3xTF32 on sm80, and the ranked
  // list is sorted by its estimates.
  const map::GemmMatch m = first_conv("level1_019_conv2d_3x3");
  const std::vector<Candidate> list = legal_candidates(m, sol::ToleranceProfile::kernelbench_v01, h200());
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(list.front().config.arch, ir::Arch::sm90a);
  for (size_t i = 1; i < list.size(); ++i) EXPECT_LE(list[i - 1].estimate_s, list[i].estimate_s);
  // 64 output channels (GEMM N = 64): a tile N of 64 wastes nothing, 256 wastes three quarters.
  const map::GemmMatch narrow = first_conv("level1_024_conv3d_3x3x3");
  ASSERT_EQ(narrow.n, 64);
  const std::vector<Candidate> nl = legal_candidates(narrow, sol::ToleranceProfile::kernelbench_v01, h200());
  ASSERT_FALSE(nl.empty());
  EXPECT_EQ(nl.front().config.tile.n, 64) << nl.front().config.summary();
}

TEST(ConvSpace, FewChannelsTakeANarrowTileK) {
  // TMA im2col loads a tile-K block of one filter tap's channels per step: the RGB stem, padded to 4 f32
  // channels, also gets 8-deep tiles (wgmma's TF32 K), the 16-channel conv3d 16-deep ones, and the
  // cost model ranks them above the usual 32-deep tiles that multiply 28 and 16 zero channels. The
  // stem's best is its space-to-depth form (12 channels per 2 x 2 block, 48-byte rows: 16-deep tiles).
  const std::vector<Candidate> stem =
      legal_candidates(first_conv("level1_020_conv2d_strided_7x7"), sol::ToleranceProfile::kernelbench_v01, h200());
  ASSERT_FALSE(stem.empty());
  EXPECT_EQ(stem.front().config.summary(), "sm90a tf32 space-to-depth 128x64x16 c1x1x1 pingpong");
  const auto padded = std::find_if(stem.begin(), stem.end(), [](const Candidate& c) { return c.config.form == map::ConvForm::padded_channels; });
  ASSERT_NE(padded, stem.end());
  EXPECT_EQ(padded->config.summary(), "sm90a tf32 padded-channels 128x64x8 c1x1x1 pingpong");
  const std::vector<Candidate> c16 =
      legal_candidates(first_conv("level2_026_conv3d_relu_avgpool"), sol::ToleranceProfile::kernelbench_v01, h200());
  ASSERT_FALSE(c16.empty());
  EXPECT_EQ(c16.front().config.summary(), "sm90a tf32 128x64x16 c1x1x1 pingpong");
  bool usual = false;
  for (const Candidate& c : c16) usual = usual || (c.config.arch == ir::Arch::sm90a && c.config.tile.k == 32);
  EXPECT_TRUE(usual);  // the 32-deep tiles stay in the space
  // 64 channels fill a 32-deep TF32 tile and a 64-deep bf16 one: no narrow variant.
  for (const Candidate& c : legal_candidates(first_conv("level1_019_conv2d_3x3"), sol::ToleranceProfile::kernelbench_v01, h200()))
    if (c.config.arch == ir::Arch::sm90a) {
      EXPECT_EQ(c.config.tile.k, c.config.bf16_operands ? 64 : 32) << c.config.summary();
    }
}

}  // namespace
}  // namespace ucutlass::search

namespace ucutlass::search {
namespace {

Candidate conv_on(ir::Arch arch) {
  Candidate c;
  c.config.conv = true;
  c.config.arch = arch;
  return c;
}

TEST(ConvSpace, Sm90ConvsLeaveProgramsWithAGemm) {
  Candidate gemm;
  gemm.config.arch = ir::Arch::sm90a;
  // A conv with both paths loses its sm90a candidates; one with only sm90a keeps them (the front end
  // then rejects the program with its reason); the GEMM's list is untouched.
  std::vector<std::vector<Candidate>> lists = {{conv_on(ir::Arch::sm90a), conv_on(ir::Arch::sm80), conv_on(ir::Arch::sm90a)},
                                               {conv_on(ir::Arch::sm90a)},
                                               {gemm}};
  EXPECT_EQ(drop_sm90_convs_beside_gemms(lists), 2u);
  ASSERT_EQ(lists[0].size(), 1u);
  EXPECT_EQ(lists[0][0].config.arch, ir::Arch::sm80);
  EXPECT_EQ(lists[1].size(), 1u);
  EXPECT_EQ(lists[2].size(), 1u);
  // Convs alone keep everything.
  std::vector<std::vector<Candidate>> convs = {{conv_on(ir::Arch::sm90a), conv_on(ir::Arch::sm80)}};
  EXPECT_EQ(drop_sm90_convs_beside_gemms(convs), 0u);
  EXPECT_EQ(convs[0].size(), 2u);
}

}  // namespace
}  // namespace ucutlass::search
