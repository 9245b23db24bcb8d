// The sub-pixel rewrite of strided transposed convolutions (subpixel.h): the fprop it runs, when it
// applies, and the DSL a sub-pixel config writes. tests/python/test_subpixel.py checks the solution's
// weight rewrite and shuffle against PyTorch's transposed convolutions.
#include "map/subpixel.h"

#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "graph/graph_reader.h"
#include "map/conv_match.h"
#include "map/run_form.h"

namespace ucutlass::map {
namespace {

GemmMatch first_conv(const std::string& fixture) {
  graph::OpGraph g;
  std::string err;
  EXPECT_TRUE(graph::load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/" + fixture + ".json",
                                        &g, &err))
      << err;
  for (const GemmMatch& m : match_gemms(g).gemms)
    if (m.conv) return m;
  ADD_FAILURE() << "no conv in " << fixture;
  return {};
}

TEST(Subpixel, ConvTranspose3dRunsAsAPhaseChannelFprop) {
  const GemmMatch m = first_conv("level1_026_conv_transpose3d");  // 32 -> 16, k 3, s 2, p 1 on 16x32x32
  std::optional<GemmMatch> r = subpixel_match(m);
  ASSERT_TRUE(r);
  const ConvSpec& f = *r->conv;
  EXPECT_FALSE(f.transposed);
  EXPECT_EQ(f.c, 32);
  EXPECT_EQ(f.k, 8 * 16);  // 2x2x2 phases of 16 output channels
  EXPECT_EQ(f.filter, (std::array<int64_t, 3>{2, 2, 2}));
  EXPECT_EQ(f.pad, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(f.stride, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(f.input, m.conv->input);
  // M = N x (16+1) x (32+1) x (32+1) kernel outputs, K = 32 channels x 8 taps.
  EXPECT_EQ(r->m, 8 * 17 * 33 * 33);
  EXPECT_EQ(r->n, 128);
  EXPECT_EQ(r->k, 32 * 8);
  EXPECT_EQ(f.y_elements, 8LL * 128 * 17 * 33 * 33);
  ASSERT_TRUE(f.subpixel);
  EXPECT_EQ(f.subpixel->out, (std::array<int64_t, 3>{31, 63, 63}));
  EXPECT_EQ(f.subpixel->crop, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(f.subpixel->stride, (std::array<int64_t, 3>{2, 2, 2}));
  EXPECT_EQ(f.subpixel->y_elements, m.conv->y_elements);
  EXPECT_EQ(conv_operation_dsl(f), "conv3d(fprop, n = 8, d = 16, h = 32, w = 32, c = 32, k = 128, t = 2, r = 2, s = 2, pad = 1)");
}

TEST(Subpixel, OnlyStridedUngroupedUndilatedTransposedConvsWhoseOutputFits) {
  const GemmMatch m = first_conv("level1_025_conv_transpose2d");
  ASSERT_TRUE(m.conv);
  EXPECT_TRUE(subpixel_eligible(*m.conv));
  ConvSpec s = *m.conv;
  s.groups = 2;
  EXPECT_FALSE(subpixel_eligible(s));
  s = *m.conv;
  s.dilation[2] = 2;
  EXPECT_FALSE(subpixel_eligible(s));
  s = *m.conv;
  s.stride = {1, 1, 1};  // sm90a dgrad runs it as it is
  EXPECT_FALSE(subpixel_eligible(s));
  s = *m.conv;  // k 4, s 2: L*s = 4 shuffled positions per phase step; k + op - p = 4 + 1 - 0 = 5 > 4
  s.pad[2] = 0;
  s.output_padding[2] = 1;
  EXPECT_FALSE(subpixel_eligible(s));
  EXPECT_FALSE(subpixel_eligible(*subpixel_match(m)->conv));  // rewritten once only
  const GemmMatch forward = first_conv("level1_019_conv2d_3x3");
  EXPECT_FALSE(subpixel_match(forward));
}

TEST(Subpixel, TheChainStopsBeforeAResidualAndTheConfigWritesTheFprop) {
  GemmMatch m = first_conv("level2_025_conv_transpose_bias_tanh");  // bias (built in), + bias, tanh
  ASSERT_EQ(m.chain.size(), 3u);
  ChainStep residual;
  residual.kind = StepKind::residual;
  m.chain.insert(m.chain.begin() + 1, residual);
  EXPECT_EQ(subpixel_match(m)->chain.size(), 1u);  // an element-wise step commutes with the shuffle, a residual not

  const GemmMatch plain = first_conv("level2_025_conv_transpose_bias_tanh");
  KernelConfig c;
  c.conv = true;
  c.math = ir::MathPath::tf32;
  c.tile = {128, 128, 32};
  c.cluster = {1, 1, 1};
  c.schedule = ir::KernelSchedule::pingpong;
  c.form = ConvForm::subpixel;
  EXPECT_EQ(c.summary(), "sm90a tf32 sub-pixel 128x128x32 c1x1x1 pingpong");
  const std::string dsl = kernel_dsl(plain, c);
  EXPECT_NE(dsl.find("conv2d(fprop, n = 32, h = 64, w = 64, c = 128, k = 256, r = 2, s = 2, pad = 1)"), std::string::npos) << dsl;
  // The deconv's bias and the model's per-channel one are one vector (their sum, map::FusedEpilogue::bias2),
  // and the tanh after them fuses too.
  EXPECT_NE(dsl.find(".with_epilogue(bias(col), tanh)"), std::string::npos) << dsl;
  FrontendResult fe = run_frontend("s.dsl", dsl + "\n");
  EXPECT_TRUE(fe.ok) << fe.diags->render();
  EXPECT_EQ(as_run(as_run(plain, c), c).conv->k, 256);  // idempotent
  c.form = ConvForm::as_written;
  EXPECT_TRUE(as_run(plain, c).conv->transposed);
}

}  // namespace
}  // namespace ucutlass::map
