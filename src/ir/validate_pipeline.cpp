#include "ir/validate_pipeline.h"

#include <cstdio>
#include <optional>

namespace ucutlass::ir {

namespace {

// Where a tensor's type was first fixed, for messages: "D of up (line 3)".
struct Origin {
  TensorType type;
  std::string what;
};

std::string setting_for(const GemmKernel& k, const PipelineBinding& b, const char* what) {
  using O = PipelineBinding::Operand;
  const std::string key = b.operand == O::a ? "a" : b.operand == O::b ? "b" : "c";
  if (std::string(what) == "types") {
    if (b.operand == O::d) return "with_types(d = ...) on " + k.name;
    if (b.operand == O::bias) return "bias(col|row, TYPE) on " + k.name;
    if (b.operand == O::extra) return "a typed operand such as col(bf16) on " + k.name;
    return "with_types(" + key + " = ...) on " + k.name;
  }
  return "with_layouts(" + (b.operand == O::a || b.operand == O::b ? key : std::string("c")) + " = ...) on " +
         k.name;
}

bool check_binding(const Pipeline& pipe, const PipelineBinding& b, const GemmKernel& k,
                   const Origin& origin, Diagnostics& diags) {
  const PipelineTensor& t = pipe.tensors[b.tensor];
  const TensorType want = origin.type;
  const TensorType got = operand_type(k, b);
  const std::string here = operand_label(k, b) + " of " + k.name;
  if (!want.same_shape(got)) {
    diags.error(b.span,
                "shape mismatch: '" + t.name + "' is " + want.shape_text() + " (" + origin.what + ") but " + here +
                    " is " + got.shape_text(),
                here + " must be " + want.shape_text() + " to bind '" + t.name + "'",
                "change the extents of " + k.name + " or of the kernel that fixes '" + t.name + "'");
    return false;
  }
  if (want.dtype != got.dtype) {
    diags.error(b.span,
                "element type mismatch: '" + t.name + "' is " + std::string(name_of(want.dtype)) + " (" +
                    origin.what + ") but " + here + " is " + std::string(name_of(got.dtype)),
                here + " must be " + std::string(name_of(want.dtype)) + " to bind '" + t.name + "'",
                setting_for(k, b, "types"));
    return false;
  }
  if (want.kind == TensorType::Kind::matrix && want.layout != got.layout) {
    diags.error(b.span,
                "layout mismatch: '" + t.name + "' is " + want.layout_text() + " (" + origin.what + ") but " +
                    here + " is " + got.layout_text(),
                here + " must be " + want.layout_text() + " to bind '" + t.name + "'", setting_for(k, b, "layouts"));
    return false;
  }
  return true;
}

// Intermediates are placed in one workspace whose offsets are 64-bit byte counts; a bound far above any
// GPU's memory keeps that arithmetic exact for every program that passes.
constexpr double kMaxIntermediateBytes = 1099511627776.0;  // 2^40

bool check_intermediate_size(const Program& p, const Pipeline& pipe, int t, Diagnostics& diags) {
  const TensorType ty = tensor_type(p, pipe, t);
  const double bytes = static_cast<double>(ty.batch) * static_cast<double>(ty.rows) * static_cast<double>(ty.cols) *
                       bits_of(ty.dtype) / 8;
  if (bytes <= kMaxIntermediateBytes) return true;
  char amount[32];
  std::snprintf(amount, sizeof amount, "%.3g", bytes);
  diags.error(pipe.tensors[t].span,
              "intermediate '" + pipe.tensors[t].name + "' " + ty.shape_text() + " would take " + amount +
                  " bytes of workspace",
              "intermediates of at most 2^40 bytes", "split the problem, or return the tensor as an output");
  return false;
}

bool validate_pipeline(const Program& p, const Pipeline& pipe, Diagnostics& diags) {
  bool ok = true;
  for (size_t t = 0; t < pipe.tensors.size(); ++t)
    if (pipe.tensors[t].role == PipelineTensor::Role::intermediate)
      ok = check_intermediate_size(p, pipe, static_cast<int>(t), diags) && ok;
  if (!ok) return false;
  std::vector<std::optional<Origin>> origin(pipe.tensors.size());
  // The writer fixes a written tensor's type, even when a (wrongly ordered)
  // reader comes first; lowering has already rejected that order.
  for (const PipelineStep& s : pipe.steps) {
    const GemmKernel& k = p.kernels[s.kernel];
    for (const PipelineBinding& b : s.bindings)
      if (b.writes)
        origin[b.tensor] = Origin{operand_type(k, b), operand_label(k, b) + " of " + k.name + ", line " +
                                                           std::to_string(diags.file().line_col(b.span.begin).line)};
  }
  for (const PipelineStep& s : pipe.steps) {
    const GemmKernel& k = p.kernels[s.kernel];
    for (const PipelineBinding& b : s.bindings) {
      if (b.writes) continue;
      if (!origin[b.tensor]) {
        origin[b.tensor] = Origin{operand_type(k, b), operand_label(k, b) + " of " + k.name + ", line " +
                                                           std::to_string(diags.file().line_col(b.span.begin).line)};
        continue;
      }
      ok = check_binding(pipe, b, k, *origin[b.tensor], diags) && ok;
    }
  }
  return ok;
}

}  // namespace

bool validate_pipelines(const Program& p, Diagnostics& diags) {
  bool ok = true;
  for (const Pipeline& pipe : p.pipelines) ok = validate_pipeline(p, pipe, diags) && ok;
  return ok;
}

}  // namespace ucutlass::ir
