#include "sol/sol_report.h"

#include <algorithm>
#include <map>

#include "support/phase_timer.h"

namespace ucutlass::sol {

using graph::OpGraph;

namespace {

Bound make_bound(double flops, double bytes, double t_compute, double t_memory) {
  Bound b{flops, bytes, t_compute, t_memory, std::max(t_compute, t_memory), ""};
  b.dominant = t_compute >= t_memory ? "compute" : "memory";
  return b;
}

// Each tensor's storage: views read and write through to the tensor they view.
std::vector<int> storage_roots(const OpGraph& g, const std::vector<OpCost>& costs) {
  std::vector<int> root(g.tensors.size());
  for (size_t t = 0; t < root.size(); ++t) root[t] = static_cast<int>(t);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const graph::Node& node = g.nodes[n];
    if (costs[n].kind != OpKind::view || node.inputs.empty()) continue;
    for (int o : node.outputs) root[o] = root[node.inputs[0]];
  }
  return root;
}

// Compulsory DRAM bytes when every intermediate stays on chip: each graph
// source read once by the ops in `counted` (at the most any of them needs),
// each graph output written once. `root`: storage_roots of the graph.
double fused_bytes(const OpGraph& g, const std::vector<int>& root, const std::vector<OpCost>& costs,
                   const std::vector<bool>& counted) {
  const std::vector<int> producer = g.producers();
  std::map<int, double> reads;
  for (size_t n = 0; n < costs.size(); ++n) {
    if (!counted[n]) continue;
    for (const TensorAccess& a : costs[n].reads) {
      int s = root[a.tensor];
      if (producer[s] >= 0) continue;
      reads[s] = std::max(reads[s], a.bytes);
    }
  }
  double total = 0;
  for (const auto& [_, b] : reads) total += b;
  std::vector<int> written;
  for (int t : g.outputs) {
    if (producer[root[t]] < 0) continue;  // an output that views an input needs no write
    if (std::find(written.begin(), written.end(), t) != written.end()) continue;
    written.push_back(t);
    total += static_cast<double>(g.tensors[t].bytes());
  }
  return total;
}

// Bytes per element of the operands a tensor-core path multiplies, where a kernel can hold them in
// that width (0: no narrower stored form: TF32 and 3xTF32 keep 4-byte words, SIMT the data's own).
int stored_operand_bytes(MathPath p) {
  switch (p) {
    case MathPath::fp16:
    case MathPath::bf16: return 2;
    case MathPath::fp8: return 1;
    default: return 0;
  }
}

// A parameter is the same tensor on every call, so an honest solution may keep it in the narrower
// operand type its op's path allows, converted once and rebuilt only when the parameter changes (the
// solutions' param cache, src/solution/param_cache.h): a tensor-core op's parameter reads are priced at
// that width. Inputs are fresh on every call and are read at their own. (Without this, a Linear whose
// weight dominates the bytes, level2/014 under kernelbench-v0.1, ran "below SOL" with its weight cached
// in bf16: a false gaming verdict.)
void narrow_parameter_reads(const OpGraph& g, const std::vector<int>& root, MathPath path, OpCost& cost) {
  const int width = stored_operand_bytes(path);
  if (width == 0) return;
  for (TensorAccess& a : cost.reads) {
    const graph::Tensor& t = g.tensors[root[a.tensor]];
    const int own = graph::dtype_bytes(t.dtype);
    if (t.is_parameter() && own > width) a.bytes *= static_cast<double>(width) / own;
  }
}

constexpr int64_t kMinSplitK = 1024;
constexpr double kStreamKEfficiency = 0.85;

bool launches_kernel(OpKind k) {
  return k != OpKind::view && k != OpKind::elementwise && k != OpKind::copy && k != OpKind::creation;
}

}  // namespace

SolReport build_sol_report(const OpGraph& g, const SelectedProfile& profile, const SolOptions& options) {
  PhaseTimer timer("sol.price");
  SolReport r;
  r.problem_name = g.problem_name;
  r.problem_file = g.problem_file;
  r.profile = profile;
  r.options = options;
  const GpuProfile& gpu = profile.profile;
  r.hard_dram = hard_dram_bandwidth(gpu);
  r.realistic_dram = realistic_dram_bandwidth(gpu);

  std::vector<OpCost> costs;
  costs.reserve(g.nodes.size());
  for (const graph::Node& n : g.nodes) costs.push_back(cost_node(g, n));
  r.degenerate = analyze_degenerate(g, costs, options.tolerance);

  const std::vector<int> root = storage_roots(g, costs);
  double sum_c = 0, sum_m = 0, sum_max = 0, sum_flops = 0, sum_bytes = 0, sum_c_realistic = 0;
  double reduced_c = 0, reduced_flops = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    OpLine line;
    line.node = static_cast<int>(i);
    line.fate = r.degenerate.fate[i];
    const bool tensor = is_gemm_like(costs[i].kind);
    line.path = tensor ? choose_tensor_path(costs[i].math_dtype, options.tolerance, options.precision)
                       : simt_path(costs[i].math_dtype);
    if (tensor) narrow_parameter_reads(g, root, line.path.path, costs[i]);
    line.cost = costs[i];
    Rate hard = hard_flops(gpu, line.path.path);
    line.peak_flops = hard.value;
    line.rate_note = hard.note;
    line.t_compute = hard.value > 0 ? line.cost.flops / hard.value : 0;
    line.t_memory = r.hard_dram > 0 ? line.cost.bytes() / r.hard_dram : 0;

    double rate = realistic_flops(gpu, line.path.path).value;
    double efficiency = 1;
    if (tensor && line.cost.gemm && line.cost.kind != OpKind::gemv && line.cost.kind != OpKind::conv_depthwise) {
      TileShape tile = default_tile(line.path.path);
      if (line.cost.kind == OpKind::attention) tile.bn = std::max<int64_t>(line.cost.gemm->n, 1);
      line.waves = quantize(*line.cost.gemm, tile, gpu.sms);
      efficiency = line.waves->wave_efficiency * line.waves->tile_efficiency;
      // A good kernel answers a poor last wave with stream-K or split-K, at
      // the price of a fix-up pass; assume it does when K is deep enough to split.
      if (line.waves->wave_efficiency < 0.9 && line.cost.gemm->k >= kMinSplitK)
        efficiency = std::max(efficiency, line.waves->tile_efficiency * kStreamKEfficiency);
    }
    const double c_realistic = rate > 0 && efficiency > 0 ? line.cost.flops / (rate * efficiency) : 0;
    line.t_realistic = std::max(c_realistic, r.realistic_dram > 0 ? line.cost.bytes() / r.realistic_dram : 0);

    sum_flops += line.cost.flops;
    sum_bytes += line.cost.bytes();
    sum_c += line.t_compute;
    sum_m += line.t_memory;
    sum_max += std::max(line.t_compute, line.t_memory);
    sum_c_realistic += c_realistic;
    if (launches_kernel(line.cost.kind)) ++r.realistic_kernels;
    if (line.cost.kind == OpKind::unknown) r.unknown_ops.push_back(g.nodes[i].id + " " + g.nodes[i].op);

    if (line.fate == NodeFate::live || line.fate == NodeFate::collapsed) {
      const OpCost& c = r.degenerate.reduced[i] ? *r.degenerate.reduced[i] : line.cost;
      reduced_flops += c.flops;
      reduced_c += hard.value > 0 ? c.flops / hard.value : 0;
    }
    r.ops.push_back(std::move(line));
  }

  std::vector<bool> all(g.nodes.size(), true);
  const double m_fused = fused_bytes(g, root, costs, all);
  r.unfused = make_bound(sum_flops, sum_bytes, sum_c, sum_m);
  r.per_op_sum = make_bound(sum_flops, sum_bytes, sum_c, sum_m);
  r.per_op_sum.time = sum_max;
  r.fused = make_bound(sum_flops, m_fused, sum_c, r.hard_dram > 0 ? m_fused / r.hard_dram : 0);

  // The op that weighs most in the fused bound's dominant term.
  double best = -1;
  for (const OpLine& line : r.ops) {
    double w = r.fused.dominant == "compute" ? line.t_compute : line.t_memory;
    if (w > best) {
      best = w;
      r.dominant_op = g.nodes[line.node].id;
    }
  }

  r.realistic_kernels = std::max(r.realistic_kernels, 1);
  r.realistic_s = std::max(sum_c_realistic, r.realistic_dram > 0 ? m_fused / r.realistic_dram : 0) +
                  options.launch_overhead_s * r.realistic_kernels;

  if (r.degenerate.degenerate()) {
    std::vector<OpCost> reduced_costs = costs;
    std::vector<bool> counted(g.nodes.size(), false);
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      counted[i] = r.ops[i].fate == NodeFate::live || r.ops[i].fate == NodeFate::collapsed;
      if (r.degenerate.reduced[i]) reduced_costs[i] = *r.degenerate.reduced[i];
    }
    const double m = fused_bytes(g, root, reduced_costs, counted);
    r.reduced = make_bound(reduced_flops, m, reduced_c, r.hard_dram > 0 ? m / r.hard_dram : 0);
  }
  return r;
}

}  // namespace ucutlass::sol
