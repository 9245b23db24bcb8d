#include "sol/report_render.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ucutlass::sol {

using nlohmann::json;

namespace {

json count(double x) {
  if (std::fabs(x) < 9e15 && x == std::floor(x)) return static_cast<int64_t>(x);
  return round6(x);
}

json ms(double seconds) { return round6(seconds * 1e3); }

json bound_json(const Bound& b) {
  return {{"flops", count(b.flops)},          {"bytes", count(b.bytes)},
          {"time_compute_ms", ms(b.t_compute)}, {"time_memory_ms", ms(b.t_memory)},
          {"time_ms", ms(b.time)},              {"dominant", b.dominant}};
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string sig(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string profile_words(const SolReport& r) {
  const GpuProfile& p = r.profile.profile;
  std::string s = p.name + " [";
  s += p.datasheet ? "datasheet" : "";
  if (p.measured) s += std::string(p.datasheet ? " + " : "") + "measured" + (p.measured_date.empty() ? "" : " " + p.measured_date);
  return s + "] from " + p.file + ", chosen by " + r.profile.how;
}

}  // namespace

double round6(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return std::strtod(buf, nullptr);
}

MeasuredTime measure_against(const SolReport& r, double time_s, std::optional<double> baseline_s, double delta) {
  MeasuredTime m;
  m.time_s = time_s;
  m.baseline_s = baseline_s;
  m.delta = delta;
  std::optional<double> reduced;
  if (r.reduced) reduced = r.reduced->time;
  m.verdict = judge(time_s, r.sol_s(), reduced, baseline_s, delta);
  return m;
}

json report_json(const SolReport& r, const graph::OpGraph& g, const MeasuredTime* measured) {
  const GpuProfile& p = r.profile.profile;
  json profile = {{"name", p.name},
                  {"source", p.source},
                  {"file", p.file},
                  {"selected_by", r.profile.how},
                  {"measured_date", p.measured_date.empty() ? json(nullptr) : json(p.measured_date)},
                  {"sms", p.sms},
                  {"dram_bytes_per_s", {{"hard", round6(r.hard_dram)}, {"realistic", round6(r.realistic_dram)}}},
                  {"hard_rate_rule", "max(datasheet, measured) per path"},
                  {"warnings", r.profile.warnings}};
  json ops = json::array();
  for (const OpLine& line : r.ops) {
    const graph::Node& n = g.nodes[line.node];
    const double bytes = line.cost.bytes();
    json o = {{"node", n.id},
              {"op", n.op},
              {"kind", kind_name(line.cost.kind)},
              {"shape", line.cost.shape},
              {"fate", fate_name(line.fate)},
              {"flops", count(line.cost.flops)},
              {"bytes", count(bytes)},
              {"bytes_read", count(line.cost.bytes_read())},
              {"bytes_written", count(line.cost.bytes_written())},
              {"intensity", bytes > 0 ? json(round6(line.cost.flops / bytes)) : json(nullptr)},
              {"path", path_name(line.path.path)},
              {"path_reason", line.path.reason},
              {"peak_flops_per_s", round6(line.peak_flops)},
              {"time_compute_ms", ms(line.t_compute)},
              {"time_memory_ms", ms(line.t_memory)},
              {"time_ms", ms(std::max(line.t_compute, line.t_memory))},
              {"bound", line.cost.kind == OpKind::view ? "none"
                        : line.t_compute >= line.t_memory ? "compute" : "memory"},
              {"realistic_ms", ms(line.t_realistic)}};
    if (line.waves)
      o["waves"] = {{"tiles", line.waves->tiles},
                    {"waves", line.waves->waves},
                    {"wave_efficiency", round6(line.waves->wave_efficiency)},
                    {"tile_efficiency", round6(line.waves->tile_efficiency)}};
    if (!line.cost.note.empty()) o["note"] = line.cost.note;
    if (!line.rate_note.empty()) o["rate_note"] = line.rate_note;
    if (r.degenerate.reduced[line.node]) {
      const OpCost& c = *r.degenerate.reduced[line.node];
      o["reduced"] = {{"kind", kind_name(c.kind)}, {"shape", c.shape}, {"flops", count(c.flops)}, {"bytes", count(c.bytes())}};
    }
    ops.push_back(std::move(o));
  }
  json findings = json::array();
  for (const DegenerateFinding& f : r.degenerate.findings)
    findings.push_back({{"kind", f.kind}, {"node", f.node}, {"tensor", f.tensor}, {"message", f.message}});

  json out = {
      {"format", "ucutlass-sol-report"},
      {"version", 1},
      {"problem", {{"name", r.problem_name}, {"file", r.problem_file}}},
      {"profile", profile},
      {"policy",
       {{"tolerance_profile", tolerance_profile_name(r.options.tolerance)},
        {"precision", r.options.precision ? json(path_name(*r.options.precision)) : json(nullptr)}}},
      {"ops", ops},
      {"bounds", {{"unfused", bound_json(r.unfused)}, {"per_op_sum", bound_json(r.per_op_sum)}, {"fused", bound_json(r.fused)}}},
      {"sol_ms", ms(r.sol_s())},
      {"dominant", r.fused.dominant},
      {"dominant_op", r.dominant_op},
      {"realistic",
       {{"time_ms", ms(r.realistic_s)},
        {"kernels", r.realistic_kernels},
        {"launch_overhead_ms", ms(r.options.launch_overhead_s)}}},
      {"degenerate",
       {{"findings", findings},
        {"reduced", r.reduced ? bound_json(*r.reduced) : json(nullptr)},
        {"floor_ms", ms(r.floor_s())}}},
      {"unknown_ops", r.unknown_ops}};
  if (measured) {
    const Verdict& v = measured->verdict;
    out["measurement"] = {{"time_ms", ms(measured->time_s)},
                          {"baseline_ms", measured->baseline_s ? ms(*measured->baseline_s) : json(nullptr)},
                          {"delta", round6(measured->delta)},
                          {"gap", round6(v.gap)},
                          {"gap_reduced", v.gap_reduced ? json(round6(*v.gap_reduced)) : json(nullptr)},
                          {"score", v.score ? json(round6(*v.score)) : json(nullptr)},
                          {"verdict", v.verdict}};
    if (!v.score_note.empty()) out["measurement"]["score_note"] = v.score_note;
  }
  return out;
}

std::string report_text(const SolReport& r, const graph::OpGraph& g, const MeasuredTime* measured) {
  std::ostringstream o;
  o << "SOL report: " << (r.problem_name.empty() ? "(unnamed)" : r.problem_name)
    << (r.problem_file.empty() ? "" : " (" + r.problem_file + ")") << "\n";
  o << "profile: " << profile_words(r) << "\n";
  for (const std::string& w : r.profile.warnings) o << "warning: " << w << "\n";
  o << "policy: " << tolerance_profile_name(r.options.tolerance) << " tolerances"
    << (r.options.precision ? ", tensor-core ops at " + path_name(*r.options.precision) + " (--precision)" : "") << "\n\n";
  o << pad("node", 6) << pad("op", 34) << pad("kind", 15) << pad("GFLOP", 11) << pad("MB", 11) << pad("path", 8)
    << pad("compute ms", 12) << pad("memory ms", 12) << "bound\n";
  for (const OpLine& line : r.ops) {
    if (line.cost.kind == OpKind::view) continue;
    const graph::Node& n = g.nodes[line.node];
    std::string bound = line.t_compute >= line.t_memory ? "compute" : "memory";
    if (line.fate != NodeFate::live) bound += " [" + fate_name(line.fate) + "]";
    o << pad(n.id, 6) << pad(n.op, 34) << pad(kind_name(line.cost.kind), 15) << pad(sig(line.cost.flops / 1e9), 11)
      << pad(sig(line.cost.bytes() / 1e6), 11) << pad(path_name(line.path.path), 8)
      << pad(sig(line.t_compute * 1e3), 12) << pad(sig(line.t_memory * 1e3), 12) << bound << "\n";
    if (!line.cost.shape.empty()) o << "      " << line.cost.shape << "\n";
  }
  o << "\nbounds (ms): fused " << sig(r.fused.time * 1e3) << " (" << r.fused.dominant << ")"
    << ", per-op sum " << sig(r.per_op_sum.time * 1e3) << ", unfused " << sig(r.unfused.time * 1e3) << " ("
    << r.unfused.dominant << ")\n";
  o << "t_SOL = fused bound = " << sig(r.sol_s() * 1e3) << " ms: " << sig(r.fused.flops / 1e9) << " GFLOP, "
    << sig(r.fused.bytes / 1e6) << " MB compulsory; dominant " << r.fused.dominant << " term, mostly " << r.dominant_op
    << "\n";
  o << "realistic estimate: " << sig(r.realistic_s * 1e3) << " ms (" << r.realistic_kernels
    << " kernel(s), measured ceilings, tile and wave quantization; not a bound)\n";
  for (const OpLine& line : r.ops)
    if (line.waves && line.waves->wave_efficiency < 0.9)
      o << "  " << g.nodes[line.node].id << ": " << line.waves->tiles << " tiles in " << line.waves->waves
        << " wave(s), wave efficiency " << fixed(line.waves->wave_efficiency * 100, 0)
        << " %: the estimate assumes stream-K or split-K recovers it\n";
  if (!r.unknown_ops.empty()) {
    o << "unknown ops (priced as element-wise, a floor):";
    for (const std::string& u : r.unknown_ops) o << " " << u << ";";
    o << "\n";
  }
  if (r.degenerate.degenerate()) {
    o << "\ndegenerate problem:\n";
    for (const DegenerateFinding& f : r.degenerate.findings) o << "  " << f.kind << ": " << f.message << "\n";
    if (r.reduced)
      o << "  reduced problem: " << sig(r.reduced->time * 1e3) << " ms (" << sig(r.reduced->flops / 1e9) << " GFLOP, "
        << sig(r.reduced->bytes / 1e6) << " MB, " << r.reduced->dominant << ")\n";
  }
  if (measured) {
    const Verdict& v = measured->verdict;
    o << "\nmeasured " << sig(measured->time_s * 1e3) << " ms: gap " << fixed(v.gap, 2) << "x SOL";
    if (v.gap_reduced) o << " (" << fixed(*v.gap_reduced, 2) << "x the reduced problem)";
    if (v.score) o << ", SOL-ExecBench score " << fixed(*v.score, 3);
    if (!v.score_note.empty()) o << " (" << v.score_note << ")";
    o << "\nverdict: " << v.verdict;
    if (v.verdict == "too-fast")
      o << " (below the bound by more than " << fixed(measured->delta * 100, 0) << " %: no honest kernel is this fast)";
    if (v.verdict == "exploits-degeneracy") o << " (below the traced graph's bound, but not the reduced problem's)";
    o << "\n";
  }
  return o.str();
}

}  // namespace ucutlass::sol
