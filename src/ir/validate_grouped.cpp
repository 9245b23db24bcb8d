#include "ir/validate_grouped.h"

namespace ucutlass::ir {

namespace {

constexpr const char* kStepsLegal =
    "alpha, beta, element-wise activations (relu, gelu, silu, clamp, ...), scale(constant) and custom(...) "
    "over x, acc, c and constants";

// What an epilogue step needs that a grouped GEMM cannot give it, or empty.
std::string unsupported_operand(const EpilogueStep& s) {
  switch (s.kind) {
    case EpilogueStep::Kind::bias:
      return "a grouped GEMM cannot fuse bias(" + std::string(name_of(s.bias)) +
             "): each group would need its own vector (a pointer array), which ucutlass does not emit yet";
    case EpilogueStep::Kind::aux_store:
      return "a grouped GEMM cannot fuse aux_store: each group would need its own output tensor (a pointer "
             "array), which ucutlass does not emit yet";
    case EpilogueStep::Kind::reduce:
      return "a grouped GEMM cannot fuse " + s.label +
             ": each group would need its own output vector (a pointer array), which ucutlass does not emit yet";
    case EpilogueStep::Kind::expr:
      if (!s.expr.uses_extras()) return "";
      return "a grouped GEMM cannot fuse '" + s.label +
             "', which reads a scalar, vector or aux tensor operand: each group would need its own (a pointer "
             "array), which ucutlass does not emit yet";
    case EpilogueStep::Kind::activation: break;
  }
  return "";
}

}  // namespace

bool is_grouped_schedule(KernelSchedule s) { return s == KernelSchedule::cooperative || s == KernelSchedule::pingpong; }

bool validate_grouped(const GemmKernel& k, Diagnostics& diags) {
  const size_t before = diags.error_count();
  if (k.arch.value == Arch::sm80)
    diags.error(k.arch.span, "grouped GEMM needs sm90a (CUTLASS's pointer-array kernels); ucutlass has no sm80 grouped kernel",
                "with_arch(sm90a); on sm80 one gemm kernel per group, or batch = G when every group has one shape");
  if (k.batch.value != 1)
    diags.error(k.batch.span, "a grouped GEMM cannot also be batched (batch = " + std::to_string(k.batch.value) + ")",
                "groups = G alone, each group its own problem; or batch = G without groups when all groups have "
                "one shape");
  if (k.arch.value != Arch::sm90a) return diags.error_count() == before;
  if (k.scheduler.value == TileScheduler::stream_k || k.scheduler.value == TileScheduler::split_k)
    diags.error(k.scheduler.span,
                std::string(k.scheduler.value == TileScheduler::stream_k ? "stream-K" : "split-K") +
                    " is not available for a grouped GEMM: CUTLASS 4.2's pointer-array kernels take only the "
                    "group tile scheduler",
                "with_scheduler(persistent) or with_scheduler(auto)");
  if (!is_grouped_schedule(k.schedule.value))
    diags.error(k.schedule.span,
                "a grouped GEMM runs CUTLASS's pointer-array TMA kernels, which have no '" +
                    std::string(name_of(k.schedule.value)) + "' schedule",
                "cooperative (tile M 128 or 256) or pingpong (tile M 64 or 128)");
  if (k.epilogue_schedule.value == EpilogueSchedule::nosmem)
    diags.error(k.epilogue_schedule.span,
                "a grouped GEMM needs the pointer-array TMA epilogue, not 'nosmem'",
                "epilogue = tma or auto, with C and D aligned to 16 bytes");
  for (const EpilogueStep& s : k.epilogue) {
    std::string msg = unsupported_operand(s);
    if (!msg.empty()) diags.error(s.span, msg, kStepsLegal);
  }
  return diags.error_count() == before;
}

}  // namespace ucutlass::ir
