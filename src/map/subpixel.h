#pragma once
// A strided transposed convolution as a sub-pixel convolution: one stride-1 forward convolution with
// prod(stride) x Cout output channels, then a pixel shuffle (depth to space) and a crop.
//
// Per spatial dimension with stride s, filter k, padding p and L = ceil(k / s): an output position
// o has o + p = q*s + r (phase r), and only filter taps t = j*s + r reach it, from input q - j. So
//   y[o] = sum_j x[q - j] w[j*s + r]   (j < L; taps past k are zero)
// is, for each phase r, a stride-1 correlation of x, padded by L - 1 on both sides, with the
// flipped sub-filter f_r[u] = w[(L - 1 - u)*s + r]: z_r[q], q < D + L - 1. Stacking the phases as
// output channels (index r*Cout + co, the phases of all dimensions row-major) makes one fprop
// kernel; the shuffle puts z_r[q] at q*s + r and the crop takes [p, p + out). The kernel then
// runs sm90a's TMA fprop paths (CUTLASS 4.2 runs sm90a dgrad at unit stride only) at a GEMM N of
// prod(stride) x Cout instead of Cout, for (L*s / k)^dims times the useful multiply-adds.
//
//   ConvTranspose3d(32 -> 16, k 3, s 2, p 1) on [8, 32, 16, 32, 32]
//   => conv3d(fprop, c = 32, k = 128, filter 2x2x2, pad 1) on the same x: z [8, 128, 17, 33, 33]
//      -> shuffle [8, 16, 34, 66, 66] -> crop [1, 32) x [1, 64) x [1, 64): y [8, 16, 31, 63, 63]
//
// The weight [Cin, Cout, k...] becomes [prod(s) * Cout, Cin, L...] once per parameter version, and
// a fused channel bias repeats prod(s) times (solution/conv_forward.cpp); element-wise epilogue
// steps commute with the shuffle, a residual does not, so the chain stops before one.
#include <optional>

#include "map/gemm_match.h"

namespace ucutlass::map {

// Whether a transposed conv can run as a sub-pixel convolution: groups 1, dilation 1, a stride
// above 1 somewhere, and the output inside the shuffled grid (k + output_padding - p <= L*s).
bool subpixel_eligible(const ConvSpec& s);

// The rewritten match (the fprop spec with `subpixel` set, its implicit GEMM extents, the chain
// up to its first residual), or nullopt when not eligible.
std::optional<GemmMatch> subpixel_match(const GemmMatch& m);

}  // namespace ucutlass::map
