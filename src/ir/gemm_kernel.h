#pragma once
// The typed IR of one GEMM-family kernel: D = act(alpha * op(A) op(B) + beta * C + bias).
//
// Lowering (lower.h) fills it from the syntax tree; every setting remembers
// the span of the source text that set it (or the span of the whole kernel
// when it was left to default), so a legality error points at the setting
// that caused it. `auto` settings are concrete only after resolve_auto().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/conv_problem.h"
#include "ir/pipeline.h"
#include "ir/attention_problem.h"
#include "ir/row_problem.h"
#include "ir/types.h"
#include "support/source_file.h"

namespace ucutlass::ir {

// A problem extent: a fixed size known at compile time, or 0 for one given
// at run time (then alignment is checked by the host entry, not here).
struct Extent {
  int64_t value = 0;
  Span span;
  bool is_dynamic() const { return value == 0; }
};

struct Shape3 {
  int m = 0, n = 0, k = 0;
  bool operator==(const Shape3&) const = default;
};

// An operand of the epilogue besides A, B, C, D and the bias: read (vectors,
// scalars, aux_load / residual matrices) or written (aux_store's matrix, a
// reduction's row or col vector). The host
// entry takes them in GemmParams::extra[i], in the order of GemmKernel::extras.
struct EpilogueExtra {
  std::string name;  // unique per kernel; the torch binding's argument name
  ExtraKind kind = ExtraKind::col;
  DType type = DType::void_;  // void until resolve_auto: D's type (scalars: f32)
  bool is_output = false;     // aux_store, reductions
  Span span;
};

// An element-wise expression over the value so far (x), the accumulator
// (acc), the source C (c), constants and extras. Every named step other than
// bias and the activations lowers to one (scale(2) is x * 2; per_col_scale is
// x * extra), and so does custom("...").
struct EpiExpr {
  enum class Op { x, acc, c, constant, extra, neg, add, sub, mul, div, call };
  Op op = Op::x;
  double value = 0;          // constant
  int extra = -1;            // extra: index into GemmKernel::extras
  EpiFn fn = EpiFn::relu;    // call
  std::vector<EpiExpr> args; // operands of neg, add ... div, call

  bool uses(Op leaf) const;
  bool uses_extras() const;
};

struct EpilogueStep {
  // bias: + a broadcast vector; activation: a named element-wise function;
  // expr: x = expr(x, acc, c, extras); aux_store: writes x to an extra M x N
  // output and passes x on; reduce: sums or maxes x along each row (the extra
  // is a `row` vector, length M) or each column (a `col` vector, length N) into
  // an output vector and passes x on.
  enum class Kind { bias, activation, expr, aux_store, reduce };
  Kind kind = Kind::activation;
  BiasKind bias = BiasKind::col;
  DType bias_type = DType::void_;  // void: same as the output type
  Activation act = Activation::relu;
  double p0 = 0, p1 = 0;  // leaky_relu slope; clamp lower, upper; elu alpha; softplus beta, threshold
  EpiExpr expr;           // expr
  ReduceOp reduce = ReduceOp::sum;  // reduce
  int extra = -1;         // aux_store, reduce: index into GemmKernel::extras
  std::string label;      // expr, aux_store, reduce: the step as written, e.g. "per_col_scale", "row_sum"
  Span span;
};

// The levers of a GEMV kernel (gemv(m = ..., k = ...), validate_gemv.h): elements of A and x
// per load (a 16-byte load is 4 f32 or 8 f16), the threads that share one row of A (a power
// of two up to a warp; they add their partial sums with warp shuffles) and the threads of a
// CTA, which covers threads / threads_per_row rows. 0 = auto until resolve_auto.
struct GemvLevers {
  Setting<int> access{0}, threads_per_row{0}, threads{0};
};

struct GemmKernel {
  std::string name;
  Span span;       // the whole declaration
  Span name_span;

  // Problem. batch > 1 makes it a strided batched GEMM. For a convolution
  // (conv set), m, n, k are its implicit GEMM's extents (conv_problem.h).
  Extent m, n, k;
  Extent batch{1, {}};
  // Set for a grouped GEMM (gemm(..., groups = G)): G independent problems in
  // one launch, each with its own m, n, k and pointers (CUTLASS's pointer-array
  // kernels with GroupProblemShape). value = G, or 0 when the count is given at
  // run time; m, n, k fixed above are shared by every group, dynamic ones vary.
  std::optional<Extent> groups;

  Setting<Arch> arch{Arch::sm90a};
  // Element types: A, B, C (source; void = not read), D (output), accumulator.
  Setting<DType> a{DType::f16}, b{DType::f16}, c{DType::f16}, d{DType::f16}, acc{DType::f32};
  Setting<Layout> layout_a{Layout::row}, layout_b{Layout::col}, layout_c{Layout::row};
  Setting<MathPath> math{MathPath::tensor_op};

  Setting<Shape3> tile;     // threadblock (CTA) tile
  Setting<Shape3> cluster;  // SM90 thread block cluster
  Setting<Shape3> warps;    // SM80 warps per CTA along M, N, K
  Setting<KernelSchedule> schedule{KernelSchedule::auto_};
  Setting<EpilogueSchedule> epilogue_schedule{EpilogueSchedule::auto_};
  Setting<int> stages{0};  // 0 once resolved on SM90 = as many as shared memory allows
  Setting<int> align_a, align_b, align_c;  // elements
  Setting<RasterOrder> raster{RasterOrder::heuristic};
  Setting<int> swizzle{1};
  Setting<TileScheduler> scheduler{TileScheduler::auto_};
  Setting<int> splits{1};  // split_k slices
  // on: the emitted kernel computes D^T = B^T * A^T (operand_swap.h). The problem, types,
  // layouts, alignments and epilogue stay as written; tile, cluster, warps, raster and
  // scheduler describe the kernel as it runs, whose M is the problem's N.
  Setting<OperandSwap> operand_swap{OperandSwap::off};

  // Epilogue: alpha and beta are defaults the host entry can override.
  Setting<double> alpha{1.0};
  Setting<double> beta{0.0};
  std::vector<EpilogueStep> epilogue;
  std::vector<EpilogueExtra> extras;  // at most kMaxExtras, in program order

  // Set for conv1d/conv2d/conv3d kernels: the convolution this implicit GEMM computes.
  std::optional<ConvProblem> conv;

  // True for gemv(m, k) kernels: y = A x, a GEMM with n = 1 run by CUTLASS's SIMT Gemv
  // (one row of A per threads_per_row threads, no tiles; validate_gemv.h). The
  // levers come from with_gemv(...), which only such kernels accept.
  bool gemv = false;
  GemvLevers gemv_levers;

  // Set for row kernels (softmax(rows = R, length = L), layernorm(...), ...: row_problem.h): our
  // row-wise kernel, no GEMM at all; m = rows, k = length, n = 1. Only with_arch, with_types
  // (a = input, d = output) and with_rows(...) apply (validate_rows.h).
  std::optional<RowProblem> rows;
  RowLevers row_levers;

  // Set for attention kernels (attention(batch, seq_q, seq_k, head_dim, ...): attention_problem.h): our
  // fused kernel; m = batch x seq_q, n = head_dim, k = seq_k. Only with_arch, with_types (a = f32, d = f32)
  // and with_attention(...) apply (validate_attention.h).
  std::optional<AttentionProblem> attention;
  AttentionLevers attention_levers;

  static constexpr int kMaxExtras = 8;

  bool is_conv() const { return conv.has_value(); }
  bool is_gemv() const { return gemv; }
  bool is_rows() const { return rows.has_value(); }
  bool is_attention() const { return attention.has_value(); }
  bool swaps_operands() const { return operand_swap.value == OperandSwap::on; }
  bool is_grouped() const { return groups.has_value(); }
  bool has_source() const { return c.value != DType::void_; }
  bool has_bias() const;
  // True when some step reads C through an expression (custom("... c ...")).
  bool reads_source_in_steps() const;
  const EpilogueStep* bias_step() const;
};

struct Program {
  std::vector<GemmKernel> kernels;
  std::vector<Pipeline> pipelines;  // ir/pipeline.h
};

}  // namespace ucutlass::ir
