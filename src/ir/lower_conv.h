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

// True for "conv1d", "conv2d", "conv3d" and "conv_transpose1d", "conv_transpose2d", "conv_transpose3d".
// A transposed convolution states nn.ConvTranspose's problem (input h x w with c channels, k output
// channels) and lowers to the dgrad of the equivalent forward convolution:
//
//   conv_transpose2d(n = 8, h = 32, w = 32, c = 64, k = 32, r = 4, s = 4, pad = 1, stride = 2)
//   ==> conv2d(dgrad, n = 8, h = 64, w = 64, c = 32, k = 64, r = 4, s = 4, pad = 1, stride = 2)
bool is_conv_operation(const std::string& name);

// "conv_transpose2d(n = ..., h = ..., ...)" for messages.
std::string conv_transpose_form(int dims);

// The operation's one-line form for messages, e.g. "conv2d(fprop, n = ..., h = ..., ...)".
std::string conv_operation_form(int dims);

// Fills `out` from the call; returns false after reporting errors.
bool lower_conv_operation(const dsl::Call& op, ConvProblem& out, Diagnostics& diags);

}  // namespace ucutlass::ir
