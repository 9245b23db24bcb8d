#include "sol/wave_quantization.h"

namespace ucutlass::sol {

namespace {
int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
}  // namespace

TileShape default_tile(MathPath path) {
  switch (path) {
    case MathPath::fp16:
    case MathPath::bf16:
    case MathPath::fp8:
      return {128, 256};
    default:
      return {128, 128};
  }
}

WaveQuantization quantize(const GemmDims& dims, TileShape tile, int sms, int ctas_per_sm) {
  WaveQuantization q;
  const int64_t slots = static_cast<int64_t>(sms) * ctas_per_sm;
  const int64_t tm = ceil_div(dims.m, tile.bm), tn = ceil_div(dims.n, tile.bn);
  q.tiles = tm * tn * dims.batch;
  if (q.tiles <= 0 || slots <= 0) return q;
  q.waves = ceil_div(q.tiles, slots);
  q.wave_efficiency = static_cast<double>(q.tiles) / static_cast<double>(q.waves * slots);
  q.tile_efficiency = static_cast<double>(dims.m) * static_cast<double>(dims.n) /
                      (static_cast<double>(tm * tile.bm) * static_cast<double>(tn * tile.bn));
  return q;
}

}  // namespace ucutlass::sol
