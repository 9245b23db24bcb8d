#include "codegen/pipeline_bindings.h"

#include "codegen/bindings.h"
#include "codegen/pipeline_host_entry.h"
#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

using Json = nlohmann::ordered_json;
using ir::Pipeline;
using ir::PipelineTensor;

constexpr std::string_view kCapiEntry = R"CPP(
static_assert(sizeof(ucutlass_$NAME$_params) == sizeof(ucutlass_$HASH$::$NAME$_params), "layout mismatch");
$SAME_FIELDS$
extern "C" int ucutlass_$NAME$_run_with_workspace(const ucutlass_$NAME$_params* p, void* stream, void* workspace,
                                              size_t workspace_bytes, char* msg, size_t msg_len) {
  if (p == nullptr) return report({1, "$NAME$: params pointer is null"}, msg, msg_len);
  ucutlass_$HASH$::$NAME$_params q;
  std::memcpy(&q, p, sizeof q);
  return report(ucutlass_$HASH$::$NAME$_run(q, static_cast<cudaStream_t>(stream), workspace, workspace_bytes), msg,
                msg_len);
}

extern "C" int ucutlass_$NAME$_run(const ucutlass_$NAME$_params* p, void* stream, char* msg, size_t msg_len) {
  return ucutlass_$NAME$_run_with_workspace(p, stream, nullptr, 0, msg, msg_len);
}

extern "C" size_t ucutlass_$NAME$_workspace_size(const ucutlass_$NAME$_params* p) {
  if (p == nullptr) return 0;
  ucutlass_$HASH$::$NAME$_params q;
  std::memcpy(&q, p, sizeof q);
  return ucutlass_$HASH$::$NAME$_workspace_size(q);
}

extern "C" const char* ucutlass_$NAME$_signature(void) {
  return $SIGNATURE$;
}
)CPP";

// Pipeline tensors are packed: the contract is the kernels' (rows, cols,
// layout) with no strides to pass, so a view must be the plain tensor (row-major)
// or the transpose of one (column-major).
constexpr std::string_view kTorchSupport = R"CPP(
namespace {

void check_pipeline_tensor(const at::Tensor& t, const char* pipeline, const char* name, at::ScalarType dtype,
                           std::vector<int64_t> shape, bool row_major, const at::Device& device) {
  TORCH_CHECK(t.is_cuda(), pipeline, ": ", name, " must be a CUDA tensor, got one on ", t.device());
  TORCH_CHECK(t.device() == device, pipeline, ": ", name, " is on ", t.device(), " but the first input is on ", device);
  TORCH_CHECK(t.scalar_type() == dtype, pipeline, ": ", name, " must have dtype ", dtype, ", got ", t.scalar_type());
  TORCH_CHECK(t.sizes() == c10::IntArrayRef(shape), pipeline, ": ", name, " must have shape ", c10::IntArrayRef(shape),
              ", got ", t.sizes());
  const bool packed = row_major ? t.is_contiguous() : t.transpose(-1, -2).is_contiguous();
  TORCH_CHECK(packed, pipeline, ": ", name, " must be ",
              row_major ? "contiguous (row-major); call .contiguous()"
                        : "column-major: the transpose view of a contiguous tensor, e.g. w.t()");
}

at::Tensor allocate_pipeline_tensor(std::vector<int64_t> shape, at::ScalarType dtype, bool row_major,
                                       const at::Device& device) {
  auto options = at::TensorOptions().dtype(dtype).device(device);
  if (row_major || shape.size() < 2) return at::empty(shape, options);
  std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
  return at::empty(shape, options).transpose(-1, -2);
}

}  // namespace
)CPP";

constexpr std::string_view kTorchFunction = R"CPP(
// Pipeline $NAME$: $KERNELS$. Tensors (t_NAME) in the kernels' logical shapes (a
// column-major operand is the transpose view of a row-major tensor: nn.Linear's
// weight W [N, K] is passed as W.t()). Intermediates and the kernels' workspace
// are one allocation from PyTorch's caching allocator.
$RETURN_TYPE$ $NAME$($PARAMS$) {
  const char* pipeline = "$NAME$";
  const at::Device device = $FIRST$.device();
$CHECKS$  c10::cuda::CUDAGuard guard(device);
$ALLOCATIONS$
  ucutlass_$NAME$_params p{};
$POINTERS$
  const size_t workspace_bytes = ucutlass_$NAME$_workspace_size(&p);
  const at::Tensor workspace = workspace_tensor(workspace_bytes, device);
  char msg[512];
  const int rc = ucutlass_$NAME$_run_with_workspace(&p, at::cuda::getCurrentCUDAStream().stream(),
                                                    workspace_bytes ? workspace.data_ptr() : nullptr,
                                                    workspace_bytes, msg, sizeof msg);
  TORCH_CHECK(rc == 0, pipeline, ": ", msg);
  return $RESULT$;
}
)CPP";

std::string shape_list(const ir::TensorType& t) {
  std::string s = "{";
  if (t.batch != 1) s += std::to_string(t.batch) + ", ";  // matrices, and a batched reduction's vectors
  if (t.kind == ir::TensorType::Kind::matrix) {
    s += std::to_string(t.rows) + ", " + std::to_string(t.cols);
  } else {
    s += std::to_string(t.rows);
  }
  return s + "}";
}

bool row_major(const ir::TensorType& t) {
  return t.kind != ir::TensorType::Kind::matrix || t.layout == ir::Layout::row;
}

Json tensor_json(const ir::Program& p, const Pipeline& pipe, int t, long long offset) {
  const ir::TensorType ty = ir::tensor_type(p, pipe, t);
  Json shape = Json::array();
  if (ty.batch != 1) shape.push_back(ty.batch);
  if (ty.kind == ir::TensorType::Kind::matrix) {
    shape.push_back(ty.rows);
    shape.push_back(ty.cols);
  } else {
    shape.push_back(ty.rows);
  }
  Json j{{"name", pipe.tensors[t].name},
         {"dtype", std::string(ir::name_of(ty.dtype))},
         {"torch_dtype", std::string(ir::torch_dtype(ty.dtype))},
         {"layout", ty.kind == ir::TensorType::Kind::matrix ? std::string(ir::name_of(ty.layout)) : "vector"},
         {"shape", shape},
         {"operand", ir::tensor_origin(p, pipe, t)}};
  if (offset >= 0) {
    j["offset"] = offset;
    j["bytes"] = ty.elements() * ir::bits_of(ty.dtype) / 8;
  }
  return j;
}

}  // namespace

std::string emit_pipeline_c_struct(const Pipeline& pipe) {
  std::string s = "typedef struct ucutlass_" + pipe.name + "_params {\n";
  for (int t : pipe.inputs) s += "  const void* " + pipe.tensors[t].name + ";\n";
  for (int t : pipe.outputs) s += "  void* " + pipe.tensors[t].name + ";\n";
  return s + "} ucutlass_" + pipe.name + "_params;\n";
}

std::string emit_pipeline_capi_entry(const ir::Program& p, const Pipeline& pipe, const std::string& hash) {
  std::string same;
  auto field = [&](int t) {
    const std::string& f = pipe.tensors[t].name;
    return "static_assert(offsetof(ucutlass_" + pipe.name + "_params, " + f + ") == offsetof(ucutlass_" + hash +
           "::" + pipe.name + "_params, " + f + "), \"ucutlass_" + pipe.name + "_params." + f + "\");\n";
  };
  for (int t : pipe.inputs) same += field(t);
  for (int t : pipe.outputs) same += field(t);
  return fill(kCapiEntry, {{"NAME", pipe.name},
                           {"HASH", hash},
                           {"SAME_FIELDS", same},
                           {"SIGNATURE", c_string_literal(pipeline_signature(p, pipe, hash).dump())}});
}

std::string emit_pipeline_torch_support(const ir::Program& p) {
  return p.pipelines.empty() ? "" : std::string(kTorchSupport);
}

std::string emit_pipeline_torch_declarations(const Pipeline& pipe) {
  return emit_pipeline_c_struct(pipe) + "int ucutlass_" + pipe.name + "_run_with_workspace(const ucutlass_" +
         pipe.name + "_params* p, void* stream, void* workspace,\n    size_t workspace_bytes, char* msg, size_t "
         "msg_len);\nsize_t ucutlass_" + pipe.name + "_workspace_size(const ucutlass_" + pipe.name +
         "_params* p);\n";
}

std::string emit_pipeline_torch_function(const ir::Program& p, const Pipeline& pipe) {
  std::string kernels, params, checks, allocations, pointers, result;
  for (const ir::PipelineStep& s : pipe.steps) kernels += (kernels.empty() ? "" : " -> ") + p.kernels[s.kernel].name;
  for (int t : pipe.inputs) {
    const std::string& n = pipe.tensors[t].name;
    const ir::TensorType ty = ir::tensor_type(p, pipe, t);
    params += (params.empty() ? "" : ", ") + std::string("at::Tensor t_") + n;
    checks += "  check_pipeline_tensor(t_" + n + ", pipeline, \"" + n + "\", " + torch_scalar_type(ty.dtype) + ", " +
              shape_list(ty) + ", " + (row_major(ty) ? "true" : "false") + ", device);\n";
    pointers += "  p." + n + " = t_" + n + ".data_ptr();\n";
  }
  for (int t : pipe.outputs) {
    const std::string& n = pipe.tensors[t].name;
    const ir::TensorType ty = ir::tensor_type(p, pipe, t);
    allocations += "  at::Tensor t_" + n + " = allocate_pipeline_tensor(" + shape_list(ty) + ", " +
                   torch_scalar_type(ty.dtype) + ", " + (row_major(ty) ? "true" : "false") + ", device);\n";
    pointers += "  p." + n + " = t_" + n + ".data_ptr();\n";
    result += (result.empty() ? "" : ", ") + std::string("t_") + n;
  }
  const bool one = pipe.outputs.size() == 1;
  return fill(kTorchFunction, {{"NAME", pipe.name},
                               {"KERNELS", kernels},
                               {"RETURN_TYPE", one ? "at::Tensor" : "std::vector<at::Tensor>"},
                               {"PARAMS", params},
                               {"FIRST", "t_" + pipe.tensors[pipe.inputs.front()].name},
                               {"CHECKS", checks},
                               {"ALLOCATIONS", allocations},
                               {"POINTERS", pointers},
                               {"RESULT", one ? result : "{" + result + "}"}});
}

std::string emit_pipeline_torch_def(const Pipeline& pipe) {
  std::string s = "  m.def(\"" + pipe.name + "\", &" + pipe.name + ", \"ucutlass pipeline " + pipe.name + "\"";
  for (int t : pipe.inputs) s += ",\n        pybind11::arg(\"" + pipe.tensors[t].name + "\")";
  return s + ");\n";
}

Json pipeline_signature(const ir::Program& p, const Pipeline& pipe, const std::string& hash) {
  const PipelineLayout layout = pipeline_layout(p, pipe);
  Json kernels = Json::array(), inputs = Json::array(), outputs = Json::array(), intermediates = Json::array(),
       steps = Json::array();
  for (const ir::PipelineStep& s : pipe.steps) {
    const ir::GemmKernel& k = p.kernels[s.kernel];
    kernels.push_back(k.name);
    Json bindings = Json::object();
    for (const ir::PipelineBinding& b : s.bindings) bindings[ir::operand_name(k, b)] = pipe.tensors[b.tensor].name;
    steps.push_back(Json{{"kernel", k.name}, {"bindings", bindings}});
  }
  for (int t : pipe.inputs) inputs.push_back(tensor_json(p, pipe, t, -1));
  for (int t : pipe.outputs) outputs.push_back(tensor_json(p, pipe, t, -1));
  for (size_t t = 0; t < pipe.tensors.size(); ++t)
    if (layout.offset[t] >= 0) intermediates.push_back(tensor_json(p, pipe, static_cast<int>(t), layout.offset[t]));
  return Json{{"pipeline", pipe.name},
              {"hash", hash},
              {"kernels", kernels},
              {"inputs", inputs},
              {"outputs", outputs},
              {"intermediates", intermediates},
              {"intermediate_bytes", layout.bytes},
              {"steps", steps},
              {"symbols", Json{{"run", "ucutlass_" + pipe.name + "_run"},
                               {"run_with_workspace", "ucutlass_" + pipe.name + "_run_with_workspace"},
                               {"workspace_size", "ucutlass_" + pipe.name + "_workspace_size"},
                               {"signature", "ucutlass_" + pipe.name + "_signature"}}}};
}

}  // namespace ucutlass::codegen
