#pragma once
// Lowering of a convolution operation call to a ConvProblem:
//
//   conv2d(fprop, n = 8, h = 512, w = 1024, c = 64, k = 128, r = 3, s = 3, pad = 1)
//   ==> ConvProblem{dims 2, fprop, n 8, input (1, 512, 1024), c 64, k 128, filter (1, 3, 3),
//                   pad (0, 1, 1), stride (1, 1, 1), dilation (1, 1, 1), groups 1}
//
// Names and value kinds only (required arguments, integers, ranges, tuples of
// the right length); whether the problem is well formed and legal on an
// architecture is validate.h's job.
#include "dsl/ast.h"
#include "ir/conv_problem.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// True for "conv1d", "conv2d", "conv3d".
bool is_conv_operation(const std::string& name);

// The operation's one-line form for messages, e.g. "conv2d(fprop, n = ..., h = ..., ...)".
std::string conv_operation_form(int dims);

// Fills `out` from the call; returns false after reporting errors.
bool lower_conv_operation(const dsl::Call& op, ConvProblem& out, Diagnostics& diags);

}  // namespace ucutlass::ir
