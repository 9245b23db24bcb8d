#pragma once
// A forward conv whose pixels are not 16-byte multiples (c = 3 f32 channels are 12 bytes: every image
// model's first layer) runs on sm90a with its input channels zero-padded: sm90a loads through TMA,
// which needs 16-byte aligned channels, and zero channels add nothing to any output. The kernel then
// does c'/c times the multiply-adds (4/3 for RGB in f32), against sm80's cp.async kernel at half the
// wgmma rate on Hopper; the solution pads x per call into channels-last memory (the copy the binding
// would make anyway) and the weight once per parameter version (solution/conv_forward.cpp).
//
//   Conv2d(3 -> 64, k 7, s 2, p 3), f32  =>  conv2d(fprop, c = 4, ...) on pad(x), pad(w)
#include <optional>

#include "map/gemm_match.h"

namespace ucutlass::map {

// Whether a pixel of one group's input channels is short of a 16-byte multiple (c = 3 f32: 12 bytes),
// which sm90a's TMA cannot load and sm80 loads in narrow vectors.
bool short_pixels(const ConvSpec& s, graph::DType in);

// Whether padding the input channels is what keeps this conv from sm90a: a forward conv, groups 1,
// channels short of a 16-byte pixel.
bool channel_pad_eligible(const ConvSpec& s, graph::DType in);

// The input channels it runs with: the next multiple of 16 bytes.
int64_t padded_channels(const ConvSpec& s, graph::DType in);

// The rewritten match (c padded, `padded_from` set, K and the operand sizes grown), or nullopt.
std::optional<GemmMatch> channel_pad_match(const GemmMatch& m);

}  // namespace ucutlass::map
