#pragma once
// Which recorded programs of one problem count as no verified result because a re-measurement spoke
// against them. A program whose re-measurement failed is one (optimize writes the next fastest). When
// that failure is a tolerance miss under today's correctness rules, it also speaks for the other
// programs of the same math path whose attempts passed on other inputs than the re-measurement's: their
// pass is evidence about inputs the harness no longer draws, and the path has just missed on the ones
// it draws now. Session 25's kernelbench level1/003 (2048x4096x11008, f32 at 1e-4) shows why: seven
// K-stacked 3xTF32 tilings had passed on the CPU-drawn inputs of before 2026-12-01; on today's device
// draws every one misses the normal-distribution trial at 1.08 of the tolerance, bit for bit the same
// outputs (the tiling does not change each element's sum order), and the campaign re-measured them one
// per round, each written, failed and replaced by the next, 1.99x down to 1.44x. A program that passed
// a re-measurement of its own, or whose attempt ran on the same inputs as the failed one, stays.
//
// "Same inputs" is read from the trials themselves: each records PyTorch's own fp32 error from the
// float64 reference (native_max_abs_err), a function of the inputs alone, so equal errors for equal
// seeds and distributions mean equal draws; a result without them (rules before 2) is other inputs.
#include <set>
#include <string>
#include <vector>

#include "store/run_store.h"

namespace ucutlass::store {

struct Discredited {
  std::set<std::string> programs;    // hashes that are no verified result
  std::set<std::string> inaccurate;  // those of them shown (or taken) to miss the tolerance: their path is deferred
};

// `rows`: one problem's attempts; `confirmations`: its re-measurements.
Discredited discredited_programs(const std::vector<AttemptRow>& rows, const std::vector<ConfirmationRow>& confirmations);

// The store's rows and re-measurements of `problem`.
Discredited discredited_programs(const RunStore& store, const std::string& problem);

// A config text's math path (AttemptRow::config, "; " between kernels): each kernel's summary up to its
// layouts, tile or launch parameters ("sm90a tf32 k-stacked 3x a=row b=col 128x256x32 c2x1x1 ..." ->
// "sm90a tf32 k-stacked 3x"), an attention kernel's scores type kept.
std::string math_path(const std::string& config);

// The inputs a result's correctness trials ran on, as text that is equal for equal draws; empty when
// the result does not say (no trials, or a trial without native_max_abs_err).
std::string trial_inputs_key(const std::string& result_json);

}  // namespace ucutlass::store
