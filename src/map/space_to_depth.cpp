#include "map/space_to_depth.h"

namespace ucutlass::map {

bool space_to_depth_eligible(const ConvSpec& s, graph::DType in) {
  const int64_t bytes = graph::dtype_bytes(in);
  if (s.transposed || s.subpixel || s.padded_from || s.space_to_depth || s.groups != 1 || bytes <= 0) return false;
  int64_t block = 1;
  for (int i = 3 - s.dims; i < 3; ++i) {
    if (s.dilation[i] != 1 || s.stride[i] < 1) return false;
    block *= s.stride[i];
  }
  return block > 1 && s.c * bytes < 64 && s.c * block * bytes % 16 == 0;
}

std::optional<GemmMatch> space_to_depth_match(const GemmMatch& m) {
  if (!m.conv || !space_to_depth_eligible(*m.conv, m.in)) return std::nullopt;
  GemmMatch r = m;
  ConvSpec& s = *r.conv;
  ConvSpec::SpaceToDepth b;
  b.channels = s.c;
  int64_t block = 1, taps = 1, grid = 1;
  for (int i = 3 - s.dims; i < 3; ++i) {
    const int64_t stride = s.stride[i], sub = (s.filter[i] + stride - 1) / stride;
    const int64_t out = (s.input[i] + 2 * s.pad[i] - s.filter[i]) / stride + 1;
    b.stride[i] = stride;
    b.pad[i] = s.pad[i];
    b.grid[i] = out + sub - 1;
    s.input[i] = b.grid[i];
    s.filter[i] = sub;
    s.pad[i] = 0;
    s.stride[i] = 1;
    block *= stride;
    taps *= sub;
    grid *= b.grid[i];
  }
  s.c *= block;
  s.x_elements = s.n * s.c * grid;
  s.w_elements = s.k * s.c * taps;
  r.k = s.c * taps;
  s.space_to_depth = b;
  return r;
}

}  // namespace ucutlass::map
