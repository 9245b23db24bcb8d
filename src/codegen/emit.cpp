#include "codegen/emit.h"

#include <filesystem>
#include <fstream>

#include "codegen/attention_kernels.h"
#include "codegen/bindings.h"
#include "codegen/conv_host_entry.h"
#include "codegen/conv_types.h"
#include "codegen/depthwise_types.h"
#include "codegen/gemv_types.h"
#include "codegen/grouped_gemm.h"
#include "codegen/host_entry.h"
#include "codegen/kernel_types.h"
#include "codegen/manifest.h"
#include "codegen/persistent_conv_sm90_text.h"
#include "codegen/pipeline_host_entry.h"
#include "codegen/row_kernels.h"
#include "codegen/text_template.h"
#include "ir/operand_swap.h"

namespace ucutlass::codegen {

namespace {

bool uses_gemm(const ir::Program& p, ir::Arch arch) {
  for (const ir::GemmKernel& k : p.kernels)
    if (k.arch.value == arch && !k.is_conv() && !k.is_gemv() && !k.is_rows() && !k.is_attention()) return true;
  return false;
}

// Convolutions: the SM90 conv builder (with the GEMM epilogue builder it pairs with), the
// SM80 implicit-GEMM defaults and the SM80 direct (depthwise) convolution, each only when used.
std::string conv_includes(const ir::Program& p) {
  std::string s;
  if (program_has_conv(p, ir::Arch::sm90a))
    s += "#include \"cutlass/epilogue/collective/collective_builder.hpp\"\n"
         "#include \"cutlass/epilogue/fusion/operations.hpp\"\n"
         "#include \"cutlass/conv/convnd_problem_shape.hpp\"\n"
         "#include \"cutlass/conv/dispatch_policy.hpp\"\n"
         "#include \"cutlass/conv/collective/collective_builder.hpp\"\n"
         "#include \"cutlass/conv/kernel/conv_universal.hpp\"\n"
         "#include \"cutlass/conv/device/conv_universal_adapter.hpp\"\n"
         "#include \"cutlass/util/packed_stride.hpp\"\n";
  if (program_has_conv(p, ir::Arch::sm80))
    s += "#include \"cutlass/conv/kernel/default_conv2d_fprop.h\"\n"
         "#include \"cutlass/conv/kernel/default_conv2d_dgrad.h\"\n"
         "#include \"cutlass/conv/kernel/default_conv2d_wgrad.h\"\n"
         "#include \"cutlass/conv/kernel/default_conv3d_fprop.h\"\n"
         "#include \"cutlass/conv/kernel/default_conv3d_dgrad.h\"\n"
         "#include \"cutlass/conv/kernel/default_conv3d_wgrad.h\"\n"
         "#include \"cutlass/conv/kernel/default_conv2d_group_fprop.h\"\n"
         "#include \"cutlass/conv/device/implicit_gemm_convolution.h\"\n"
         "#include \"cutlass/conv/threadblock/threadblock_swizzle.h\"\n"
         "#include \"cutlass/gemm/threadblock/threadblock_swizzle.h\"\n"
         "#include \"cutlass/epilogue/thread/linear_combination.h\"\n"
         "#include \"cutlass/epilogue/thread/linear_combination_generic.h\"\n";
  if (program_has_depthwise(p))
    s += "#include \"cutlass/conv/kernel/default_depthwise_fprop.h\"\n"
         "#include \"cutlass/conv/device/direct_convolution.h\"\n";
  for (const ir::GemmKernel& k : p.kernels)
    if (uses_persistent_conv(k)) {
      s += runtime_block("src/codegen/runtime/persistent_conv_sm90.hpp", kPersistentConvSm90Source);
      break;
    }
  return s;
}

// The fixed prelude of cutlass.md §0 (some CUTLASS headers are not
// self-contained), then only the families this program uses.
std::string includes(const ir::Program& p) {
  std::string s =
      "#include <cstdarg>\n#include <cstddef>\n#include <cstdint>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n"
      "#include <mutex>\n#include <type_traits>\n#include <utility>\n\n"
      "#include <cuda_runtime.h>\n\n"
      "#include \"cutlass/cutlass.h\"\n"
      "#include \"cute/tensor.hpp\"\n"
      "#include \"cutlass/kernel_hardware_info.hpp\"\n"
      "#include \"cutlass/gemm/gemm.h\"\n"
      "#include \"cutlass/version.h\"\n"
      "#include \"cutlass/numeric_types.h\"\n"
      "#include \"cutlass/epilogue/thread/activation.h\"\n";
  if (uses_gemm(p, ir::Arch::sm90a))
    s += "#include \"cutlass/gemm/dispatch_policy.hpp\"\n"
         "#include \"cutlass/gemm/collective/collective_builder.hpp\"\n"
         "#include \"cutlass/epilogue/collective/collective_builder.hpp\"\n"
         "#include \"cutlass/epilogue/fusion/operations.hpp\"\n"
         "#include \"cutlass/gemm/kernel/gemm_universal.hpp\"\n"
         "#include \"cutlass/gemm/kernel/tile_scheduler.hpp\"\n"
         "#include \"cutlass/gemm/device/gemm_universal_adapter.h\"\n";
  if (uses_gemm(p, ir::Arch::sm80))
    s += "#include \"cutlass/gemm/device/gemm_universal.h\"\n"
         "#include \"cutlass/gemm/threadblock/threadblock_swizzle.h\"\n"
         "#include \"cutlass/epilogue/thread/linear_combination.h\"\n"
         "#include \"cutlass/epilogue/thread/linear_combination_generic.h\"\n";
  if (program_has_gemv(p))
    s += "#include \"cutlass/gemm/kernel/gemv.h\"\n"
         "#include \"cutlass/gemm/device/gemv.h\"\n"
         "#include \"cutlass/epilogue/thread/linear_combination.h\"\n";
  if (program_has_grouped(p))
    s += "#include <cstring>\n#include <vector>\n"
         "#include \"cutlass/gemm/group_array_problem_shape.hpp\"\n";
  return s + conv_includes(p) + emit_row_runtime(p) + emit_attention_runtime(p);
}

constexpr std::string_view kHeader = R"CPP(// Generated by ucutlass for program $HASH$. Do not edit.
// Kernels: $KERNELS$.
// Build (SM90a): nvcc -std=c++17 -O3 -DNDEBUG --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a
// Build (SM80 on Hopper): -gencode=arch=compute_80,code=sm_90. Include <cutlass>/include and <cutlass>/tools/util/include.
#pragma once

$INCLUDES$
static_assert(CUTLASS_MAJOR > 4 || (CUTLASS_MAJOR == 4 && CUTLASS_MINOR >= 2),
              "ucutlass emits code for CUTLASS 4.2 or newer");

namespace ucutlass_$HASH$ {

$PRELUDE$$KERNELS_CODE$
}  // namespace ucutlass_$HASH$
)CPP";

std::string grouped_kernel_code(const ir::GemmKernel& k) {
  return "\n// ---------------------------------------------------------------------------\n// Kernel " + k.name +
         " (grouped)\n\nnamespace " + k.name + "_detail {\n\n" + emit_grouped_types(k) + "\n" +
         emit_grouped_make_arguments(k) + "\n}  // namespace " + k.name + "_detail\n\n" + emit_grouped_host_entry(k);
}

std::string kernel_code(const ir::GemmKernel& k) {
  if (k.is_grouped()) return grouped_kernel_code(k);
  if (k.is_rows()) return emit_row_kernel_code(k);
  if (k.is_attention()) return emit_attention_kernel_code(k);
  const bool sm80 = k.arch.value == ir::Arch::sm80;
  // The CUTLASS types are those of the kernel as run (operand_swap.h); the host
  // entry keeps the program's view of the problem and hands it over swapped.
  const ir::GemmKernel run = ir::as_run(k);
  const std::string types = k.is_conv()   ? (sm80 ? emit_sm80_conv_types(k) : emit_sm90_conv_types(k))
                            : k.is_gemv() ? emit_gemv_types(k)
                                          : (sm80 ? emit_sm80_types(run) : emit_sm90_types(run));
  return "\n// ---------------------------------------------------------------------------\n// Kernel " +
         k.name + "\n\nnamespace " + k.name + "_detail {\n\n" + types + "\n" +
         (k.is_conv() ? emit_conv_make_arguments(k) : emit_make_arguments(k)) + "\n}  // namespace " + k.name +
         "_detail\n\n" + (k.is_conv() ? emit_conv_host_entry(k) : emit_host_entry(k));
}

}  // namespace

std::string emit_header(const ir::Program& p, const std::string& hash) {
  std::string names, code;
  for (const ir::GemmKernel& k : p.kernels) {
    names += (names.empty() ? "" : ", ") + k.name;
    code += kernel_code(k);
  }
  for (const ir::Pipeline& pipe : p.pipelines) code += emit_pipeline_host_entry(p, pipe);
  return fill(kHeader, {{"HASH", hash},
                        {"KERNELS", names},
                        {"INCLUDES", includes(p)},
                        {"PRELUDE", emit_host_prelude() + emit_conv_host_prelude(p) + emit_grouped_host_prelude(p) +
                                        emit_row_host_prelude(p) + emit_attention_host_prelude(p) +
                                        emit_epilogue_functions(p)},
                        {"KERNELS_CODE", code}});
}

std::vector<EmittedFile> emit_program(const ir::Program& p, const std::string& hash) {
  const std::string base = "ucutlass_" + hash;
  return {{base + ".h", emit_header(p, hash)},
          {base + "_capi.cu", emit_capi(p, hash)},
          {base + "_torch.cpp", emit_torch_binding(p, hash)},
          {base + ".json", emit_manifest(p, hash)}};
}

std::string write_emitted_files(const std::vector<EmittedFile>& files, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const EmittedFile& f : files) {
    std::filesystem::path p = std::filesystem::path(dir) / f.name;
    std::ofstream out(p, std::ios::binary);
    out << f.text;
    if (!out) return "cannot write " + p.string();
  }
  return "";
}

}  // namespace ucutlass::codegen
