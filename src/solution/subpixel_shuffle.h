#pragma once
// What a solution adds around a transposed conv run as a sub-pixel convolution
// (map::KernelConfig::subpixel, map/subpixel.h): the weight rewritten for the fprop kernel, and the
// pixel shuffle and crop that turn the kernel's phase channels into the transposed conv's output.
//
//   _z_conv0 = _ucutlass.conv0(x=t2, w=_ucutlass_cached(self, "conv0.w", t0,
//                              lambda: _ucutlass_subpixel_filter(t0, (2, 2))), bias=t1.reshape(-1).repeat(4))
//   t3 = _ucutlass_pixel_shuffle(_z_conv0, (2, 2), (1, 1), (127, 127))
#include <string>
#include <string_view>

#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::solution {

// The Python helpers a solution defines once when any of its kernels is a sub-pixel conv.
extern const std::string_view kSubpixelHelpers;

// The forward lines of a sub-pixel conv kernel: `m` is the rewritten match (its conv has `subpixel`),
// `out_tensor` the tensor the fused steps end in, `fused_bias` the fused bias operand or -1, `fused_bias2`
// a second per-column vector summed with it (map::FusedEpilogue::bias2) or -1.
// With `k_stack3` x and the rewritten weight are stacked along their channels (k_stack.h).
std::string subpixel_forward_lines(const graph::OpGraph& g, const map::GemmMatch& m, int out_tensor, int fused_bias,
                                   int fused_bias2, int residual, bool bias_left, bool k_stack3, bool bf16 = false);

}  // namespace ucutlass::solution
