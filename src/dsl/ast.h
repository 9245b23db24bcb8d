#pragma once
// The syntax tree: a program is a list of kernel declarations, each an
// operation call followed by a chain of `.with_*` calls, and of pipeline
// declarations, each a chain of calls over those kernels. The tree is
// deliberately untyped (every argument is an Expr); names are resolved, and
// misspellings diagnosed, when the tree is lowered to the typed IR
// (ir/lower.h). Every node keeps its source span.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support/source_file.h"

namespace ucutlass::dsl {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// `name = value` or a positional `value` (then name is empty).
struct Arg {
  std::string name;
  Span name_span;
  ExprPtr value;
  Span span;  // the whole argument
};

struct Expr {
  enum class Kind { integer, real, name, string, call, tuple };
  Kind kind = Kind::name;
  Span span;
  int64_t int_value = 0;    // integer
  double real_value = 0;    // integer and real
  std::string text;         // name, string contents, callee of a call
  Span callee_span;         // call
  std::vector<Arg> args;    // call arguments
  std::vector<ExprPtr> items;  // tuple items: (1, 2, 1)
};

struct Call {
  std::string name;
  Span name_span;
  Span span;  // name through ')'
  std::vector<Arg> args;
};

struct KernelDecl {
  std::string name;
  Span name_span;
  Span span;
  Call op;                  // gemm(m = 4096, ...)
  std::vector<Call> chain;  // .with_tile(...) ...
};

// pipeline NAME = inputs(x, w1, ...).up(a = x, b = w1, d = h).down(...).outputs(y):
// the first and last calls are the signature, the ones between run kernels in
// order, each binding the kernel's operands to named tensors.
struct PipelineDecl {
  std::string name;
  Span name_span;
  Span span;
  std::vector<Call> calls;
};

struct Program {
  std::vector<KernelDecl> kernels;
  std::vector<PipelineDecl> pipelines;
};

// Canonical text of an expression, for messages ("split_k(4)").
std::string expr_to_string(const Expr& e);

}  // namespace ucutlass::dsl
