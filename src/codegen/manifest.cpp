#include "codegen/manifest.h"

#include <nlohmann/json.hpp>

#include "codegen/conv_bindings.h"
#include "codegen/cutlass_names.h"
#include "codegen/pipeline_bindings.h"

namespace ucutlass::codegen {

namespace {

using Json = nlohmann::ordered_json;

// The four C entries every kernel kind exports (capi_entry.h), by name.
Json symbols_json(const std::string& kernel) {
  return Json{{"run", "ucutlass_" + kernel + "_run"},
              {"run_with_workspace", "ucutlass_" + kernel + "_run_with_workspace"},
              {"workspace_size", "ucutlass_" + kernel + "_workspace_size"},
              {"signature", "ucutlass_" + kernel + "_signature"}};
}
using ir::name_of;

std::string str(std::string_view s) { return std::string(s); }

Json shape_json(const ir::Shape3& s) { return Json::array({s.m, s.n, s.k}); }

// A matrix of the contract; shapes use "M", "N", "K", "batch" symbols, so the
// same text describes fixed and runtime extents (see "extents").
Json matrix(const char* name, ir::DType t, ir::Layout l, const char* rows, const char* cols, bool batched) {
  Json shape = Json::array();
  if (batched) shape.push_back("batch");
  shape.push_back(rows);
  shape.push_back(cols);
  return Json{{"name", name}, {"dtype", str(name_of(t))}, {"torch_dtype", str(ir::torch_dtype(t))},
              {"layout", str(name_of(l))}, {"shape", shape}};
}

// An expression as nested JSON arrays, for callers that evaluate it (the GPU
// checks): "x", "acc", "c", a number, {"extra": i}, or [op, args...] with op
// one of neg, add, sub, mul, div or a function name (relu, min, clamp, ...).
Json expr_json(const ir::EpiExpr& e) {
  using Op = ir::EpiExpr::Op;
  switch (e.op) {
    case Op::x: return "x";
    case Op::acc: return "acc";
    case Op::c: return "c";
    case Op::constant: return e.value;
    case Op::extra: return Json{{"extra", e.extra}};
    default: break;
  }
  Json out = Json::array();
  out.push_back(e.op == Op::neg   ? "neg"
                : e.op == Op::add ? "add"
                : e.op == Op::sub ? "sub"
                : e.op == Op::mul ? "mul"
                : e.op == Op::div ? "div"
                                  : str(name_of(e.fn)));
  for (const ir::EpiExpr& a : e.args) out.push_back(expr_json(a));
  return out;
}

Json extras_json(const ir::GemmKernel& k) {
  Json out = Json::array();
  for (size_t i = 0; i < k.extras.size(); ++i) {
    const ir::EpilogueExtra& x = k.extras[i];
    Json shape = Json::array();
    switch (x.kind) {
      case ir::ExtraKind::scalar: shape.push_back(1); break;
      // A reduction writes one vector per batch; vectors read are shared by every batch.
      case ir::ExtraKind::row:
      case ir::ExtraKind::col:
        if (x.is_output && k.batch.value != 1) shape.push_back("batch");
        shape.push_back(x.kind == ir::ExtraKind::row ? "M" : "N");
        break;
      case ir::ExtraKind::matrix:
        if (k.batch.value != 1) shape.push_back("batch");
        shape.push_back("M");
        shape.push_back("N");
        break;
    }
    Json e{{"index", i}, {"name", x.name}, {"kind", str(name_of(x.kind))}, {"role", x.is_output ? "output" : "input"},
           {"dtype", str(name_of(x.type))}, {"torch_dtype", str(ir::torch_dtype(x.type))}, {"shape", shape}};
    if (x.kind == ir::ExtraKind::matrix) e["layout"] = str(name_of(k.layout_c.value));
    out.push_back(e);
  }
  return out;
}

Json epilogue_json(const ir::GemmKernel& k) {
  Json steps = Json::array();
  for (const ir::EpilogueStep& s : k.epilogue) {
    if (s.kind == ir::EpilogueStep::Kind::expr) {
      steps.push_back(Json{{"op", "expr"}, {"label", s.label}, {"expr", expr_json(s.expr)}});
    } else if (s.kind == ir::EpilogueStep::Kind::aux_store) {
      steps.push_back(Json{{"op", "aux_store"}, {"extra", s.extra}});
    } else if (s.kind == ir::EpilogueStep::Kind::reduce) {
      const bool per_row = k.extras.at(s.extra).kind == ir::ExtraKind::row;
      steps.push_back(Json{{"op", s.label}, {"reduce", str(name_of(s.reduce))},
                           {"over", per_row ? "N" : "M"}, {"extra", s.extra}});
    } else if (s.kind == ir::EpilogueStep::Kind::bias) {
      steps.push_back(Json{{"op", "bias"}, {"broadcast", str(name_of(s.bias))},
                           {"length", s.bias == ir::BiasKind::col ? "N" : "M"},
                           {"dtype", str(name_of(bias_dtype(k)))}});
    } else {
      Json step{{"op", str(name_of(s.act))}};
      if (s.act == ir::Activation::leaky_relu) step["slope"] = s.p0;
      if (s.act == ir::Activation::clamp) {
        step["lower"] = s.p0;
        step["upper"] = s.p1;
      }
      if (s.act == ir::Activation::elu) step["alpha"] = s.p0;
      if (s.act == ir::Activation::softplus) {
        step["beta"] = s.p0;
        step["threshold"] = s.p1;
      }
      steps.push_back(step);
    }
  }
  return steps;
}

// A convolution's contract: PyTorch-shaped tensors (symbols N, C, K, D, H, W, T, R, S and the
// output extents Z, P, Q, "C/groups"), the problem's numbers, and its implicit GEMM.
Json conv_tensor(const char* name, ir::DType t, Json shape) {
  return Json{{"name", name}, {"dtype", str(name_of(t))}, {"torch_dtype", str(ir::torch_dtype(t))},
              {"shape", std::move(shape)}};
}

Json conv_signature(const ir::GemmKernel& k, const std::string& hash) {
  const ir::ConvProblem& p = *k.conv;
  auto shape = [&](const char* first, const char* second, const char* const (&spatial)[3]) {
    Json s = Json::array({first, second});
    for (int i = p.first_dim(); i < 3; ++i) s.push_back(spatial[i]);
    return s;
  };
  static const char* const kIn[3] = {"D", "H", "W"};
  static const char* const kOut[3] = {"Z", "P", "Q"};
  static const char* const kFilter[3] = {"T", "R", "S"};
  const Json x = shape("N", "C", kIn), y = shape("N", "K", kOut), w = shape("K", "C/groups", kFilter);
  Json inputs = Json::array(), output;
  switch (p.mode) {
    case ir::ConvMode::fprop:
      inputs = Json::array({conv_tensor("x", k.a.value, x), conv_tensor("w", k.b.value, w)});
      output = conv_tensor("y", k.d.value, y);
      break;
    case ir::ConvMode::dgrad:
      inputs = Json::array({conv_tensor("dy", k.a.value, y), conv_tensor("w", k.b.value, w)});
      output = conv_tensor("dx", k.d.value, x);
      break;
    case ir::ConvMode::wgrad:
      inputs = Json::array({conv_tensor("dy", k.a.value, y), conv_tensor("x", k.b.value, x)});
      output = conv_tensor("dw", k.d.value, w);
      break;
  }
  if (k.has_source()) inputs.push_back(conv_tensor("c", k.c.value, output["shape"]));
  if (k.has_bias())
    inputs.push_back(conv_tensor("bias", bias_dtype(k), Json::array({p.mode == ir::ConvMode::dgrad ? "C" : "K"})));
  auto window = [](const ir::ConvWindow& v) { return Json::array({v.value[0], v.value[1], v.value[2]}); };
  Json extras = extras_json(k);
  for (Json& e : extras)
    if (e["kind"] == "col") e["shape"] = Json::array({p.mode == ir::ConvMode::dgrad ? "C" : "K"});
  return Json{
      {"kernel", k.name},
      {"hash", hash},
      {"arch", str(name_of(k.arch.value))},
      {"op", ir::conv_op_name(p)},
      {"conv", Json{{"mode", str(name_of(p.mode))},
                    {"dims", p.dims},
                    {"N", p.n.value},
                    {"C", p.c.value},
                    {"K", p.k.value},
                    {"input", Json::array({p.input[0].value, p.input[1].value, p.input[2].value})},
                    {"filter", Json::array({p.filter[0].value, p.filter[1].value, p.filter[2].value})},
                    {"output", Json::array({p.output(0), p.output(1), p.output(2)})},
                    {"pad", window(p.pad)},
                    {"stride", window(p.stride)},
                    {"dilation", window(p.dilation)},
                    {"groups", p.groups.value}}},
      {"gemm", Json{{"M", k.m.value}, {"N", k.n.value}, {"K", k.k.value}}},
      {"types", Json{{"a", str(name_of(k.a.value))}, {"b", str(name_of(k.b.value))},
                     {"c", str(name_of(k.c.value))}, {"d", str(name_of(k.d.value))},
                     {"acc", str(name_of(k.acc.value))}}},
      {"alignment", Json{{"a", k.align_a.value}, {"b", k.align_b.value}, {"c", k.align_c.value}}},
      {"inputs", inputs},
      {"output", output},
      {"layout", conv_layout_note(k)},
      {"epilogue", epilogue_json(k)},
      {"extras", extras},
      {"alpha", k.alpha.value},
      {"beta", k.beta.value},
      {"symbols", symbols_json(k.name)}};
}

// A grouped GEMM's contract: one (M, N, K) per group, each matrix a list with one
// tensor per group; "extents" are shared fixed values (0 = each group's own, at run time).

// Element types, layouts and alignments of a kernel's operands, as every signature states them.
Json types_json(const ir::GemmKernel& k) {
  return Json{{"a", str(name_of(k.a.value))}, {"b", str(name_of(k.b.value))}, {"c", str(name_of(k.c.value))},
              {"d", str(name_of(k.d.value))}, {"acc", str(name_of(k.acc.value))}};
}

Json layouts_json(const ir::GemmKernel& k) {
  return Json{{"a", str(name_of(k.layout_a.value))}, {"b", str(name_of(k.layout_b.value))},
              {"c", str(name_of(k.layout_c.value))}};
}

Json alignment_json(const ir::GemmKernel& k) {
  return Json{{"a", k.align_a.value}, {"b", k.align_b.value}, {"c", k.align_c.value}};
}
Json grouped_signature(const ir::GemmKernel& k, const std::string& hash) {
  Json inputs = Json::array({matrix("a", k.a.value, k.layout_a.value, "M_g", "K_g", false),
                             matrix("b", k.b.value, k.layout_b.value, "K_g", "N_g", false)});
  if (k.has_source()) inputs.push_back(matrix("c", k.c.value, k.layout_c.value, "M_g", "N_g", false));
  return Json{
      {"kernel", k.name},
      {"hash", hash},
      {"arch", str(name_of(k.arch.value))},
      {"op", "grouped_gemm"},
      {"groups", k.groups->value},
      {"extents", Json{{"M", k.m.value}, {"N", k.n.value}, {"K", k.k.value}}},
      {"per_group", "every input and the output is a list with one tensor per group g"},
      {"params", "ucutlass_grouped_gemm_params"},
      {"types", types_json(k)},
      {"layouts", layouts_json(k)},
      {"alignment", alignment_json(k)},
      {"inputs", inputs},
      {"output", matrix("d", k.d.value, k.layout_c.value, "M_g", "N_g", false)},
      {"epilogue", epilogue_json(k)},
      {"extras", Json::array()},
      {"alpha", k.alpha.value},
      {"beta", k.beta.value},
      {"symbols", symbols_json(k.name)}};
}

// A row kernel's contract: x contiguous, viewed as [rows, length]; y x's shape or [rows].
Json row_signature(const ir::GemmKernel& k, const std::string& hash) {
  const ir::RowProblem& r = *k.rows;
  Json problem{{"rows", r.rows}, {"length", r.length}};
  if (r.op == ir::RowOp::groupnorm) {
    problem["groups"] = r.groups;
    problem["channel_span"] = r.channel_span;
  }
  if (ir::row_op_normalizes(r.op)) {
    problem["eps"] = r.eps;
    problem["affine"] = r.affine;
  }
  Json inputs = Json::array({Json{{"name", "x"}, {"dtype", str(name_of(k.a.value))},
                                  {"torch_dtype", str(ir::torch_dtype(k.a.value))},
                                  {"shape", Json::array({"rows", "length"})}, {"contiguous", true}}});
  if (ir::row_op_normalizes(r.op) && r.affine)
    for (const char* name : {"weight", "bias"})
      inputs.push_back(Json{{"name", name}, {"dtype", str(name_of(k.a.value))},
                            {"torch_dtype", str(ir::torch_dtype(k.a.value))},
                            {"shape", Json::array({r.op == ir::RowOp::groupnorm ? "channels" : "length"})}});
  const bool keeps = ir::row_op_keeps_shape(r.op);
  const bool argmax = r.op == ir::RowOp::argmax;
  Json output{{"name", "y"},
              {"dtype", argmax ? "i64" : str(name_of(k.d.value))},
              {"torch_dtype", argmax ? "torch.int64" : str(ir::torch_dtype(k.d.value))},
              {"shape", keeps ? Json::array({"rows", "length"}) : Json::array({"rows"})}};
  return Json{
      {"kernel", k.name},
      {"hash", hash},
      {"arch", str(name_of(k.arch.value))},
      {"op", str(name_of(r.op))},
      {"problem", problem},
      {"params", "ucutlass_row_params"},
      {"inputs", inputs},
      {"output", output},
      {"symbols", symbols_json(k.name)}};
}

// An attention kernel's contract: q, k, v, o f32 contiguous; a bool mask for mask = tensor.
Json attention_signature(const ir::GemmKernel& k, const std::string& hash) {
  const ir::AttentionProblem& a = *k.attention;
  auto tensor = [](const char* name, const char* dtype, const char* torch, Json shape) {
    return Json{{"name", name}, {"dtype", dtype}, {"torch_dtype", torch}, {"shape", shape}, {"contiguous", true}};
  };
  Json inputs = Json::array({tensor("q", "f32", "torch.float32", Json::array({"batch", "seq_q", "head_dim"})),
                             tensor("k", "f32", "torch.float32", Json::array({"batch", "seq_k", "head_dim"})),
                             tensor("v", "f32", "torch.float32", Json::array({"batch", "seq_k", "head_dim"}))});
  if (a.mask == ir::AttentionMask::tensor)
    inputs.push_back(tensor("mask", "bool", "torch.bool", Json::array({"seq_q", "seq_k"})));
  return Json{
      {"kernel", k.name},
      {"hash", hash},
      {"arch", str(name_of(k.arch.value))},
      {"op", "attention"},
      {"problem", Json{{"batch", a.batch}, {"seq_q", a.seq_q}, {"seq_k", a.seq_k}, {"head_dim", a.head_dim},
                       {"scale", a.scale}, {"mask", str(name_of(a.mask))}}},
      {"params", "ucutlass_attention_params"},
      {"inputs", inputs},
      {"output", tensor("o", "f32", "torch.float32", Json::array({"batch", "seq_q", "head_dim"}))},
      {"symbols", symbols_json(k.name)}};
}

Json signature(const ir::GemmKernel& k, const std::string& hash) {
  if (k.is_rows()) return row_signature(k, hash);
  if (k.is_attention()) return attention_signature(k, hash);
  if (k.is_conv()) return conv_signature(k, hash);
  if (k.is_grouped()) return grouped_signature(k, hash);
  const bool batched = k.batch.value != 1;
  Json inputs = Json::array({matrix("a", k.a.value, k.layout_a.value, "M", "K", batched),
                             matrix("b", k.b.value, k.layout_b.value, "K", "N", batched)});
  if (k.has_source()) inputs.push_back(matrix("c", k.c.value, k.layout_c.value, "M", "N", batched));
  if (const ir::EpilogueStep* s = k.bias_step()) {
    ir::DType t = bias_dtype(k);
    inputs.push_back(Json{{"name", "bias"}, {"dtype", str(name_of(t))}, {"torch_dtype", str(ir::torch_dtype(t))},
                          {"shape", Json::array({s->bias == ir::BiasKind::col ? "N" : "M"})}});
  }
  return Json{
      {"kernel", k.name},
      {"hash", hash},
      {"arch", str(name_of(k.arch.value))},
      {"extents", Json{{"M", k.m.value}, {"N", k.n.value}, {"K", k.k.value}, {"batch", k.batch.value}}},
      {"types", types_json(k)},
      {"layouts", layouts_json(k)},
      {"alignment", alignment_json(k)},
      {"inputs", inputs},
      {"output", matrix("d", k.d.value, k.layout_c.value, "M", "N", batched)},
      {"epilogue", epilogue_json(k)},
      {"extras", extras_json(k)},
      {"alpha", k.alpha.value},
      {"beta", k.beta.value},
      {"symbols", symbols_json(k.name)}};
}

Json settings(const ir::GemmKernel& k) {
  if (k.is_attention())
    return Json{{"attention", Json{{"block_q", k.attention_levers.block_q.value},
                                   {"block_k", k.attention_levers.block_k.value}}}};
  if (k.is_rows())
    return Json{{"rows", Json{{"access", k.row_levers.access.value},
                              {"threads", k.row_levers.threads.value},
                              {"items", k.row_levers.items.value},
                              {"splits", k.row_levers.splits.value}}}};
  Json s{{"math", str(name_of(k.math.value))},
         {"tile", shape_json(k.tile.value)},
         {"cluster", shape_json(k.cluster.value)},
         {"warps", shape_json(k.warps.value)},
         {"schedule", str(name_of(k.schedule.value))},
         {"epilogue_schedule", str(name_of(k.epilogue_schedule.value))},
         {"stages", k.stages.value},
         {"raster", str(name_of(k.raster.value))},
         {"swizzle", k.swizzle.value},
         {"scheduler", str(name_of(k.scheduler.value))},
         {"splits", k.splits.value}};
  // The entry points keep the program's view; this says how the kernel runs (ir/operand_swap.h).
  if (k.swaps_operands()) s["operand_swap"] = "on";
  if (k.is_gemv())
    s["gemv"] = Json{{"access", k.gemv_levers.access.value},
                     {"threads_per_row", k.gemv_levers.threads_per_row.value},
                     {"threads", k.gemv_levers.threads.value}};
  return s;
}

}  // namespace

std::string kernel_signature_json(const ir::GemmKernel& k, const std::string& hash) {
  return signature(k, hash).dump();
}

std::string emit_manifest(const ir::Program& p, const std::string& hash) {
  const std::string base = "ucutlass_" + hash;
  Json kernels = Json::array();
  for (const ir::GemmKernel& k : p.kernels) {
    Json entry = signature(k, hash);
    entry["settings"] = settings(k);
    kernels.push_back(entry);
  }
  Json manifest{{"ucutlass_manifest", 1},
                {"hash", hash},
                {"namespace", base},
                {"files", Json{{"header", base + ".h"}, {"capi", base + "_capi.cu"},
                               {"torch", base + "_torch.cpp"}}},
                {"kernels", kernels}};
  if (!p.pipelines.empty()) {
    Json pipelines = Json::array();
    for (const ir::Pipeline& pipe : p.pipelines) pipelines.push_back(pipeline_signature(p, pipe, hash));
    manifest["pipelines"] = pipelines;
  }
  return manifest.dump(2) + "\n";
}

}  // namespace ucutlass::codegen
