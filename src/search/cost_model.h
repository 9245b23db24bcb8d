#pragma once
// The analytic model that ranks candidates before any GPU time is spent. It
// is a ranking device, not a bound (the bound is sol/): an estimate of what a
// CUTLASS kernel of this configuration reaches on the profile's GPU.
//
//   t = max(t_math, t_memory) + launches + layout copies
//   t_math   = 2·M·N·K·batch / (rate(path) · wave eff · tile eff · tile-shape eff · schedule eff)
//   t_memory = (A + B + C + D + bias + split-K partials) / realistic DRAM bandwidth
//   wave eff = CTAs / (waves · SMs);  CTAs = tiles · splits; stream-K ≈ 0.92 (fix-up cost)
//   tile eff = M·N / (padded M · padded N)
// Tile-shape efficiencies encode known CUTLASS behaviour on Hopper: 128x256
// (16-bit) and 128x128 (f32) tiles reach the measured ceilings, smaller
// tiles lose to shared-memory bandwidth; pingpong wants tile M 64; a 2x1
// cluster gains a few percent on large problems by multicasting loads.
// Convolutions are priced as their implicit GEMM (M = N·P·Q, N = K, K =
// C·R·S/groups for fprop; the dgrad's for a transposed conv), except that the
// kernel reads the activation once (A = x, not M·K im2col elements) and the
// PyTorch side pays the layout copies: the activation to channels-last unless
// an earlier conv kernel produced it, the weight to KRSC on every call, the
// residual C, and the result back when a view needs contiguous strides.
// GEMV kernels (ir/validate_gemv.h) are memory-bound by design: t = (A + x + y (+ C)) / (realistic DRAM
// bandwidth x in-flight efficiency x peak fraction) + launch, where the in-flight efficiency follows the
// bytes a config keeps loading per SM, as measured on the H200 (cost_model.cpp).
#include <string>
#include <vector>

#include "graph/op_graph.h"
#include "map/dsl_writer.h"
#include "map/gemm_match.h"
#include "sol/gpu_profile.h"

namespace ucutlass::search {

struct Estimate {
  double seconds = 0;
  double t_math = 0, t_memory = 0, t_overhead = 0;
  double wave_efficiency = 1, tile_efficiency = 1, shape_efficiency = 1;
  long long ctas = 0;
  std::string note;  // "math-bound", "memory-bound", "launch-bound"
};

Estimate estimate_time(const map::GemmMatch& m, const map::KernelConfig& c, const sol::GpuProfile& gpu);

// What a solution leaves to PyTorch besides its kernels' own copies and unfused tails (which
// estimate_time prices): every node that is neither a matched anchor nor one of its chain steps and
// not a view, each a pass through DRAM (sol::cost_node's bytes) plus a launch. Without it a conv
// followed by a group norm, a softmax or a pool was predicted at the conv's time alone (level2
// conv+tail problems measured 3-7x their prediction on the H200, 2026-11-30).
double unmapped_ops_seconds(const graph::OpGraph& g, const std::vector<map::GemmMatch>& matches, const sol::GpuProfile& gpu);

// The SOL rate path of a kernel's math path.
sol::MathPath rate_path(ir::MathPath math, graph::DType in);

}  // namespace ucutlass::search
