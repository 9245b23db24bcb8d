#pragma once
// Recursive-descent parser for the kernel DSL (grammar: docs/dsl.md). On a
// syntax error it reports, skips to the next `kernel` keyword and goes on, so
// one run lists the problems of every declaration.
#include "dsl/ast.h"
#include "support/diagnostic.h"

namespace ucutlass::dsl {

// Calls and tuples nest at most this deep; deeper input is refused rather than
// risking the stack.
constexpr int kMaxNesting = 32;

Program parse_program(const SourceFile& file, Diagnostics& diags);

}  // namespace ucutlass::dsl
