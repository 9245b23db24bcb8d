// Zero-padded input channels (channel_pad.h): when they apply, the match they give, and the DSL a
// padded config writes. tests/python/test_channel_pad.py checks the solution's helper on the CPU.
#include "map/channel_pad.h"

#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "graph/graph_reader.h"
#include "map/conv_match.h"
#include "map/run_form.h"

namespace ucutlass::map {
namespace {

GemmMatch stem() {  // level1/020: Conv2d(3 -> 64, k 7, s 2, p 3) on [64, 3, 224, 224], f32
  graph::OpGraph g;
  std::string err;
  EXPECT_TRUE(graph::load_op_graph_file(
      std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/level1_020_conv2d_strided_7x7.json", &g, &err))
      << err;
  for (const GemmMatch& m : match_gemms(g).gemms)
    if (m.conv) return m;
  ADD_FAILURE() << "no conv in level1_020";
  return {};
}

TEST(ChannelPad, AnRgbStemRunsWithFourF32Channels) {
  const GemmMatch m = stem();
  ASSERT_TRUE(m.conv);
  ASSERT_TRUE(channel_pad_eligible(*m.conv, m.in));
  std::optional<GemmMatch> r = channel_pad_match(m);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->conv->c, 4);
  EXPECT_EQ(r->conv->padded_from, 3);
  EXPECT_EQ(r->k, 4 * 7 * 7);
  EXPECT_EQ(r->m, m.m);
  EXPECT_EQ(r->n, m.n);
  EXPECT_EQ(r->conv->x_elements, m.conv->x_elements / 3 * 4);
  EXPECT_EQ(r->conv->w_elements, m.conv->w_elements / 3 * 4);
  EXPECT_FALSE(channel_pad_eligible(*r->conv, m.in));  // padded once only

  KernelConfig c;
  c.conv = true;
  c.math = ir::MathPath::tf32;
  c.tile = {128, 64, 32};
  c.cluster = {1, 1, 1};
  c.schedule = ir::KernelSchedule::pingpong;
  c.form = ConvForm::padded_channels;
  EXPECT_EQ(c.summary(), "sm90a tf32 padded-channels 128x64x32 c1x1x1 pingpong");
  const std::string dsl = kernel_dsl(m, c);
  EXPECT_NE(dsl.find("conv2d(fprop, n = 64, h = 224, w = 224, c = 4, k = 64, r = 7, s = 7, pad = 3, stride = 2)"),
            std::string::npos)
      << dsl;
  FrontendResult fe = run_frontend("p.dsl", dsl + "\n");
  EXPECT_TRUE(fe.ok) << fe.diags->render();
  c.form = ConvForm::as_written;
  EXPECT_FALSE(run_frontend("u.dsl", kernel_dsl(m, c) + "\n").ok);  // 12-byte pixels: no TMA
  EXPECT_EQ(as_run(m, c).conv->c, 3);
}

TEST(ChannelPad, SixteenBytePixelsPerType) {
  ConvSpec s;
  s.c = 3;
  EXPECT_EQ(padded_channels(s, graph::DType::bf16), 8);
  EXPECT_EQ(padded_channels(s, graph::DType::f32), 4);
  s.c = 12;
  EXPECT_TRUE(channel_pad_eligible(s, graph::DType::f16));  // 24 bytes
  EXPECT_EQ(padded_channels(s, graph::DType::f16), 16);
  EXPECT_FALSE(channel_pad_eligible(s, graph::DType::f32));  // 48 bytes
  s.c = 6;
  s.groups = 2;
  EXPECT_FALSE(channel_pad_eligible(s, graph::DType::f32));
  s.groups = 1;
  s.transposed = true;
  EXPECT_FALSE(channel_pad_eligible(s, graph::DType::f32));
}

}  // namespace
}  // namespace ucutlass::map
