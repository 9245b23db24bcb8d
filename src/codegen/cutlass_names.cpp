#include "codegen/cutlass_names.h"

namespace ucutlass::codegen {

using ir::Activation;
using ir::EpilogueSchedule;
using ir::KernelSchedule;
using ir::TileScheduler;

std::string layout_tag(ir::Layout l) {
  return l == ir::Layout::row ? "cutlass::layout::RowMajor" : "cutlass::layout::ColumnMajor";
}

std::string element_type(ir::DType t) { return std::string(ir::cutlass_type(t)); }

ir::DType bias_dtype(const ir::GemmKernel& k) {
  const ir::EpilogueStep* s = k.bias_step();
  if (s == nullptr || s->bias_type == ir::DType::void_) return k.d.value;
  return s->bias_type;
}

bool sm90_is_cooperative(KernelSchedule s) {
  return s == KernelSchedule::cooperative || s == KernelSchedule::cpasync_cooperative;
}

std::string sm90_kernel_schedule(const ir::GemmKernel& k) {
  const std::string fp8_fast = k.math.value == ir::MathPath::fast_accum ? "FP8FastAccum" : "";
  switch (k.schedule.value) {
    case KernelSchedule::warpspecialized: return "cutlass::gemm::KernelTmaWarpSpecialized" + fp8_fast;
    case KernelSchedule::cooperative: return "cutlass::gemm::KernelTmaWarpSpecializedCooperative" + fp8_fast;
    case KernelSchedule::pingpong: return "cutlass::gemm::KernelTmaWarpSpecializedPingpong" + fp8_fast;
    case KernelSchedule::cpasync: return "cutlass::gemm::KernelCpAsyncWarpSpecialized";
    case KernelSchedule::cpasync_cooperative: return "cutlass::gemm::KernelCpAsyncWarpSpecializedCooperative";
    case KernelSchedule::cpasync_pingpong: return "cutlass::gemm::KernelCpAsyncWarpSpecializedPingpong";
    case KernelSchedule::auto_:
    case KernelSchedule::multistage: break;
  }
  return "cutlass::gemm::collective::KernelScheduleAuto";
}

std::string sm90_epilogue_schedule(const ir::GemmKernel& k) {
  switch (k.epilogue_schedule.value) {
    case EpilogueSchedule::tma_warpspecialized: return "cutlass::epilogue::TmaWarpSpecialized";
    case EpilogueSchedule::tma_cooperative: return "cutlass::epilogue::TmaWarpSpecializedCooperative";
    case EpilogueSchedule::nosmem: return "cutlass::epilogue::NoSmemWarpSpecialized";
    case EpilogueSchedule::tma:
    case EpilogueSchedule::auto_: break;
  }
  // `tma` (and a stray `auto` next to a concrete kernel schedule) takes the
  // TMA epilogue that pairs with the kernel schedule (cutlass.md §2e rule 9).
  if (k.schedule.value == KernelSchedule::auto_) return "cutlass::epilogue::collective::EpilogueScheduleAuto";
  return sm90_is_cooperative(k.schedule.value) ? "cutlass::epilogue::TmaWarpSpecializedCooperative"
                                               : "cutlass::epilogue::TmaWarpSpecialized";
}

std::string sm90_tile_scheduler(const ir::GemmKernel& k) {
  switch (k.scheduler.value) {
    case TileScheduler::stream_k:
    case TileScheduler::split_k: return "cutlass::gemm::StreamKScheduler";
    case TileScheduler::persistent:
    case TileScheduler::auto_: break;
  }
  return "cutlass::gemm::PersistentScheduler";
}

std::string cutlass_activation(Activation a) {
  switch (a) {
    case Activation::relu: return "cutlass::epilogue::thread::ReLu";
    case Activation::gelu: return "cutlass::epilogue::thread::GELU";
    case Activation::gelu_tanh: return "cutlass::epilogue::thread::GELU_taylor";
    case Activation::silu: return "cutlass::epilogue::thread::SiLu";
    case Activation::sigmoid: return "cutlass::epilogue::thread::Sigmoid";
    case Activation::tanh: return "cutlass::epilogue::thread::Tanh";
    // No CUTLASS functor (or one with a parameter): emitted as our own functor, or as a clamp node.
    case Activation::leaky_relu:
    case Activation::clamp:
    case Activation::hardswish:
    case Activation::hardsigmoid:
    case Activation::mish:
    case Activation::elu:
    case Activation::selu:
    case Activation::softplus: break;
  }
  return "";
}

std::string cute_shape(const ir::Shape3& s) {
  return "cute::Shape<cute::Int<" + std::to_string(s.m) + ">, cute::Int<" + std::to_string(s.n) +
         ">, cute::Int<" + std::to_string(s.k) + ">>";
}

std::string gemm_shape(const ir::Shape3& s) {
  return "cutlass::gemm::GemmShape<" + std::to_string(s.m) + ", " + std::to_string(s.n) + ", " +
         std::to_string(s.k) + ">";
}

}  // namespace ucutlass::codegen
