#pragma once
// A strided forward convolution over few input channels as a stride-1 convolution over its input's
// space-to-depth blocks: the inverse of the sub-pixel rewrite (map/subpixel.h), for the image stem.
//
// Per spatial dimension with stride s, filter k, padding p and L = ceil(k / s): with x' the input
// shifted by p (zeros outside x), output o reads x'[o*s + t] for taps t < k. Writing t = j*s + r
// and x'[q*s + r] = X_r[q] (block q, phase r) makes
//   y[o] = sum_j sum_r X_r[o + j] w[j*s + r]   (j < L; taps past k are zero)
// a stride-1, unpadded correlation over G = out + L - 1 blocks whose channels are the phases times
// the input channels (index r*C + c, the phases of all dimensions row-major). Every output element
// is the same sum, reordered: the rewrite is exact up to f32 summation order.
//
// Why: sm90a's TMA im2col loads one pixel's channels of a filter tap per row, and rows under 64 bytes
// load at a row rate (search/cost_model.cpp: level1/020's stem, 16-byte rows after channel padding,
// ran its kernel at 0.18 of full-row speed on the H200). Blocks of 2 x 2 RGB pixels are 12 f32
// channels, 48-byte rows, with no padded channels, and L*L = 16 taps instead of 49.
//
//   Conv2d(3 -> 64, k 7, s 2, p 3) on [64, 3, 224, 224]
//   => conv2d(fprop, c = 12, k = 64, filter 4x4) on X [64, 12, 115, 115] -> y [64, 64, 112, 112]
//
// The solution builds X from x per call (a zero pad and one copy into channels-last memory, which
// replaces the binding's layout copy) and the weight [K, s*s*C, L, L] once per parameter version
// (solution/conv_forward.cpp).
#include <optional>

#include "map/gemm_match.h"

namespace ucutlass::map {

// Whether the rewrite applies and pays: a forward conv, groups 1, dilation 1, a stride above 1
// somewhere, input pixels short of 64 bytes, and blocks of whole 16-byte pixels (what TMA loads).
bool space_to_depth_eligible(const ConvSpec& s, graph::DType in);

// The rewritten match (the stride-1 spec with `space_to_depth` set, its implicit GEMM K and
// operand sizes), or nullopt when not eligible.
std::optional<GemmMatch> space_to_depth_match(const GemmMatch& m);

}  // namespace ucutlass::map
