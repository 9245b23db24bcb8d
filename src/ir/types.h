#pragma once
// The vocabulary of the typed IR: element types, layouts, architectures,
// schedules. Each enum has one name table (types.cpp) used for parsing,
// printing, canonical text and diagnostics alike, so the spellings cannot
// drift apart.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ucutlass::ir {

enum class Arch { sm90a, sm80 };

enum class DType { f16, bf16, f32, e4m3, e5m2, void_ };

// Storage order of a matrix as CUTLASS names it: `row` = RowMajor,
// `col` = ColumnMajor. For A (M x K) row is K-major; for B (K x N) col is
// K-major, which is how nn.Linear stores its weight.
enum class Layout { row, col };

// How the multiply-accumulate runs.
//   tensor_op   native tensor cores for the input type (f16, bf16, fp8)
//   tf32        f32 inputs rounded to TF32 on tensor cores (~1e-3 relative)
//   tf32x3      f32 inputs split into TF32 big+small parts, three products:
//               near-f32 accuracy at about a third of TF32 speed
//   simt        plain f32 FMA on CUDA cores (exact f32, slowest)
//   fast_accum  fp8 with the faster, less exact accumulation of Hopper
enum class MathPath { tensor_op, tf32, tf32x3, simt, fast_accum };

enum class KernelSchedule {
  auto_,
  warpspecialized,      // SM90 TMA warp-specialized
  cooperative,          // SM90 TMA warp-specialized cooperative
  pingpong,             // SM90 TMA warp-specialized ping-pong
  cpasync,              // SM90 cp.async warp-specialized (unaligned operands)
  cpasync_cooperative,
  cpasync_pingpong,
  multistage,           // SM80 cp.async multistage mainloop
};

enum class EpilogueSchedule { auto_, tma, tma_warpspecialized, tma_cooperative, nosmem };

enum class TileScheduler { auto_, persistent, stream_k, split_k };

enum class RasterOrder { heuristic, along_m, along_n };

// Operand swap (operand_swap.h): `on` runs D^T = B^T * A^T instead of D = A * B;
// `auto` lets resolve_auto decide (on for a small-M sm90a GEMM).
enum class OperandSwap { off, on, auto_ };

// The pass of a convolution (conv_problem.h): forward, gradient of the input
// (also transposed convolution), gradient of the filter.
enum class ConvMode { fprop, dgrad, wgrad };

// Where a bias vector broadcasts: `col` = one value per output column
// (length N, nn.Linear's bias; CUTLASS "PerColBias"), `row` = one value per
// output row (length M).
enum class BiasKind { col, row };

// Element-wise activations that are epilogue steps by name. The first eight
// existed first; hardswish has a CUTLASS functor, the rest get our own.
enum class Activation {
  relu, gelu, gelu_tanh, silu, sigmoid, tanh, leaky_relu, clamp,
  hardswish, hardsigmoid, mish, elu, selu, softplus,
};

// What an extra epilogue operand is: a runtime f32 scalar (device pointer), a
// vector of one value per output row (length M) or per output column (length
// N), or a full M x N matrix in C/D's layout (aux_load, residual, aux_store).
enum class ExtraKind { scalar, row, col, matrix };

// How a reduction step (row_sum, col_max, ...) combines the values of a row or column.
enum class ReduceOp { sum, max };

// What a row kernel (row_problem.h) computes over each row of a [rows, length] tensor. The first four
// write a row-shaped output; the rest one value per row.
enum class RowOp { softmax, log_softmax, layernorm, groupnorm, logsumexp, sum, mean, max, argmax };

// Which keys an attention kernel (attention_problem.h) masks: none; causal (key j for query i when
// j > i); or those a [seq_q, seq_k] bool tensor marks.
enum class AttentionMask { none, causal, tensor };

// How an attention kernel computes its scores S = Q K^T: one bf16 product (Q and K rounded to bf16),
// or three (bf16x3: each split into a bf16 part and the bf16 rounding of its remainder, to about fp32
// accuracy; for inputs whose scores are large enough that bf16 rounding moves the softmax).
enum class AttentionScores { bf16, bf16x3 };

// Functions of the epilogue expression language (custom steps); each has a
// fixed arity range (epilogue_fn_arity).
enum class EpiFn {
  relu, gelu, gelu_tanh, silu, sigmoid, tanh, mish, hardswish, hardsigmoid, elu, selu, softplus,
  exp, log, abs, sqrt, rsqrt, erf, min, max, leaky_relu, clamp,
};

template <class E>
struct EnumNames {
  static const std::vector<std::pair<E, std::string_view>>& table();
};

template <class E>
std::string_view name_of(E e) {
  for (const auto& [v, n] : EnumNames<E>::table())
    if (v == e) return n;
  return "?";
}

template <class E>
std::optional<E> parse_enum(std::string_view s) {
  for (const auto& [v, n] : EnumNames<E>::table())
    if (n == s) return v;
  return std::nullopt;
}

template <class E>
std::vector<std::string> all_names() {
  std::vector<std::string> out;
  for (const auto& [v, n] : EnumNames<E>::table()) out.emplace_back(n);
  return out;
}

// Smallest and largest argument counts of an expression function.
std::pair<int, int> epilogue_fn_arity(EpiFn f);

int bits_of(DType t);
bool is_fp8(DType t);
// The CUTLASS C++ type for an element type ("cutlass::bfloat16_t", "void").
std::string_view cutlass_type(DType t);
// The PyTorch dtype name ("torch.bfloat16").
std::string_view torch_dtype(DType t);

}  // namespace ucutlass::ir
