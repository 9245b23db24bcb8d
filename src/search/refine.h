#pragma once
// Which candidates of one GEMM's ranked list to measure next: the attempt
// loop's policy, pure so that it is tested without a GPU.
//
// 1. First batch: `diverse_top` (distinct math/tile/scheduler families, at
//    most one speculative probe), because the cost model ranks families
//    better than it ranks neighbours within one.
// 2. Once the first batch is measured: the one-knob `neighbours` of the best
//    measured config (tile, cluster, schedule, scheduler, raster, stages,
//    layout), interleaved with the rest of the ranked list, so a model that
//    is wrong about a whole family still gets corrected by the ranked walk.
//    Neighbours are recomputed after every measurement: when a neighbour
//    becomes the best, the walk moves to its neighbours.
// 3. Nothing correct yet: the ranked list in order.
// A candidate measured once is never proposed again. A candidate whose outputs
// were wrong (the harness's "incorrect": it ran, but missed the tolerance)
// defers every candidate of a math path no more accurate than its own
// (accuracy_rank) behind all the others: on the H200 a TF32 GEMM that misses
// 1e-2 on normal inputs (K = 4096) misses it in every tile, and the first GPU
// campaign spent both of such problems' attempts on two TF32 tilings.
#include <cstddef>
#include <optional>
#include <vector>

#include "search/config_space.h"

namespace ucutlass::search {

inline constexpr size_t kFirstBatch = 8;  // the paper's 2 hypotheses x 4 attempts

struct Measured {
  size_t index = 0;                // into the ranked list
  std::optional<double> time_ms;   // set when correct
  bool inaccurate = false;         // it ran and its outputs missed the tolerance
};

// How close a math path comes to fp32 products and sums, least first: fp8 fast
// accumulation, f32 rounded to bf16, TF32 (10-bit mantissas), 16-bit tensor ops,
// K-stacked 3xBF16, K-stacked 3xTF32 (fp32-like products, tensor-core sums), sm80
// 3xTF32, fp32 SIMT.
int accuracy_rank(const map::KernelConfig& c);

// The position in `measured` of the fastest correct measurement, if any.
std::optional<size_t> best_attempt(const std::vector<Measured>& measured);
// Its index into the ranked list.
std::optional<size_t> best_measured(const std::vector<Measured>& measured);

// Up to `k` indices into `ranked`, in the order to try them.
std::vector<size_t> next_candidates(const std::vector<Candidate>& ranked, const std::vector<Measured>& measured, size_t k,
                                    size_t first_batch = kFirstBatch);

}  // namespace ucutlass::search
