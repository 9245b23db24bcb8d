#include "map/subpixel.h"

namespace ucutlass::map {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

bool subpixel_eligible(const ConvSpec& s) {
  if (!s.transposed || s.subpixel || s.groups != 1) return false;
  bool strided = false;
  for (int i = 3 - s.dims; i < 3; ++i) {
    if (s.dilation[i] != 1 || s.stride[i] < 1 || s.filter[i] < 1 || s.pad[i] < 0) return false;
    strided = strided || s.stride[i] > 1;
    const int64_t taps = ceil_div(s.filter[i], s.stride[i]);
    if (s.filter[i] + s.output_padding[i] - s.pad[i] > taps * s.stride[i]) return false;
  }
  return strided;
}

std::optional<GemmMatch> subpixel_match(const GemmMatch& m) {
  if (!m.conv || !subpixel_eligible(*m.conv)) return std::nullopt;
  const ConvSpec& t = *m.conv;
  ConvSpec f = t;
  ConvSpec::Subpixel sp;
  sp.y_elements = t.y_elements;
  // z's pixels: a stride-1 conv padded by L - 1 on each side outputs D + L - 1 per dimension.
  int64_t phases = 1, z_pixels = 1, taps_product = 1;
  for (int i = 0; i < 3; ++i) {
    const int64_t taps = ceil_div(t.filter[i], t.stride[i]);
    // The transposed conv's output extent, from its input (as PyTorch sizes it).
    sp.out[i] = (t.input[i] - 1) * t.stride[i] - 2 * t.pad[i] + t.filter[i] + t.output_padding[i];
    sp.stride[i] = t.stride[i];
    sp.crop[i] = t.pad[i];
    phases *= t.stride[i];
    z_pixels *= t.input[i] + taps - 1;
    taps_product *= taps;
    f.filter[i] = taps;
    f.pad[i] = taps - 1;
    f.stride[i] = 1;
    f.dilation[i] = 1;
    f.output_padding[i] = 0;
  }
  f.transposed = false;
  f.k = phases * t.k;
  f.w_elements = f.k * t.c * taps_product;
  f.y_elements = t.n * f.k * z_pixels;
  f.output_copy = false;  // the shuffle writes a fresh tensor
  f.subpixel = sp;
  // The fprop's implicit GEMM: M = its output pixels, N = its output channels, K = C x taps (groups 1).
  GemmMatch r = m;
  r.m = t.n * z_pixels;
  r.n = f.k;
  r.k = t.c * taps_product;
  if (r.m <= 0 || r.n <= 0 || r.k <= 0) return std::nullopt;
  r.conv = f;
  for (size_t i = 0; i < r.chain.size(); ++i)
    if (r.chain[i].kind == StepKind::residual || r.chain[i].kind == StepKind::mul_aux) {  // tensors of y's pixel order
      r.chain.resize(i);
      break;
    }
  return r;
}

}  // namespace ucutlass::map
