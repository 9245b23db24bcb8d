#pragma once
// Tokens of the kernel DSL (grammar: docs/dsl.md).
#include <cstdint>
#include <string>

#include "support/source_file.h"

namespace ucutlass::dsl {

enum class TokenKind {
  identifier,  // with_tile, bf16, cooperative, ...
  integer,     // 128
  real,        // 0.01, 1e-3
  string,      // "x * 2"
  kw_kernel,   // kernel
  lparen, rparen, comma, dot, equals, minus, semicolon,
  end_of_file,
};

const char* token_kind_name(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::end_of_file;
  Span span;
  std::string text;       // identifier name, string contents (unescaped), number spelling
  int64_t int_value = 0;  // for integer
  double real_value = 0;  // for real (and integer, converted)
};

}  // namespace ucutlass::dsl
