#pragma once
// Which element-wise ATen ops after a GEMM can become epilogue steps, as one
// table keyed by the op's base name. A new DSL built-in plugs in as one row:
// a function that reads the node and says what step it is, or that it is not
// one (a scalar add, a broadcast the DSL has no step for, ...).
#include <optional>
#include <string>
#include <string_view>

#include "graph/op_graph.h"
#include "ir/types.h"

namespace ucutlass::map {

// What an element-wise node does to the tensor flowing out of a GEMM.
//   scale      multiply by a constant (folds into alpha, or beta as well)
//   bias_col   add a length-N vector (nn.Linear's bias)
//   bias_row   add an [M, 1] column vector
//   residual   add a tensor of the output's shape (becomes C with beta = 1, or an aux load)
//   activation an ir::Activation with its constants
//   offset     add a constant (x + 0.5, x - 1)
//   mul_col    multiply by a length-N vector (a per-channel scale parameter)
//   mul_aux    multiply by a tensor of the output's shape (SwiGLU's silu(x W1) * (x W3))
// Where a step lands in a kernel (alpha, beta and C, or an sm90a epilogue step) is fusable_prefix()'s
// choice (gemm_match.h).
enum class StepKind { scale, bias_col, bias_row, residual, activation, offset, mul_col, mul_aux };

struct ChainStep {
  StepKind kind = StepKind::activation;
  int node = -1;     // the node this step covers
  int output = -1;   // the tensor it produces
  int operand = -1;  // bias, residual or per-column scale tensor
  ir::Activation act = ir::Activation::relu;
  double p0 = 0, p1 = 0;  // scale factor; offset; leaky_relu slope; elu alpha; softplus beta, threshold; clamp lower, upper
};

std::string step_text(const ChainStep& s);  // "relu", "scale(0.5)", "bias(col)", ...

// The step `node` is when it reads the chain tensor `chain` of logical shape
// [rows, cols] (rows = M, possibly with leading batch dimensions folded in),
// or nullopt when it is not a step the DSL can fuse.
std::optional<ChainStep> match_epilogue_step(const graph::OpGraph& g, int node, int chain);

// The op base names the table knows, for documentation and tests.
const std::vector<std::string_view>& epilogue_op_names();

}  // namespace ucutlass::map
