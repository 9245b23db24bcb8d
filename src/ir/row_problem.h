#pragma once
// Row kernels: one statistic per row of a contiguous [rows, length] tensor, and (for the first four
// operations) every element rewritten with it. They are the problems with no GEMM in them that
// PyTorch runs as several passes over memory (a logsumexp reads its input three times, a group norm
// twice and writes a temporary), while one read and one write is the floor:
//
//   softmax(rows = R, length = L)                  y = exp(x - max) / sum exp(x - max)        [R, L]
//   log_softmax(rows = R, length = L)              y = x - max - log sum exp(x - max)         [R, L]
//   layernorm(rows = R, length = L, eps = 1e-5, affine = on)
//                                                  y = (x - mean) / sqrt(var + eps) * w + b   [R, L]
//   groupnorm(rows = N*G, length = C/G*HW, groups = G, channel_span = HW, eps = 1e-5, affine = on)
//                                                  layernorm per row; w, b per channel        [R, L]
//   logsumexp | reduce_sum | reduce_mean | reduce_max (rows = R, length = L)                  [R]
//   argmax(rows = R, length = L)                   first index of the largest, int64          [R]
//
// They run our kernel (src/codegen/runtime/row_kernels.hpp), not a CUTLASS template: CUTLASS has
// no row softmax, logsumexp or group norm kernel in its library. A CTA holds a chunk of a row in
// registers, so the row is read from DRAM once. The levers (with_rows):
//
//   access   elements per vector load: 1, 2, 4, 8, at most 16 bytes, dividing L
//   threads  threads per CTA: 128, 256, 512, 1024
//   items    vector loads each thread keeps in registers; access x items <= 64 values
//   splits   CTAs per row (1 to 1024): a row longer than a CTA holds, or too few rows to fill the
//            GPU, is cut into `splits` chunks; the statistics of the chunks are then combined by a
//            second launch (workspace: 16 bytes per chunk)
//
// A chunk, ceil(L / splits) rounded up to `access`, must fit threads x access x items.
#include <cstdint>

#include "ir/setting.h"
#include "ir/types.h"
#include "support/source_file.h"

namespace ucutlass::ir {

struct RowProblem {
  RowOp op = RowOp::softmax;
  Span op_span;
  int64_t rows = 0, length = 0;
  Span rows_span, length_span;
  // groupnorm: the groups of one sample (row r is group r % groups) and the elements of one
  // channel (H*W): element i of a row is channel (r % groups) * (length / channel_span) + i / channel_span.
  int64_t groups = 1, channel_span = 1;
  Span groups_span, channel_span_span;
  double eps = 1e-5;  // layernorm, groupnorm
  Span eps_span;
  bool affine = false;  // layernorm, groupnorm: read a weight and a bias (per column, per channel)
  Span affine_span;
};

// The levers (with_rows), 0 = auto until resolve_auto.
struct RowLevers {
  Setting<int> access{0}, threads{0}, items{0}, splits{0};
};

// The operations whose output has the input's shape (the rest write one value per row).
inline bool row_op_keeps_shape(RowOp op) {
  return op == RowOp::softmax || op == RowOp::log_softmax || op == RowOp::layernorm || op == RowOp::groupnorm;
}
inline bool row_op_normalizes(RowOp op) { return op == RowOp::layernorm || op == RowOp::groupnorm; }

// The most values one thread keeps in registers (access x items).
inline constexpr int kRowRegisterValues = 64;
// The SMs of the GPU the auto choice fills (H100 and H200: 132).
inline constexpr int kRowAutoSms = 132;

// The elements one CTA handles: ceil(length / splits) rounded up to a whole access.
inline int64_t row_chunk(int64_t length, int splits, int access) {
  const int64_t per = (length + splits - 1) / splits;
  return (per + access - 1) / access * access;
}

// The C++ enumerator of the runtime header ("ucutlass_rows::RowOp::softmax").
const char* row_op_runtime_name(RowOp op);

}  // namespace ucutlass::ir
