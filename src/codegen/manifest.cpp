#include "codegen/manifest.h"

#include <nlohmann/json.hpp>

#include "codegen/cutlass_names.h"

namespace ucutlass::codegen {

namespace {

using Json = nlohmann::ordered_json;
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

Json epilogue_json(const ir::GemmKernel& k) {
  Json steps = Json::array();
  for (const ir::EpilogueStep& s : k.epilogue) {
    if (s.kind == ir::EpilogueStep::Kind::bias) {
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
      steps.push_back(step);
    }
  }
  return steps;
}

Json signature(const ir::GemmKernel& k, const std::string& hash) {
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
      {"types", Json{{"a", str(name_of(k.a.value))}, {"b", str(name_of(k.b.value))},
                     {"c", str(name_of(k.c.value))}, {"d", str(name_of(k.d.value))},
                     {"acc", str(name_of(k.acc.value))}}},
      {"layouts", Json{{"a", str(name_of(k.layout_a.value))}, {"b", str(name_of(k.layout_b.value))},
                       {"c", str(name_of(k.layout_c.value))}}},
      {"alignment", Json{{"a", k.align_a.value}, {"b", k.align_b.value}, {"c", k.align_c.value}}},
      {"inputs", inputs},
      {"output", matrix("d", k.d.value, k.layout_c.value, "M", "N", batched)},
      {"epilogue", epilogue_json(k)},
      {"alpha", k.alpha.value},
      {"beta", k.beta.value},
      {"symbols", Json{{"run", "ucutlass_" + k.name + "_run"},
                       {"run_with_workspace", "ucutlass_" + k.name + "_run_with_workspace"},
                       {"workspace_size", "ucutlass_" + k.name + "_workspace_size"},
                       {"signature", "ucutlass_" + k.name + "_signature"}}}};
}

Json settings(const ir::GemmKernel& k) {
  return Json{{"math", str(name_of(k.math.value))},
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
  return manifest.dump(2) + "\n";
}

}  // namespace ucutlass::codegen
