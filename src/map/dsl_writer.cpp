#include "map/dsl_writer.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "map/conv_match.h"
#include "map/run_form.h"
#include "map/stacked_k.h"

namespace ucutlass::map {

namespace {

std::string shape3(const ir::Shape3& s) {
  return std::to_string(s.m) + ", " + std::to_string(s.n) + ", " + std::to_string(s.k);
}

bool set(const ir::Shape3& s) { return s.m > 0 && s.n > 0 && s.k > 0; }


}  // namespace

std::string step_dsl(const ChainStep& s) {
  switch (s.kind) {
    case StepKind::bias_col: return "bias(col)";
    case StepKind::bias_row: return "bias(row)";
    case StepKind::activation: {
      std::string out(ir::name_of(s.act));
      if (s.act == ir::Activation::leaky_relu || s.act == ir::Activation::elu) out += "(" + dsl_number(s.p0) + ")";
      if (s.act == ir::Activation::clamp || s.act == ir::Activation::softplus)
        out += "(" + dsl_number(s.p0) + ", " + dsl_number(s.p1) + ")";
      return out;
    }
    case StepKind::scale:
    case StepKind::residual:
    case StepKind::offset:
    case StepKind::mul_col:
    case StepKind::mul_aux: break;  // alpha / beta, or fusable_prefix's later steps
  }
  return "";
}

namespace {

// The kernel's element types: C is read only for a fused residual.
std::string types_dsl(const FusedEpilogue& f, const std::string& in, const std::string& out) {
  return "  .with_types(a = " + in + ", b = " + in + ", c = " + (f.residual >= 0 ? out : "void") + ", d = " + out +
         ", acc = f32)\n";
}

// The fused steps (alpha and beta first), or nothing.
std::string epilogue_dsl(const FusedEpilogue& f) {
  std::vector<std::string> steps;
  if (f.alpha != 1) steps.push_back("alpha(" + dsl_number(f.alpha) + ")");
  if (f.residual >= 0) steps.push_back("beta(" + dsl_number(f.beta) + ")");
  for (const FusedStep& s : f.dsl_steps) steps.push_back(s.dsl);
  if (steps.empty()) return "";
  std::string o = "  .with_epilogue(";
  for (size_t i = 0; i < steps.size(); ++i) o += (i ? ", " : "") + steps[i];
  return o + ")\n";
}

// y = A x: the levers and alpha / beta, nothing of a tiled kernel (ir/validate_gemv.h).
std::string gemv_dsl(const GemmMatch& m, const KernelConfig& c, const FusedEpilogue& f, const std::string& in,
                     const std::string& out) {
  std::ostringstream o;
  o << "kernel " << m.name << " = gemv(m = " << m.m << ", k = " << m.k;
  if (m.batch > 1) o << ", batch = " << m.batch;
  o << ")\n";
  o << "  .with_arch(sm80)\n";
  o << types_dsl(f, in, out);
  o << "  .with_layouts(a = row)\n";
  o << "  .with_math(simt)\n";
  auto lever = [](int v) { return v > 0 ? std::to_string(v) : std::string("auto"); };
  o << "  .with_gemv(access = " << lever(c.gemv_access) << ", threads_per_row = " << lever(c.gemv_threads_per_row)
    << ", threads = " << lever(c.gemv_threads) << ")\n";
  o << epilogue_dsl(f);
  std::string text = o.str();
  text.pop_back();
  return text;
}

// A row kernel: its operation and problem, the input's and output's types, the levers.
std::string rows_dsl(const GemmMatch& m, const KernelConfig& c) {
  const RowSpec& r = *m.rows;
  std::ostringstream o;
  o << "kernel " << m.name << " = " << ir::name_of(r.op) << "(rows = " << r.rows << ", length = " << r.length;
  if (r.op == ir::RowOp::groupnorm) o << ", groups = " << r.groups << ", channel_span = " << r.channel_span;
  if (ir::row_op_normalizes(r.op))
    o << ", eps = " << dsl_number(r.eps) << ", affine = " << (r.weight >= 0 ? "on" : "off");
  o << ")\n";
  o << "  .with_arch(" << ir::name_of(c.arch) << ")\n";
  const std::string in(ir::name_of(*dsl_dtype(m.in)));
  o << "  .with_types(a = " << in;
  if (r.op != ir::RowOp::argmax) o << ", d = " << ir::name_of(*dsl_dtype(m.out));
  o << ")\n";
  auto lever = [](int v) { return v > 0 ? std::to_string(v) : std::string("auto"); };
  o << "  .with_rows(access = " << lever(c.row_access) << ", threads = " << lever(c.row_threads)
    << ", items = " << lever(c.row_items) << ", splits = " << lever(c.row_splits) << ")";
  return o.str();
}

// An attention kernel: its problem, scale and mask, f32 in and out, the levers.
std::string attention_dsl(const GemmMatch& m, const KernelConfig& c) {
  const AttentionSpec& a = *m.attention;
  std::ostringstream o;
  o << "kernel " << m.name << " = attention(batch = " << a.batch << ", seq_q = " << a.seq_q << ", seq_k = " << a.seq_k
    << ", head_dim = " << a.head_dim << ", scale = " << dsl_number(a.scale)
    << ", mask = " << (a.mask >= 0 ? "tensor" : a.causal ? "causal" : "none") << ")\n";
  o << "  .with_arch(" << ir::name_of(c.arch) << ")\n";
  o << "  .with_types(a = f32, d = f32)\n";
  auto lever = [](int v) { return v > 0 ? std::to_string(v) : std::string("auto"); };
  o << "  .with_attention(block_q = " << lever(c.attention_block_q) << ", block_k = " << lever(c.attention_block_k)
    << ", scores = " << ir::name_of(c.attention_scores) << ")";
  return o.str();
}

}  // namespace

std::string dsl_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
  }
  for (int precision = 6; precision <= 17; ++precision) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) {
      std::string s = buf;
      // The DSL's real needs a dot before any exponent: 1e+30 -> 1.0e+30.
      if (s.find('.') == std::string::npos) {
        size_t e = s.find('e');
        s.insert(e == std::string::npos ? s.size() : e, ".0");
      }
      return s;
    }
  }
  return std::to_string(v);
}

std::string KernelConfig::summary() const {
  std::ostringstream o;
  if (attention) {
    o << ir::name_of(arch) << " attention block_q " << attention_block_q << " block_k " << attention_block_k << " scores "
      << ir::name_of(attention_scores);
    return o.str();
  }
  if (rows) {
    o << ir::name_of(arch) << " rows access " << row_access << " threads " << row_threads << " items " << row_items
      << " splits " << row_splits;
    return o.str();
  }
  o << ir::name_of(arch) << " " << ir::name_of(math);
  if (bf16_operands) o << " bf16-operands";
  if (k_stack3) o << " k-stacked 3x";
  if (form == ConvForm::subpixel) o << " sub-pixel";
  if (form == ConvForm::padded_channels) o << " padded-channels";
  if (form == ConvForm::space_to_depth) o << " space-to-depth";
  if (gemv) {
    o << " gemv access " << gemv_access << " threads_per_row " << gemv_threads_per_row << " threads " << gemv_threads;
    return o.str();
  }
  if (!conv) o << " a=" << ir::name_of(layout_a) << " b=" << ir::name_of(layout_b);
  if (set(tile)) o << " " << tile.m << "x" << tile.n << "x" << tile.k;
  if (arch == ir::Arch::sm90a && set(cluster)) o << " c" << cluster.m << "x" << cluster.n << "x" << cluster.k;
  if (arch == ir::Arch::sm80 && set(warps)) o << " w" << warps.m << "x" << warps.n << "x" << warps.k;
  o << " " << ir::name_of(schedule);
  if (scheduler == ir::TileScheduler::split_k) o << " split_k(" << splits << ")";
  else if (!conv) o << " " << ir::name_of(scheduler);
  if (raster != ir::RasterOrder::heuristic) o << " " << ir::name_of(raster);
  if (swizzle > 1) o << " swizzle " << swizzle;
  if (stages > 0) o << " stages " << stages;
  if (operand_swap) o << " swapped";
  if (fuse_steps > 0) o << " fused " << fuse_steps;
  return o.str();
}

std::string kernel_dsl(const GemmMatch& given, const KernelConfig& c) {
  if (given.rows) return rows_dsl(given, c);
  if (given.attention) return attention_dsl(given, c);
  const GemmMatch m = as_run(given, c);
  const FusedEpilogue f = fusable_prefix(m, c.arch, c.gemv, c.fuse_steps);
  const std::string in(ir::name_of(*dsl_dtype(m.in))), out(ir::name_of(*dsl_dtype(m.out)));
  std::ostringstream o;
  if (c.gemv) return gemv_dsl(m, c, f, in, out);
  if (m.conv) {
    ConvSpec run = *m.conv;
    if (c.k_stack3) run.c *= 3;  // K stacking along the input channels
    o << "kernel " << m.name << " = " << conv_operation_dsl(run) << "\n";
  } else {
    o << "kernel " << m.name << " = gemm(m = " << m.m << ", n = " << m.n << ", k = " << (c.k_stack3 ? 3 * stacked_part_k(m, c) : m.k);
    if (m.batch > 1) o << ", batch = " << m.batch;
    o << ")\n";
  }
  o << "  .with_arch(" << ir::name_of(c.arch) << ")\n";
  o << types_dsl(f, in, out);
  if (!m.conv)  // convolutions are channels-last, with no layout to choose
    o << "  .with_layouts(a = " << ir::name_of(c.layout_a) << ", b = " << ir::name_of(c.layout_b) << ", c = row)\n";
  o << "  .with_math(" << ir::name_of(c.math) << ")\n";
  if (set(c.tile)) o << "  .with_tile(" << shape3(c.tile) << ")\n";
  if (c.arch == ir::Arch::sm90a && set(c.cluster)) o << "  .with_cluster(" << shape3(c.cluster) << ")\n";
  if (c.arch == ir::Arch::sm80 && set(c.warps)) o << "  .with_warps(" << shape3(c.warps) << ")\n";
  if (c.schedule != ir::KernelSchedule::auto_) o << "  .with_schedule(" << ir::name_of(c.schedule) << ")\n";
  if (c.stages > 0) o << "  .with_stages(" << c.stages << ")\n";
  if (c.operand_swap) o << "  .with_operand_swap(on)\n";
  if (c.arch == ir::Arch::sm90a && (c.raster != ir::RasterOrder::heuristic || c.swizzle > 1))
    o << "  .with_raster(" << ir::name_of(c.raster) << ", swizzle = " << c.swizzle << ")\n";
  if (c.scheduler == ir::TileScheduler::split_k)
    o << "  .with_scheduler(split_k(" << c.splits << "))\n";
  else if (c.scheduler != ir::TileScheduler::auto_)
    o << "  .with_scheduler(" << ir::name_of(c.scheduler) << ")\n";
  o << epilogue_dsl(f);
  std::string text = o.str();
  text.pop_back();
  return text;
}

std::string program_dsl(const std::string& problem_name, const std::vector<GemmMatch>& gemms,
                        const std::vector<KernelConfig>& configs) {
  std::string text = "# " + problem_name + ": written by ucutlass optimize\n";
  for (size_t i = 0; i < gemms.size(); ++i) text += kernel_dsl(gemms[i], configs[i]) + "\n";
  return text;
}

}  // namespace ucutlass::map
