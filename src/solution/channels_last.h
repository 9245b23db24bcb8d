#pragma once
// Which tensors of a solution live in channels-last memory, and the one ATen op the writer then
// rewrites: a softmax over the channels.
//
// A conv kernel returns PyTorch's [N, C, spatial...] shape in channels-last memory (conv_forward.h), and
// element-wise ATen ops keep their input's memory format. A softmax over dim 1 of such a tensor reduces
// over its innermost memory dimension, yet PyTorch takes the strided (spatial) path for dim 1: on the
// H200, level2/023 (conv 3x3 + softmax over 128 channels of [32, 128, 128, 128] f32) measured 1.84 ms
// against 0.39 ms for the same conv with an element-wise tail (level2/019), fixed-budget campaign
// 2026-11-30. Over the moved view the channels are the last, contiguous dimension, PyTorch's row kernel:
//
//   t4 = torch.ops.aten.softmax.int(t3.movedim(1, -1), -1).movedim(-1, 1)
//
// The values are the same whatever the memory format; only the kernel PyTorch picks differs.
#include <set>
#include <vector>

#include "graph/op_graph.h"
#include "map/gemm_match.h"

namespace ucutlass::solution {

// The channels-last tensors: each conv kernel's result (the last fused step's output) unless copied back
// to contiguous for a view or written by a pixel shuffle, and the outputs of element-wise ops that
// read one of them and keep its shape, in node order.
std::set<int> channels_last_tensors(const graph::OpGraph& g, const std::vector<map::GemmMatch>& gemms,
                                    const std::vector<map::FusedEpilogue>& fused);

// Whether `n` is a softmax or log_softmax over dim 1 (positional) of a channels-last tensor of rank >= 3.
bool is_channel_softmax(const graph::OpGraph& g, const graph::Node& n, const std::set<int>& channels_last);

}  // namespace ucutlass::solution
