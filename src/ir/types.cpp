#include "ir/types.h"

namespace ucutlass::ir {

#define UCUTLASS_ENUM_TABLE(E, ...)                                              \
  template <>                                                                    \
  const std::vector<std::pair<E, std::string_view>>& EnumNames<E>::table() {     \
    static const std::vector<std::pair<E, std::string_view>> t = {__VA_ARGS__};  \
    return t;                                                                    \
  }

UCUTLASS_ENUM_TABLE(Arch, {Arch::sm90a, "sm90a"}, {Arch::sm80, "sm80"})
UCUTLASS_ENUM_TABLE(DType, {DType::f16, "f16"}, {DType::bf16, "bf16"}, {DType::f32, "f32"},
                    {DType::e4m3, "e4m3"}, {DType::e5m2, "e5m2"}, {DType::void_, "void"})
UCUTLASS_ENUM_TABLE(Layout, {Layout::row, "row"}, {Layout::col, "col"})
UCUTLASS_ENUM_TABLE(MathPath, {MathPath::tensor_op, "tensor_op"}, {MathPath::tf32, "tf32"},
                    {MathPath::tf32x3, "tf32x3"}, {MathPath::simt, "simt"},
                    {MathPath::fast_accum, "fast_accum"})
UCUTLASS_ENUM_TABLE(KernelSchedule, {KernelSchedule::auto_, "auto"},
                    {KernelSchedule::warpspecialized, "warpspecialized"},
                    {KernelSchedule::cooperative, "cooperative"}, {KernelSchedule::pingpong, "pingpong"},
                    {KernelSchedule::cpasync, "cpasync"},
                    {KernelSchedule::cpasync_cooperative, "cpasync_cooperative"},
                    {KernelSchedule::cpasync_pingpong, "cpasync_pingpong"},
                    {KernelSchedule::multistage, "multistage"})
UCUTLASS_ENUM_TABLE(EpilogueSchedule, {EpilogueSchedule::auto_, "auto"}, {EpilogueSchedule::tma, "tma"},
                    {EpilogueSchedule::tma_warpspecialized, "tma_warpspecialized"},
                    {EpilogueSchedule::tma_cooperative, "tma_cooperative"},
                    {EpilogueSchedule::nosmem, "nosmem"})
UCUTLASS_ENUM_TABLE(TileScheduler, {TileScheduler::auto_, "auto"}, {TileScheduler::persistent, "persistent"},
                    {TileScheduler::stream_k, "stream_k"}, {TileScheduler::split_k, "split_k"})
UCUTLASS_ENUM_TABLE(RasterOrder, {RasterOrder::heuristic, "heuristic"}, {RasterOrder::along_m, "along_m"},
                    {RasterOrder::along_n, "along_n"})
UCUTLASS_ENUM_TABLE(OperandSwap, {OperandSwap::off, "off"}, {OperandSwap::on, "on"}, {OperandSwap::auto_, "auto"})
UCUTLASS_ENUM_TABLE(ConvMode, {ConvMode::fprop, "fprop"}, {ConvMode::dgrad, "dgrad"}, {ConvMode::wgrad, "wgrad"})
UCUTLASS_ENUM_TABLE(BiasKind, {BiasKind::col, "col"}, {BiasKind::row, "row"})
UCUTLASS_ENUM_TABLE(Activation, {Activation::relu, "relu"}, {Activation::gelu, "gelu"},
                    {Activation::gelu_tanh, "gelu_tanh"}, {Activation::silu, "silu"},
                    {Activation::sigmoid, "sigmoid"}, {Activation::tanh, "tanh"},
                    {Activation::leaky_relu, "leaky_relu"}, {Activation::clamp, "clamp"},
                    {Activation::hardswish, "hardswish"}, {Activation::hardsigmoid, "hardsigmoid"},
                    {Activation::mish, "mish"}, {Activation::elu, "elu"}, {Activation::selu, "selu"},
                    {Activation::softplus, "softplus"})
UCUTLASS_ENUM_TABLE(ExtraKind, {ExtraKind::scalar, "scalar"}, {ExtraKind::row, "row"}, {ExtraKind::col, "col"},
                    {ExtraKind::matrix, "aux"})
UCUTLASS_ENUM_TABLE(ReduceOp, {ReduceOp::sum, "sum"}, {ReduceOp::max, "max"})
UCUTLASS_ENUM_TABLE(RowOp, {RowOp::softmax, "softmax"}, {RowOp::log_softmax, "log_softmax"},
                    {RowOp::layernorm, "layernorm"}, {RowOp::groupnorm, "groupnorm"},
                    {RowOp::logsumexp, "logsumexp"}, {RowOp::sum, "reduce_sum"}, {RowOp::mean, "reduce_mean"},
                    {RowOp::max, "reduce_max"}, {RowOp::argmax, "argmax"})
UCUTLASS_ENUM_TABLE(AttentionMask, {AttentionMask::none, "none"}, {AttentionMask::causal, "causal"},
                    {AttentionMask::tensor, "tensor"})
UCUTLASS_ENUM_TABLE(AttentionScores, {AttentionScores::bf16, "bf16"}, {AttentionScores::bf16x3, "bf16x3"})
UCUTLASS_ENUM_TABLE(EpiFn, {EpiFn::relu, "relu"}, {EpiFn::gelu, "gelu"}, {EpiFn::gelu_tanh, "gelu_tanh"},
                    {EpiFn::silu, "silu"}, {EpiFn::sigmoid, "sigmoid"}, {EpiFn::tanh, "tanh"},
                    {EpiFn::mish, "mish"}, {EpiFn::hardswish, "hardswish"}, {EpiFn::hardsigmoid, "hardsigmoid"},
                    {EpiFn::elu, "elu"}, {EpiFn::selu, "selu"}, {EpiFn::softplus, "softplus"},
                    {EpiFn::exp, "exp"}, {EpiFn::log, "log"}, {EpiFn::abs, "abs"}, {EpiFn::sqrt, "sqrt"},
                    {EpiFn::rsqrt, "rsqrt"}, {EpiFn::erf, "erf"}, {EpiFn::min, "min"}, {EpiFn::max, "max"},
                    {EpiFn::leaky_relu, "leaky_relu"}, {EpiFn::clamp, "clamp"})

#undef UCUTLASS_ENUM_TABLE

std::pair<int, int> epilogue_fn_arity(EpiFn f) {
  switch (f) {
    case EpiFn::elu: return {1, 2};        // elu(v) or elu(v, alpha)
    case EpiFn::softplus: return {1, 2};   // softplus(v) or softplus(v, beta)
    case EpiFn::min:
    case EpiFn::max:
    case EpiFn::leaky_relu: return {2, 2};
    case EpiFn::clamp: return {3, 3};
    default: return {1, 1};
  }
}

int bits_of(DType t) {
  switch (t) {
    case DType::f16: case DType::bf16: return 16;
    case DType::f32: return 32;
    case DType::e4m3: case DType::e5m2: return 8;
    case DType::void_: return 0;
  }
  return 0;
}

bool is_fp8(DType t) { return t == DType::e4m3 || t == DType::e5m2; }

std::string_view cutlass_type(DType t) {
  switch (t) {
    case DType::f16: return "cutlass::half_t";
    case DType::bf16: return "cutlass::bfloat16_t";
    case DType::f32: return "float";
    case DType::e4m3: return "cutlass::float_e4m3_t";
    case DType::e5m2: return "cutlass::float_e5m2_t";
    case DType::void_: return "void";
  }
  return "void";
}

std::string_view torch_dtype(DType t) {
  switch (t) {
    case DType::f16: return "torch.float16";
    case DType::bf16: return "torch.bfloat16";
    case DType::f32: return "torch.float32";
    case DType::e4m3: return "torch.float8_e4m3fn";
    case DType::e5m2: return "torch.float8_e5m2";
    case DType::void_: return "None";
  }
  return "None";
}

}  // namespace ucutlass::ir
