#pragma once
// The Speed-of-Light report of one problem: per-op costs priced on one GPU
// profile, the three bounds, a realistic estimate kept apart from them, and
// what the degenerate-problem analysis found. Definitions in docs/sol.md:
//   unfused     max(sum c_i, sum m_i)   every op reads and writes DRAM
//   per_op_sum  sum max(c_i, m_i)       ops one after another, no overlap
//   fused       max(sum c_i, M_fused)   only graph inputs, weights, outputs touch DRAM
// The fused bound is t_SOL: the lowest, and the one verdicts use.
#include <optional>
#include <string>
#include <vector>

#include "graph/op_graph.h"
#include "sol/degenerate.h"
#include "sol/op_cost.h"
#include "sol/precision_policy.h"
#include "sol/profile_selection.h"
#include "sol/wave_quantization.h"

namespace ucutlass::sol {

struct SolOptions {
  ToleranceProfile tolerance = ToleranceProfile::kernelbench;
  std::optional<MathPath> precision;  // --precision: the path every tensor-core op is priced at
  double launch_overhead_s = 2e-6;    // per kernel, realistic estimate only
};

struct OpLine {
  int node = -1;
  OpCost cost;
  PathChoice path;
  double peak_flops = 0;   // hard rate for this op's path
  std::string rate_note;   // when the path's own figure was missing
  double t_compute = 0;    // flops / hard rate
  double t_memory = 0;     // unfused bytes / hard DRAM bandwidth
  NodeFate fate = NodeFate::live;
  std::optional<WaveQuantization> waves;  // GEMM-like ops
  double t_realistic = 0;
};

struct Bound {
  double flops = 0;
  double bytes = 0;
  double t_compute = 0;
  double t_memory = 0;
  double time = 0;
  std::string dominant;  // "compute" or "memory"
};

struct SolReport {
  std::string problem_name, problem_file;
  SelectedProfile profile;
  SolOptions options;
  double hard_dram = 0, realistic_dram = 0;
  std::vector<OpLine> ops;
  Bound unfused, per_op_sum, fused;
  std::string dominant_op;  // the node contributing most to the dominant term of the fused bound
  double realistic_s = 0;
  int realistic_kernels = 0;
  DegenerateAnalysis degenerate;
  std::optional<Bound> reduced;  // fused bound of the reduced problem, when degenerate
  std::vector<std::string> unknown_ops;

  double sol_s() const { return fused.time; }
  // The bound an honest kernel cannot beat: the reduced problem's when degenerate.
  double floor_s() const { return reduced ? reduced->time : fused.time; }
};

SolReport build_sol_report(const graph::OpGraph& g, const SelectedProfile& profile, const SolOptions& options);

}  // namespace ucutlass::sol
