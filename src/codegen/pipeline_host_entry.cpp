#include "codegen/pipeline_host_entry.h"

#include <algorithm>

#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using ir::Pipeline;
using ir::PipelineBinding;
using ir::PipelineTensor;

constexpr std::string_view kPipeline = R"CPP(
// ---------------------------------------------------------------------------
// Pipeline $NAME$: $KERNELS$, in this order on one stream

// The caller's tensors, packed, in the logical shapes of the kernels' operands.
struct $NAME$_params {
$FIELDS$};

namespace $NAME$_detail {

// Intermediates live in the workspace at these byte offsets ($ALIGN$-byte aligned; two
// whose lifetimes do not overlap may share memory); the kernels' own workspace follows them.
$OFFSETS$constexpr size_t kIntermediateBytes = $INTERMEDIATE_BYTES$;

$STEPS$// The steps run one after another on one stream, so they share one kernel
// workspace: the largest any of them needs. Sizing looks only at the operands'
// alignment, so the intermediates may stand at a placeholder address.
inline size_t kernel_workspace_bytes(const $NAME$_params& p) {
  unsigned char* placeholder = reinterpret_cast<unsigned char*>(std::uintptr_t{1} << 20);
  size_t bytes = 0;
$SIZES$  return bytes;
}

inline Status step_failed(int step, Status st) {
  char inner[sizeof detail::message_buffer];
  std::snprintf(inner, sizeof inner, "%s", st.message != nullptr ? st.message : "");
  return detail::error(st.code, "$NAME$ step %d: %s", step, inner);
}

}  // namespace $NAME$_detail

inline size_t $NAME$_workspace_size(const $NAME$_params& p) {
  return $NAME$_detail::kIntermediateBytes + $NAME$_detail::kernel_workspace_bytes(p);
}

// Runs the pipeline on `stream`. The workspace holds the intermediates and the
// kernels' workspace: pass $NAME$_workspace_size(p) bytes, $ALIGN$-byte aligned, or
// nullptr to have it allocated on the stream and freed after the last step.
inline Status $NAME$_run(const $NAME$_params& p, cudaStream_t stream, void* workspace = nullptr,
                   size_t workspace_bytes = 0) {
  const size_t need = $NAME$_workspace_size(p);
  bool owned = false;
  if (workspace == nullptr && need > 0) {
    cudaError_t e = cudaMallocAsync(&workspace, need, stream);
    if (e != cudaSuccess) return detail::cuda_error("cudaMallocAsync($NAME$ workspace)", e);
    owned = true;
    workspace_bytes = need;
  } else if (workspace_bytes < need) {
    return detail::error(1, "$NAME$: workspace too small: the pipeline needs %zu bytes, got %zu", need,
                         workspace_bytes);
  } else if (reinterpret_cast<std::uintptr_t>(workspace) % $ALIGN$ != 0) {
    return detail::error(1, "$NAME$: workspace is not $ALIGN$-byte aligned");
  }
  unsigned char* intermediates = static_cast<unsigned char*>(workspace);
  unsigned char* kernel_workspace = intermediates + $NAME$_detail::kIntermediateBytes;
  const size_t kernel_bytes = workspace_bytes - $NAME$_detail::kIntermediateBytes;
  Status st{0, "ok"};
$LAUNCHES$  if (owned) cudaFreeAsync(workspace, stream);
  return st;
}
)CPP";

constexpr std::string_view kStep = R"CPP(// Step $NUMBER$: $KERNEL$($BINDINGS$)
inline GemmParams step_$NUMBER$_$KERNEL$(const $NAME$_params& p, unsigned char* intermediates) {
  GemmParams q{};
$ASSIGNMENTS$  q.m = $M$;
  q.n = $N$;
  q.k = $K$;
  q.batch = $BATCH$;
  q.alpha = $ALPHA$;
  q.beta = $BETA$;
  return q;
}

)CPP";

std::string type_comment(const ir::Program& p, const Pipeline& pipe, int t) {
  const ir::TensorType ty = ir::tensor_type(p, pipe, t);
  std::string s = ty.shape_text() + " " + std::string(ir::name_of(ty.dtype));
  if (ty.kind == ir::TensorType::Kind::matrix) s += " " + ty.layout_text();
  return s + ", " + ir::tensor_origin(p, pipe, t);
}

std::string pointer(const Pipeline& pipe, int t, bool mutable_ptr) {
  const PipelineTensor& x = pipe.tensors[t];
  if (x.role == PipelineTensor::Role::intermediate) return "intermediates + kOffset_" + x.name;
  if (x.role == PipelineTensor::Role::input && mutable_ptr) return "const_cast<void*>(p." + x.name + ")";
  return "p." + x.name;
}

std::string step_code(const ir::Program& p, const Pipeline& pipe, size_t i) {
  const ir::PipelineStep& s = pipe.steps[i];
  const ir::GemmKernel& k = p.kernels[s.kernel];
  std::string bindings, assignments;
  for (const PipelineBinding& b : s.bindings) {
    const std::string operand = ir::operand_name(k, b);
    bindings += (bindings.empty() ? "" : ", ") + operand + " = " + pipe.tensors[b.tensor].name;
    if (b.operand == PipelineBinding::Operand::extra)
      assignments += "  q.extra[" + std::to_string(b.extra) + "] = " + pointer(pipe, b.tensor, true) + ";\n";
    else
      assignments += "  q." + operand + " = " + pointer(pipe, b.tensor, false) + ";\n";
  }
  return fill(kStep, {{"NUMBER", std::to_string(i + 1)},
                      {"KERNEL", k.name},
                      {"NAME", pipe.name},
                      {"BINDINGS", bindings},
                      {"ASSIGNMENTS", assignments},
                      {"M", std::to_string(k.m.value)},
                      {"N", std::to_string(k.n.value)},
                      {"K", std::to_string(k.k.value)},
                      {"BATCH", std::to_string(k.batch.value)},
                      {"ALPHA", float_literal(k.alpha.value)},
                      {"BETA", float_literal(k.has_source() ? k.beta.value : 0.0)}});
}

}  // namespace

PipelineLayout pipeline_layout(const ir::Program& p, const Pipeline& pipe) {
  struct Placed {
    long long offset, end;
    int first_step, last_step;  // live from its writer through its last reader
  };
  PipelineLayout out;
  out.offset.assign(pipe.tensors.size(), -1);
  std::vector<Placed> placed;
  // Tensors are in order of first write, so each is placed after every tensor written before it; it may
  // take the memory of any whose last reader ran before its writer (first fit, lowest offset).
  for (size_t t = 0; t < pipe.tensors.size(); ++t) {
    if (pipe.tensors[t].role != PipelineTensor::Role::intermediate) continue;
    const ir::TensorType ty = ir::tensor_type(p, pipe, static_cast<int>(t));
    const long long bytes = (ty.elements() * ir::bits_of(ty.dtype) / 8 + kPipelineTensorAlignment - 1) /
                            kPipelineTensorAlignment * kPipelineTensorAlignment;
    const int first = pipe.tensors[t].producer;
    int last = first;
    for (size_t i = 0; i < pipe.steps.size(); ++i)
      for (const ir::PipelineBinding& b : pipe.steps[i].bindings)
        if (b.tensor == static_cast<int>(t) && !b.writes) last = std::max(last, static_cast<int>(i));
    std::vector<Placed> live;
    for (const Placed& q : placed)
      if (q.first_step <= last && first <= q.last_step) live.push_back(q);
    std::sort(live.begin(), live.end(), [](const Placed& a, const Placed& b) { return a.offset < b.offset; });
    long long offset = 0;
    for (const Placed& q : live) {
      if (offset + bytes <= q.offset) break;
      offset = std::max(offset, q.end);
    }
    placed.push_back({offset, offset + bytes, first, last});
    out.offset[t] = offset;
    out.bytes = std::max(out.bytes, offset + bytes);
  }
  return out;
}

std::string emit_pipeline_host_entry(const ir::Program& p, const Pipeline& pipe) {
  const PipelineLayout layout = pipeline_layout(p, pipe);
  std::string kernels, fields, offsets, steps, sizes, launches;
  for (int t : pipe.inputs)
    fields += "  const void* " + pipe.tensors[t].name + ";  // input " + type_comment(p, pipe, t) + "\n";
  for (int t : pipe.outputs)
    fields += "  void* " + pipe.tensors[t].name + ";  // output " + type_comment(p, pipe, t) + "\n";
  for (size_t t = 0; t < pipe.tensors.size(); ++t)
    if (layout.offset[t] >= 0)
      offsets += "constexpr size_t kOffset_" + pipe.tensors[t].name + " = " + std::to_string(layout.offset[t]) +
                 ";  // " + type_comment(p, pipe, static_cast<int>(t)) + "\n";
  for (size_t i = 0; i < pipe.steps.size(); ++i) {
    const std::string kernel = p.kernels[pipe.steps[i].kernel].name;
    const std::string builder = "step_" + std::to_string(i + 1) + "_" + kernel;
    kernels += (kernels.empty() ? "" : " -> ") + kernel;
    steps += step_code(p, pipe, i);
    sizes += "  if (const size_t s = " + kernel + "_workspace_size(" + builder +
             "(p, placeholder)); s > bytes) bytes = s;\n";
    launches += "  if (st.code == 0 && (st = " + kernel + "_run(" + pipe.name + "_detail::" + builder +
                "(p, intermediates), stream, kernel_workspace,\n" + std::string(kernel.size() + 29, ' ') +
                "kernel_bytes)).code != 0)\n    st = " + pipe.name + "_detail::step_failed(" + std::to_string(i + 1) +
                ", st);\n";
  }
  return fill(kPipeline, {{"NAME", pipe.name},
                          {"KERNELS", kernels},
                          {"FIELDS", fields},
                          {"ALIGN", std::to_string(kPipelineTensorAlignment)},
                          {"OFFSETS", offsets},
                          {"INTERMEDIATE_BYTES", std::to_string(layout.bytes)},
                          {"STEPS", steps},
                          {"SIZES", sizes},
                          {"LAUNCHES", launches}});
}

}  // namespace ucutlass::codegen
