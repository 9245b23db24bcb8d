#include "ir/canonical.h"

#include <cstdio>

#include "support/sha256.h"

namespace ucutlass::ir {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string shape(const Shape3& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

}  // namespace

std::string expr_text(const GemmKernel& k, const EpiExpr& e) {
  switch (e.op) {
    case EpiExpr::Op::x: return "x";
    case EpiExpr::Op::acc: return "acc";
    case EpiExpr::Op::c: return "c";
    case EpiExpr::Op::constant: return num(e.value);
    case EpiExpr::Op::extra: return k.extras.at(e.extra).name;
    case EpiExpr::Op::neg: return "(neg " + expr_text(k, e.args[0]) + ")";
    case EpiExpr::Op::add: return "(add " + expr_text(k, e.args[0]) + " " + expr_text(k, e.args[1]) + ")";
    case EpiExpr::Op::sub: return "(sub " + expr_text(k, e.args[0]) + " " + expr_text(k, e.args[1]) + ")";
    case EpiExpr::Op::mul: return "(mul " + expr_text(k, e.args[0]) + " " + expr_text(k, e.args[1]) + ")";
    case EpiExpr::Op::div: return "(div " + expr_text(k, e.args[0]) + " " + expr_text(k, e.args[1]) + ")";
    case EpiExpr::Op::call: {
      std::string s = "(" + std::string(name_of(e.fn));
      for (const EpiExpr& a : e.args) s += " " + expr_text(k, a);
      return s + ")";
    }
  }
  return "?";
}

std::string conv_text(const ConvProblem& p) {
  auto v = [](int64_t x) { return std::to_string(x); };
  auto window = [&](const ConvWindow& w) { return v(w.value[0]) + "," + v(w.value[1]) + "," + v(w.value[2]); };
  return std::string(conv_op_name(p)) + "(" + std::string(name_of(p.mode)) + ",n=" + v(p.n.value) +
         ",dhw=" + v(p.input[0].value) + "," + v(p.input[1].value) + "," + v(p.input[2].value) + ",c=" +
         v(p.c.value) + ",k=" + v(p.k.value) + ",trs=" + v(p.filter[0].value) + "," + v(p.filter[1].value) + "," +
         v(p.filter[2].value) + ",pad=" + window(p.pad) + ",stride=" + window(p.stride) +
         ",dilation=" + window(p.dilation) + ",groups=" + v(p.groups.value) + ")";
}

// A row kernel has none of a GEMM's settings: its operation, extents, types and levers.
std::string row_canonical_text(const GemmKernel& k) {
  const RowProblem& r = *k.rows;
  const RowLevers& l = k.row_levers;
  std::string s = "kernel " + k.name + " = " + std::string(name_of(r.op)) + "(rows=" + std::to_string(r.rows) +
                  ",length=" + std::to_string(r.length) + ")\n";
  auto line = [&](const std::string& key, const std::string& value) { s += "  " + key + "=" + value + "\n"; };
  if (r.op == RowOp::groupnorm)
    line("groups", std::to_string(r.groups) + ",channel_span=" + std::to_string(r.channel_span));
  if (row_op_normalizes(r.op)) line("norm", "eps=" + num(r.eps) + ",affine=" + (r.affine ? "on" : "off"));
  line("arch", std::string(name_of(k.arch.value)));
  line("types", std::string(name_of(k.a.value)) + "," + std::string(name_of(k.d.value)));
  line("rows", "access=" + std::to_string(l.access.value) + ",threads=" + std::to_string(l.threads.value) +
                   ",items=" + std::to_string(l.items.value) + ",splits=" + std::to_string(l.splits.value));
  return s;
}

// An attention kernel: its problem, mask, scale and levers.
std::string attention_canonical_text(const GemmKernel& k) {
  const AttentionProblem& a = *k.attention;
  std::string s = "kernel " + k.name + " = attention(batch=" + std::to_string(a.batch) + ",seq_q=" +
                  std::to_string(a.seq_q) + ",seq_k=" + std::to_string(a.seq_k) + ",head_dim=" +
                  std::to_string(a.head_dim) + ")\n";
  auto line = [&](const std::string& key, const std::string& value) { s += "  " + key + "=" + value + "\n"; };
  line("scale", num(a.scale));
  line("mask", std::string(name_of(a.mask)));
  line("arch", std::string(name_of(k.arch.value)));
  line("types", std::string(name_of(k.a.value)) + "," + std::string(name_of(k.d.value)));
  line("attention", "block_q=" + std::to_string(k.attention_levers.block_q.value) +
                        ",block_k=" + std::to_string(k.attention_levers.block_k.value) +
                        ",scores=" + std::string(name_of(k.attention_levers.scores.value)));
  return s;
}

std::string canonical_text(const GemmKernel& k) {
  if (k.is_rows()) return row_canonical_text(k);
  if (k.is_attention()) return attention_canonical_text(k);
  std::string s = "kernel " + k.name + " = " + (k.is_gemv() ? "gemv" : "gemm") + "(m=" + std::to_string(k.m.value) + ",n=" +
                  std::to_string(k.n.value) + ",k=" + std::to_string(k.k.value) +
                  ",batch=" + std::to_string(k.batch.value) +
                  (k.is_grouped() ? ",groups=" + std::to_string(k.groups->value) : "") + ")\n";
  auto line = [&](const std::string& key, const std::string& value) { s += "  " + key + "=" + value + "\n"; };
  if (k.is_conv()) line("conv", conv_text(*k.conv));
  if (k.is_gemv())
    line("gemv", "access=" + std::to_string(k.gemv_levers.access.value) +
                     ",threads_per_row=" + std::to_string(k.gemv_levers.threads_per_row.value) +
                     ",threads=" + std::to_string(k.gemv_levers.threads.value));
  line("arch", std::string(name_of(k.arch.value)));
  line("types", std::string(name_of(k.a.value)) + "," + std::string(name_of(k.b.value)) + "," +
                    std::string(name_of(k.c.value)) + "," + std::string(name_of(k.d.value)) + "," +
                    std::string(name_of(k.acc.value)));
  line("layouts", std::string(name_of(k.layout_a.value)) + "," + std::string(name_of(k.layout_b.value)) + "," +
                      std::string(name_of(k.layout_c.value)));
  line("math", std::string(name_of(k.math.value)));
  line("tile", shape(k.tile.value));
  line("cluster", shape(k.cluster.value));
  line("warps", shape(k.warps.value));
  line("schedule", std::string(name_of(k.schedule.value)) + "," +
                       std::string(name_of(k.epilogue_schedule.value)));
  line("stages", std::to_string(k.stages.value));
  line("alignment", std::to_string(k.align_a.value) + "," + std::to_string(k.align_b.value) + "," +
                        std::to_string(k.align_c.value));
  line("raster", std::string(name_of(k.raster.value)) + ",swizzle=" + std::to_string(k.swizzle.value));
  line("scheduler", std::string(name_of(k.scheduler.value)) + ",splits=" + std::to_string(k.splits.value));
  // Only when on, so programs without a swap keep the hashes they always had.
  if (k.swaps_operands()) line("operand_swap", "on");
  line("alpha", num(k.alpha.value));
  line("beta", num(k.beta.value));
  for (const EpilogueStep& e : k.epilogue) {
    switch (e.kind) {
      case EpilogueStep::Kind::bias:
        line("bias", std::string(name_of(e.bias)) + "," + std::string(name_of(e.bias_type)));
        break;
      case EpilogueStep::Kind::activation:
        line("act", std::string(name_of(e.act)) + "," + num(e.p0) + "," + num(e.p1));
        break;
      case EpilogueStep::Kind::expr: line("expr", e.label + "," + expr_text(k, e.expr)); break;
      case EpilogueStep::Kind::aux_store: line("aux_store", k.extras.at(e.extra).name); break;
      case EpilogueStep::Kind::reduce: line("reduce", e.label + "," + k.extras.at(e.extra).name); break;
    }
  }
  for (const EpilogueExtra& x : k.extras)
    line("extra", x.name + "," + std::string(name_of(x.kind)) + "," + std::string(name_of(x.type)) +
                      (x.is_output ? ",out" : ",in"));
  return s;
}

std::string canonical_text(const Program& p) {
  std::string s = "ucutlass-ir 1\n";
  for (const GemmKernel& k : p.kernels) s += canonical_text(k);
  for (const Pipeline& pipe : p.pipelines) s += canonical_text(p, pipe);
  return s;
}

std::string canonical_text(const Program& p, const Pipeline& pipe) {
  auto names = [&](const std::vector<int>& ids) {
    std::string out;
    for (int i : ids) out += (out.empty() ? "" : ",") + pipe.tensors[i].name;
    return out;
  };
  std::string s = "pipeline " + pipe.name + "\n  inputs=" + names(pipe.inputs) + "\n";
  for (const PipelineStep& step : pipe.steps) {
    const GemmKernel& k = p.kernels[step.kernel];
    s += "  step=" + k.name;
    for (const PipelineBinding& b : step.bindings) s += "," + operand_name(k, b) + "=" + pipe.tensors[b.tensor].name;
    s += "\n";
  }
  return s + "  outputs=" + names(pipe.outputs) + "\n";
}

std::string program_hash(const Program& p) { return sha256_hex(canonical_text(p)).substr(0, 16); }

}  // namespace ucutlass::ir
