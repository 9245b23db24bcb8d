#pragma once
// Canonical text of a resolved program: every setting spelled out in a fixed
// order, no spans, no comments. Two programs that mean the same kernel have
// the same canonical text, hence the same hash, namespace and build-cache key.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::ir {

std::string canonical_text(const GemmKernel& k);
// An epilogue expression as an s-expression: "(mul x per_col_scale)".
std::string expr_text(const GemmKernel& k, const EpiExpr& e);
std::string canonical_text(const Program& p);
// A pipeline: its signature and each step's bindings in the order written.
std::string canonical_text(const Program& p, const Pipeline& pipe);
// A convolution problem on one line: "conv2d(fprop,n=8,dhw=1,512,1024,c=64,k=128,trs=1,3,3,pad=0,1,1,...)".
std::string conv_text(const ConvProblem& p);
// First 16 hex digits of SHA-256 of the canonical text: the `<hash>` of
// `ucutlass_<hash>.h` and its namespace.
std::string program_hash(const Program& p);

}  // namespace ucutlass::ir
