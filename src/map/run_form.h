#pragma once
// The match a kernel config runs: the problem's own, or one rewritten for the config (a strided
// transposed conv as a sub-pixel fprop, subpixel.h; a conv with zero-padded input channels,
// channel_pad.h). The DSL writer, the cost model and the solution writer all take this one, so the
// kernel, its price and the PyTorch code around it agree.
#include "map/dsl_writer.h"
#include "map/gemm_match.h"

namespace ucutlass::map {

// The rewrite `c` asks for, applied once (a rewritten match is returned as it is); `m` when the
// config asks for none or the rewrite does not apply. With bf16_operands the run's input type is bf16
// (what the kernel reads), whatever the problem's f32 tensors are.
GemmMatch as_run(const GemmMatch& m, const KernelConfig& c);

// The element type the kernel reads: bf16 for f32 data with bf16_operands (rounded or split by the
// solution), else the problem's own. as_run's input type; the search's tile K and form eligibility.
graph::DType run_input_type(const GemmMatch& m, const KernelConfig& c);

// Whether a conv's bf16 rounding happens in the binding's channels-last copy of x (and of a weight):
// a plain bf16 kernel, not K-stacked (the split rounds) nor a pad or space-to-depth form (a .to of its
// own rounds those helpers' output). The solution writer emits it so; the cost model prices it so.
bool rounds_in_layout_copy(const KernelConfig& c);

// The input channels per group that a forward conv kernel reads as `run` (as_run's result) and `c`
// give them: tripled when K-stacked (k_stack.h stacks along the channels). 0 for a GEMM or a dgrad,
// whose K runs over other extents.
int64_t forward_channels_per_group(const GemmMatch& run, const KernelConfig& c);

}  // namespace ucutlass::map
