#pragma once
// Emission of attention kernels (ir/attention_problem.h): the runtime kernel's instantiation and host
// entry in the header, the C API entries and the PyTorch binding.
//
// Header: AttentionParams {q, k, v, o, mask, batch, seq_q, seq_k} (the mask only with mask = tensor), and
// per kernel NAME_run(params, stream, workspace, bytes) and NAME_workspace_size (always 0) over
// ucutlass_attn::AttentionKernel (src/codegen/runtime/attention_kernels.hpp, copied into the header).
// C: ucutlass_NAME_run(_with_workspace), _workspace_size and _signature over ucutlass_attention_params.
// Torch: NAME(q, k, v[, mask]) -> o: q, k, v contiguous f32 tensors of batch x seq x head_dim elements
// (any leading shape), mask a contiguous bool [seq_q, seq_k]; o has q's shape.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

bool program_has_attention(const ir::Program& p);

// Header: the runtime text and AttentionParams (empty without attention kernels), each kernel's code.
std::string emit_attention_runtime(const ir::Program& p);
std::string emit_attention_host_prelude(const ir::Program& p);
std::string emit_attention_kernel_code(const ir::GemmKernel& k);

// C API: the C struct (empty without attention kernels), its layout asserts, each entry.
std::string emit_attention_c_struct(const ir::Program& p);
std::string emit_capi_attention_support(const ir::Program& p, const std::string& hash);
std::string emit_attention_capi_entry(const ir::GemmKernel& k, const std::string& hash);

// Torch binding, per kernel: its C declarations, function and m.def line.
std::string emit_attention_torch_declarations(const ir::GemmKernel& k);
std::string emit_attention_torch_function(const ir::GemmKernel& k);
std::string emit_attention_torch_def(const ir::GemmKernel& k);

}  // namespace ucutlass::codegen
