#pragma once
// The knobs of a convolution kernel (a map::GemmMatch with `conv` set), for
// config_space.h's legal_candidates, which runs every combination through the
// front end exactly as for GEMMs. What CUTLASS 4.2 offers a conv:
//
//   sm90a  tile M 64 | 128 x N 64 | 128 | 256 (K 64 for 16-bit, 32 for tf32),
//          cluster 1x1, 2x1, 1x2, schedule warpspecialized (the one SM90 conv
//          schedule), stages auto; no stream-K or split-K, no raster choice
//   sm80   multistage tiles of the GEMM path (plus N = 32 for grouped convs,
//          whose tile N must divide or be a multiple of the channels per
//          group), stages 3 | 4 | 5
//
// The front end drops what the problem makes illegal (depthwise, groups on
// sm90a, channels not 16-byte aligned for TMA, strided dgrad on sm90a, tf32
// dgrad on sm90a, ...); when nothing survives, unplaced_reason says why in
// the front end's own words, so `optimize` can report it.
#include <string>
#include <vector>

#include "map/dsl_writer.h"
#include "map/gemm_match.h"
#include "search/config_space.h"

namespace ucutlass::search {

// The math paths of a conv: allowed_math_paths without K-stacked 3xTF32 (it needs
// the conv's shape), plus sm80 tensor_op for 16-bit inputs, because the sm80
// implicit GEMM takes what the sm90a TMA path cannot (grouped convs, channels not
// 16-byte aligned).
std::vector<MathChoice> conv_math_paths(graph::DType in, sol::ToleranceProfile tolerance);

// The math paths of one conv match: conv_math_paths, K-stacked 3xTF32 for a forward
// conv with groups = 1, and sm80 SIMT for a depthwise conv2d (CUTLASS's direct convolution is SIMT only; its f32 is exact,
// so every tolerance allows it).
std::vector<MathChoice> conv_math_paths(const map::GemmMatch& m, sol::ToleranceProfile tolerance);

// The knob combinations of a conv match on one math path.
std::vector<map::KernelConfig> enumerate_conv_configs(const map::GemmMatch& m, const MathChoice& path);

// Why no configuration of `m` is legal under `tolerance`: per allowed math
// path, the first error the front end gives for that path's automatic
// configuration, "sm80 tf32x3: <message>", joined by "; " (identical
// messages once). "" when some path's automatic configuration is legal.
std::string unplaced_reason(const map::GemmMatch& m, sol::ToleranceProfile tolerance);

// Moves each conv match of `r` whose candidate list is empty to r.notes, as
// "n0 (conv2d): left to PyTorch: <unplaced_reason>", and drops its list: the
// node then runs as the ATen op it was, beside the kernels that were placed.
// GEMM matches are left as they are.
void leave_unplaced_convs(const graph::OpGraph& g, sol::ToleranceProfile tolerance, map::MatchReport& r,
                          std::vector<std::vector<Candidate>>& lists);

// One solution is one program, and CUTLASS 4.2 compiles its sm90a convolution
// kernel beside no GEMM kernel (ir/lower.cpp, check_sm90_conv_alone); ucutlass's
// persistent one (cooperative, pingpong) it does. When `lists` holds a GEMM's
// list, each conv list loses its non-persistent sm90a candidates, unless that
// would empty it (the front end then says why the program is illegal).
// Returns how many candidates were dropped.
size_t drop_sm90_convs_beside_gemms(std::vector<std::vector<Candidate>>& lists);

// Every match's ranked legal candidates as `optimize` takes them: legal_candidates per match, then
// leave_unplaced_convs (which may move conv matches of `r` to its notes) and
// drop_sm90_convs_beside_gemms. One list per remaining match of `r`.
std::vector<std::vector<Candidate>> candidate_lists(const graph::OpGraph& g, sol::ToleranceProfile tolerance,
                                                    const sol::GpuProfile& gpu, map::MatchReport& r);

}  // namespace ucutlass::search
