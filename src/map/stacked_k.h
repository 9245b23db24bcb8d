#pragma once
// The width of each part of a K-stacked GEMM operand (KernelConfig::k_stack3): K rounded up to a whole
// 16-byte row of parts. sm90a's TMA loads need 16-byte aligned rows, and a stack of three K-wide parts
// has rows of 3K elements: at K = 3079 (level1/011) no stacked kernel was legal, and sm80's 3xTF32 ran
// it at 0.95 ms where the bound is 0.05. Zero columns added to both operands' parts leave the product
// as it was, so the solution pads each part (solution/k_stack.h) and the kernel runs k = 3 x this.

#include <cstdint>

#include "map/dsl_writer.h"
#include "map/gemm_match.h"

namespace ucutlass::map {

// m.k itself where its parts are already whole 16-byte rows, or for anything but a GEMM's K stack
// (a conv stacks along its channels, map/channel_pad.h pads those).
int64_t stacked_part_k(const GemmMatch& m, const KernelConfig& c);

}  // namespace ucutlass::map
