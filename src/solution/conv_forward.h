#pragma once
// The forward lines of one convolution kernel in a ModelNew (modelnew_writer.h).
//
// The torch binding takes PyTorch's tensors as they are ([N, C, spatial...]
// activations, [K, C/groups, filter...] weights; a ConvTranspose weight
// [Cin, Cout/groups, filter...] for a transposed conv, which runs as dgrad)
// and copies each operand that is not channels-last in memory to it (one read
// and one write, through its tiled transpose kernel). A weight parameter goes in
// as its channels-last copy, made by the binding's `channels_last` once per
// parameter version (_ucutlass_cached notices in-place updates), which saves a
// launch per call; another weight is converted on each call. The result has PyTorch's shape in
// channels-last memory, which every later ATen op accepts, so the binding's
// `contiguous` (the same tiled transpose back) is added only when a view follows
// or an op that would copy it itself (ConvSpec::output_copy).
//
//   t3 = _ucutlass.conv0(x=t2, w=_ucutlass_cached(self, "conv0.w", t0, lambda: _ucutlass.channels_last(t0)),
//                        bias=t1.reshape(-1))
//   _conv0 = _ucutlass.conv0(dy=t2, w=t0)          # bias not fused (sm80)
//   t3 = _conv0 + t1.reshape(1, -1, 1, 1)
//
// Over operands rounded to bf16 (map::KernelConfig::bf16_operands) the binding's copy rounds them:
//   t3 = _ucutlass.conv0(x=_ucutlass.channels_last(t2, True),
//                        w=_ucutlass_cached(self, "conv0.w", t0, lambda: _ucutlass.channels_last(t0, True)))
//
// A K-stacked 3xTF32 conv (map::KernelConfig::k_stack3, k_stack.h) gets its x and w stacked along
// the channels, already channels-last, so the binding copies neither:
//   t3 = _ucutlass.conv0(x=_ucutlass_stack3(t2, True, 1), w=_ucutlass_stack3_param(self, "conv0.b", t0, ...))
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::solution {

// The Python helper a solution defines when a conv kernel runs with zero-padded input channels
// (map::KernelConfig::pad_channels):
//   t3 = _ucutlass.conv0(x=_ucutlass_pad_channels(t2, 4), w=_ucutlass_cached(self, "conv0.w", t0, ...))
extern const std::string_view kChannelPadHelpers;

// The Python helpers a solution defines when a conv kernel runs over space-to-depth blocks
// (map::KernelConfig::space_to_depth):
//   t3 = _ucutlass.conv0(x=_ucutlass_space_to_depth(t2, (2, 2), (3, 3), (115, 115)),
//                        w=_ucutlass_cached(self, "conv0.w", t0, lambda: _ucutlass_space_to_depth_filter(t0, (2, 2))))
extern const std::string_view kSpaceToDepthHelpers;

// `bf16`: the kernel reads bf16 roundings of the f32 operands (map::KernelConfig::bf16_operands).
std::string conv_forward_lines(const graph::OpGraph& g, const map::GemmMatch& m, const map::FusedEpilogue& fe,
                               bool k_stack3 = false, bool bf16 = false);

// A conv operand expression in the kernels' channels-last memory, rounded to bf16 on the way when
// `bf16` (one pass of the binding's tiled transpose): _ucutlass.channels_last(t2, True).
std::string rounded_channels_last(const std::string& expr, bool bf16);

// A form helper's channels-last result rounded to bf16 when `bf16`: expr.to(torch.bfloat16).
std::string rounded_form(const std::string& expr, bool bf16);

// The used dimensions of a per-(d, h, w) array as a Python tuple: "(2, 2)" for a conv2d, "(3,)" for a conv1d.
std::string spatial_tuple(const std::array<int64_t, 3>& v, int dims);

// A bias left unfused (chain step 0, one value per output channel) added to expr:
//   (_conv0 + t1.reshape(1, -1, 1, 1))
std::string plus_channel_bias(const graph::OpGraph& g, const map::GemmMatch& m, const std::string& expr);

// expr, or expr copied back to PyTorch's contiguous memory when the spec says a consumer needs it:
//   _ucutlass.contiguous(_ucutlass.conv0(x=t2, w=t0))
std::string back_to_contiguous(const map::ConvSpec& s, const std::string& expr);

// One comment line on the layout copies this kernel costs per call, for the solution's header.
// `rounding`: the copies also round the f32 data to the kernel's bf16 (bf16_operands, plain form).
std::string conv_layout_comment(const map::GemmMatch& m, bool rounding = false);

}  // namespace ucutlass::solution
