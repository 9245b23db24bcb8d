#pragma once
// The per-op cost model: FLOPs and compulsory DRAM traffic of one ATen node,
// from shapes alone. A multiply-add counts 2 FLOPs. Bytes are recorded per
// tensor touched, so the unfused bound (every op through DRAM) and the fused
// bound (only graph inputs, weights and outputs) come from the same numbers.
// Formulas and their sources: docs/sol.md, shared/facts/sol.md.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/op_graph.h"

namespace ucutlass::sol {

enum class OpKind {
  view, gemm, bmm, gemv, conv, conv_transpose, conv_depthwise, attention,
  elementwise, reduction, softmax, norm, pooling, embedding, copy, creation, unknown
};
std::string kind_name(OpKind k);
bool is_gemm_like(OpKind k);  // priced on tensor cores: gemm, bmm, gemv, convs, attention

// A GEMM's problem size; convolutions give their implicit-GEMM view.
struct GemmDims {
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

struct TensorAccess {
  int tensor = -1;
  double bytes = 0;
};

struct OpCost {
  OpKind kind = OpKind::unknown;
  double flops = 0;
  std::vector<TensorAccess> reads;   // each distinct input once, broadcast operands at their own size
  std::vector<TensorAccess> writes;
  graph::DType math_dtype = graph::DType::f32;  // operand dtype that picks the math path
  std::optional<GemmDims> gemm;
  std::string shape;  // "M=4096 N=4096 K=4096", for people
  std::string note;   // what was assumed, when anything was

  double bytes_read() const;
  double bytes_written() const;
  double bytes() const { return bytes_read() + bytes_written(); }
};

// Costs one node. Never fails: an op the model does not know gets the cost of
// an element-wise op over its tensors (reads every input, writes every output,
// one FLOP per output element) and kind `unknown`, so it is listed, not zero.
OpCost cost_node(const graph::OpGraph& g, const graph::Node& node);

// Ops that only reinterpret memory (view, permute, expand, ...): no traffic.
bool is_view_op(std::string_view base_name);
// Element-wise FLOPs per output element for a known element-wise op, else nullopt.
std::optional<double> elementwise_flops_per_element(std::string_view base_name);

}  // namespace ucutlass::sol
