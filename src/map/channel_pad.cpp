#include "map/channel_pad.h"

#include <algorithm>

namespace ucutlass::map {

bool short_pixels(const ConvSpec& s, graph::DType in) {
  return s.c / std::max<int64_t>(1, s.groups) * graph::dtype_bytes(in) % 16 != 0;
}

bool channel_pad_eligible(const ConvSpec& s, graph::DType in) {
  return !s.transposed && !s.subpixel && s.padded_from == 0 && s.groups == 1 && graph::dtype_bytes(in) > 0 &&
         short_pixels(s, in);
}

int64_t padded_channels(const ConvSpec& s, graph::DType in) {
  const int64_t per_16_bytes = 16 / graph::dtype_bytes(in);
  return (s.c + per_16_bytes - 1) / per_16_bytes * per_16_bytes;
}

std::optional<GemmMatch> channel_pad_match(const GemmMatch& m) {
  if (!m.conv || !channel_pad_eligible(*m.conv, m.in)) return std::nullopt;
  GemmMatch r = m;
  ConvSpec& s = *r.conv;
  const int64_t c = padded_channels(s, m.in);
  s.padded_from = s.c;
  s.x_elements = s.x_elements / s.c * c;
  s.w_elements = s.w_elements / s.c * c;
  r.k = m.k / s.c * c;  // K = c x filter taps for groups 1
  s.c = c;
  return r;
}

}  // namespace ucutlass::map
