#include "sol/wave_quantization.h"

#include <gtest/gtest.h>

namespace ucutlass::sol {
namespace {

TEST(WaveQuantization, TilesWavesEfficiencies) {
  struct Case {
    GemmDims dims;
    TileShape tile;
    int sms;
    int64_t tiles, waves;
    double wave_eff, tile_eff;
  };
  const std::vector<Case> cases = {
      {{1, 8192, 8192, 8192}, {128, 256}, 132, 64 * 32, 16, 2048.0 / (16 * 132), 1.0},
      {{1, 256, 256, 524288}, {128, 128}, 132, 4, 1, 4.0 / 132, 1.0},
      {{1, 100, 100, 64}, {128, 128}, 132, 1, 1, 1.0 / 132, 10000.0 / (128 * 128)},
      {{4, 128, 128, 64}, {128, 128}, 2, 4, 2, 1.0, 1.0},
      {{1, 132 * 128, 128, 64}, {128, 128}, 132, 132, 1, 1.0, 1.0},
  };
  for (const Case& c : cases) {
    WaveQuantization q = quantize(c.dims, c.tile, c.sms);
    EXPECT_EQ(q.tiles, c.tiles) << c.dims.m << "x" << c.dims.n;
    EXPECT_EQ(q.waves, c.waves) << c.dims.m << "x" << c.dims.n;
    EXPECT_DOUBLE_EQ(q.wave_efficiency, c.wave_eff) << c.dims.m << "x" << c.dims.n;
    EXPECT_DOUBLE_EQ(q.tile_efficiency, c.tile_eff) << c.dims.m << "x" << c.dims.n;
  }
}

TEST(WaveQuantization, DefaultTilePerPath) {
  EXPECT_EQ(default_tile(MathPath::bf16).bn, 256);
  EXPECT_EQ(default_tile(MathPath::fp8).bn, 256);
  EXPECT_EQ(default_tile(MathPath::tf32).bn, 128);
  EXPECT_EQ(default_tile(MathPath::fp64_tensor).bn, 128);
}

}  // namespace
}  // namespace ucutlass::sol
