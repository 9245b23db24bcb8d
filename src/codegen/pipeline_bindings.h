#pragma once
// The callers' side of a pipeline: its C struct and extern "C" entries (in
// _capi.cu), its PyTorch function (in _torch.cpp), and its signature JSON (the
// C entry ucutlass_NAME_signature and the manifest's "pipelines").
#include <string>

#include <nlohmann/json.hpp>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// `typedef struct ucutlass_NAME_params {...}`: the C twin of NAME_params.
std::string emit_pipeline_c_struct(const ir::Pipeline& pipe);
// The struct's static_asserts and the four C entries.
std::string emit_pipeline_capi_entry(const ir::Program& p, const ir::Pipeline& pipe, const std::string& hash);

// Torch binding parts: helpers (once per file that has pipelines), the C
// declarations, the function and its m.def line.
std::string emit_pipeline_torch_support(const ir::Program& p);
std::string emit_pipeline_torch_declarations(const ir::Pipeline& pipe);
std::string emit_pipeline_torch_function(const ir::Program& p, const ir::Pipeline& pipe);
std::string emit_pipeline_torch_def(const ir::Pipeline& pipe);

nlohmann::ordered_json pipeline_signature(const ir::Program& p, const ir::Pipeline& pipe, const std::string& hash);

}  // namespace ucutlass::codegen
