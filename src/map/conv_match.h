#pragma once
// Convolution anchors of the op graph, matched beside the GEMMs by
// match_gemms (gemm_match.h) in node order: conv1d/2d/3d (fprop, with stride,
// padding, dilation and groups), conv_transpose1d/2d/3d (the forward's
// dgrad) and aten.convolution. The match is structural only: whether a kernel
// can be emitted for it (depthwise, groups on sm90a, 16-byte channels, sm90a
// strided dgrad, ...) is the front end's legality to say, asked by the search
// (search/conv_space.h), never repeated here.
//
//   conv2d(x[32,64,128,128], w[128,64,3,3], b, stride 1, pad 1) -> relu
//   => conv0 conv2d fprop, implicit GEMM m = 32*128*128, n = 128, k = 64*3*3;
//      a = x, b = w; chain: bias(col) [built into conv2d], relu
//
// The chain after a conv reads its output as [N, C, spatial...]: a bias is
// one value per channel (shape [C, 1, 1] or [1, C, 1, 1] for conv2d), a
// residual a tensor of the output's shape; scales and activations as for GEMMs.
#include <optional>
#include <string>
#include <string_view>

#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::map {

// Whether `base` (an op base name) is a convolution anchor.
bool is_conv_anchor(std::string_view base);

// Fills `m` (conv, m/n/k, a = activation, b = weight, the built-in bias) from
// the anchor node; "" on success, else why the node stays in PyTorch.
std::string match_conv_anchor(const graph::OpGraph& g, const graph::Node& n, GemmMatch& m);

// The epilogue step `node` is when it reads the conv output chain `chain`
// ([N, C, spatial...], channels on axis 1), or nullopt.
std::optional<ChainStep> match_conv_epilogue_step(const graph::OpGraph& g, int node, int chain);

// Sets each conv match's input_copy / output_copy from the graph and the
// other matches (an activation produced by an earlier conv kernel through
// layout-keeping PyTorch ops is channels-last already).
void mark_conv_layout_copies(const graph::OpGraph& g, MatchReport& r);

// The DSL operation of a conv match: "conv2d(fprop, n = 32, h = 128, ...)" or
// "conv_transpose2d(n = ..., c = Cin, k = Cout, ...)".
std::string conv_operation_dsl(const ConvSpec& s);

// Bytes the PyTorch side copies per call for layouts, per tensor: the weight to KRSC (0 for a
// parameter, whose copy the solution caches), the activation to channels-last (unless input_copy is
// false), the result back when output_copy. Each copy reads and writes its tensor once; with
// `rounding` the weight's and activation's copies read f32 and write the kernel's type (m as it runs).
struct ConvLayoutCopies {
  double weight = 0, activation = 0, result = 0;
  double total() const { return weight + activation + result; }
};
ConvLayoutCopies conv_layout_copies(const GemmMatch& m, bool rounding = false);
// Their total without rounding.
double conv_layout_copy_bytes(const GemmMatch& m);
// DRAM bytes the kernel itself moves at best: activation, weight, result once.
double conv_kernel_bytes(const GemmMatch& m);

}  // namespace ucutlass::map
