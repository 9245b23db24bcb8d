// The space-to-depth rewrite of strided few-channel convs (space_to_depth.h): which convs take it,
// and the spec it builds. Its numerics are checked against PyTorch in tests/python/test_space_to_depth.py.
#include "map/space_to_depth.h"

#include <gtest/gtest.h>

namespace ucutlass::map {
namespace {

GemmMatch stem() {  // level1/020: Conv2d(3 -> 64, k 7, s 2, p 3) on [64, 3, 224, 224], f32
  GemmMatch m;
  m.in = m.out = graph::DType::f32;
  ConvSpec s;
  s.dims = 2;
  s.n = 64;
  s.c = 3;
  s.k = 64;
  s.input = {1, 224, 224};
  s.filter = {1, 7, 7};
  s.pad = {0, 3, 3};
  s.stride = {1, 2, 2};
  s.x_elements = 64 * 3 * 224 * 224;
  s.w_elements = 64 * 3 * 49;
  s.y_elements = 64 * 64 * 112 * 112;
  m.m = 64 * 112 * 112;
  m.n = 64;
  m.k = 3 * 49;
  m.conv = s;
  return m;
}

TEST(SpaceToDepth, TheStemBecomesAStrideOneConvOverTwelveChannels) {
  const std::optional<GemmMatch> r = space_to_depth_match(stem());
  ASSERT_TRUE(r.has_value());
  const ConvSpec& s = *r->conv;
  EXPECT_EQ(s.c, 12);  // 2 x 2 phases x 3 channels: 48-byte rows
  EXPECT_EQ(s.filter, (std::array<int64_t, 3>{1, 4, 4}));  // ceil(7 / 2) taps
  EXPECT_EQ(s.input, (std::array<int64_t, 3>{1, 115, 115}));  // 112 outputs + 4 - 1 blocks
  EXPECT_EQ(s.pad, (std::array<int64_t, 3>{0, 0, 0}));
  EXPECT_EQ(s.stride, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(r->m, 64 * 112 * 112);  // the same outputs
  EXPECT_EQ(r->k, 12 * 16);
  EXPECT_EQ(s.x_elements, 64 * 12 * 115 * 115);
  EXPECT_EQ(s.w_elements, 64 * 12 * 16);
  EXPECT_EQ(s.y_elements, 64 * 64 * 112 * 112);
  ASSERT_TRUE(s.space_to_depth.has_value());
  EXPECT_EQ(s.space_to_depth->stride, (std::array<int64_t, 3>{1, 2, 2}));
  EXPECT_EQ(s.space_to_depth->pad, (std::array<int64_t, 3>{0, 3, 3}));
  EXPECT_EQ(s.space_to_depth->grid, (std::array<int64_t, 3>{1, 115, 115}));
  EXPECT_EQ(s.space_to_depth->channels, 3);
  EXPECT_FALSE(space_to_depth_match(*r).has_value());  // once
}

TEST(SpaceToDepth, OnlyStridedConvsOverShortPixelsInWhole16ByteBlocks) {
  GemmMatch m = stem();
  EXPECT_TRUE(space_to_depth_eligible(*m.conv, graph::DType::f32));
  EXPECT_FALSE(space_to_depth_eligible(*m.conv, graph::DType::bf16));  // 2 x 2 x 3 x 2 bytes = 24: not 16-byte rows
  m.conv->c = 4;
  EXPECT_TRUE(space_to_depth_eligible(*m.conv, graph::DType::bf16));   // 32-byte blocks of 8-byte pixels
  m.conv->c = 16;
  EXPECT_FALSE(space_to_depth_eligible(*m.conv, graph::DType::f32));   // 64-byte pixels load at full rate
  m.conv->c = 3;
  m.conv->stride = {1, 1, 1};
  EXPECT_FALSE(space_to_depth_eligible(*m.conv, graph::DType::f32));   // nothing to fold
  m.conv->stride = {1, 3, 3};
  EXPECT_FALSE(space_to_depth_eligible(*m.conv, graph::DType::f32));   // 27 channels: 108-byte blocks
  m.conv->stride = {1, 2, 2};
  m.conv->dilation = {1, 2, 2};
  EXPECT_FALSE(space_to_depth_eligible(*m.conv, graph::DType::f32));
  m.conv->dilation = {1, 1, 1};
  m.conv->groups = 3;
  EXPECT_FALSE(space_to_depth_eligible(*m.conv, graph::DType::f32));
  m.conv->groups = 1;
  m.conv->transposed = true;
  EXPECT_FALSE(space_to_depth_eligible(*m.conv, graph::DType::f32));
}

}  // namespace
}  // namespace ucutlass::map
