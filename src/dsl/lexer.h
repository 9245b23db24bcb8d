#pragma once
// Turns DSL source into tokens. Never fails hard: bad bytes, unterminated
// strings and out-of-range numbers become diagnostics, and lexing goes on so
// that one run reports every problem.
#include <vector>

#include "dsl/token.h"
#include "support/diagnostic.h"

namespace ucutlass::dsl {

// Sources past this size are refused outright: a kernel program is a few
// dozen lines, and a bound keeps every later pass linear and fast.
constexpr size_t kMaxSourceBytes = 1u << 20;

// The token list always ends with one end_of_file token.
std::vector<Token> tokenize(const SourceFile& file, Diagnostics& diags);

}  // namespace ucutlass::dsl
