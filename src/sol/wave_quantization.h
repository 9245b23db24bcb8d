#pragma once
// Tile and wave quantization, for the realistic estimate only (never the
// hard bound): a GEMM cut into BM x BN output tiles runs in waves of one tile
// per SM; the last wave is partly idle, and edge tiles compute padding.
//   tiles = ceil(M/BM) * ceil(N/BN) * batch
//   waves = ceil(tiles / (SMs * CTAs per SM))
//   wave efficiency = tiles / (waves * SMs * CTAs per SM)
//   tile efficiency = M*N / (ceil(M/BM)*BM * ceil(N/BN)*BN)
// Split-K and stream-K can remove the wave loss; the report says so.
#include <cstdint>

#include "sol/math_path.h"
#include "sol/op_cost.h"

namespace ucutlass::sol {

struct TileShape {
  int64_t bm = 128, bn = 128;
};

// The tile a plain Hopper CUTLASS kernel of this path would use: 128x256 for
// 16- and 8-bit operands, 128x128 for 32- and 64-bit ones.
TileShape default_tile(MathPath path);

struct WaveQuantization {
  int64_t tiles = 0;
  int64_t waves = 0;
  double wave_efficiency = 1;
  double tile_efficiency = 1;
};

WaveQuantization quantize(const GemmDims& dims, TileShape tile, int sms, int ctas_per_sm = 1);

}  // namespace ucutlass::sol
