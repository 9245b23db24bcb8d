#pragma once
// The C ABI of one kernel, the same four entries for every kind (GEMM, conv,
// grouped GEMM): NAME_run_with_workspace, NAME_run, NAME_workspace_size and
// NAME_signature over a C params struct, and the declarations of the first and
// third that the torch binding compiles against.
#include <string>
#include <string_view>

namespace ucutlass::codegen {

struct CapiKernel {
  std::string name;
  std::string hash;
  std::string_view params_struct;  // "ucutlass_gemm_params", "ucutlass_conv_params", ...
  std::string to_params;           // turns `p` into the header's params: "to_conv_params(p)"
  std::string signature;           // the signature JSON as a C string literal
};

std::string emit_capi_kernel_entry(const CapiKernel& k);

// For the torch binding: the prototypes of NAME_run_with_workspace and NAME_workspace_size.
std::string emit_capi_kernel_declarations(const std::string& name, std::string_view params_struct);

}  // namespace ucutlass::codegen
