#include "codegen/capi_entry.h"

#include "codegen/text_template.h"

namespace ucutlass::codegen {

namespace {

constexpr std::string_view kEntry = R"CPP(
extern "C" int ucutlass_$NAME$_run_with_workspace(const $PARAMS$* p, void* stream, void* workspace,
                                              size_t workspace_bytes, char* msg, size_t msg_len) {
  if (p == nullptr) return report({1, "$NAME$: params pointer is null"}, msg, msg_len);
  return report(ucutlass_$HASH$::$NAME$_run($TO_PARAMS$, static_cast<cudaStream_t>(stream), workspace,
                                           workspace_bytes),
                msg, msg_len);
}

extern "C" int ucutlass_$NAME$_run(const $PARAMS$* p, void* stream, char* msg, size_t msg_len) {
  return ucutlass_$NAME$_run_with_workspace(p, stream, nullptr, 0, msg, msg_len);
}

extern "C" size_t ucutlass_$NAME$_workspace_size(const $PARAMS$* p) {
  return p == nullptr ? 0 : ucutlass_$HASH$::$NAME$_workspace_size($TO_PARAMS$);
}

extern "C" const char* ucutlass_$NAME$_signature(void) {
  return $SIGNATURE$;
}
)CPP";

}  // namespace

std::string emit_capi_kernel_entry(const CapiKernel& k) {
  return fill(kEntry, {{"NAME", k.name},
                       {"HASH", k.hash},
                       {"PARAMS", std::string(k.params_struct)},
                       {"TO_PARAMS", k.to_params},
                       {"SIGNATURE", k.signature}});
}

std::string emit_capi_kernel_declarations(const std::string& name, std::string_view params_struct) {
  const std::string params(params_struct);
  return "int ucutlass_" + name + "_run_with_workspace(const " + params +
         "* p, void* stream, void* workspace,\n"
         "    size_t workspace_bytes, char* msg, size_t msg_len);\n"
         "size_t ucutlass_" + name + "_workspace_size(const " + params + "* p);\n";
}

}  // namespace ucutlass::codegen
