#pragma once
// The expression language inside an epilogue step custom("..."):
//
//   expr    = term , { ( "+" | "-" ) , term } ;
//   term    = unary , { ( "*" | "/" ) , unary } ;
//   unary   = "-" , unary | primary ;
//   primary = number | name | name , "(" , [ expr , { "," , expr } ] , ")" | "(" , expr , ")" ;
//
// Numbers are decimal (1, 0.5, .5, 1e-3). Names and functions are resolved when
// the step is lowered (ir/lower.cpp); this parser only builds the tree. Every
// node keeps the absolute source span of its text, so diagnostics point into
// the string.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostic.h"
#include "support/source_file.h"

namespace ucutlass::dsl {

struct Formula {
  enum class Kind { number, name, call, neg, add, sub, mul, div };
  Kind kind = Kind::number;
  double value = 0;             // number
  std::string name;             // name, callee of a call
  std::vector<Formula> args;    // call arguments; operands of neg (1) and binary operators (2)
  Span span;
};

// Parses `text`. Its first byte is at source offset `base` when `exact` is
// true; otherwise (the string had escapes, so offsets do not map) every span
// is `fallback`. Reports errors to `diags` and returns nullopt on the first one.
std::optional<Formula> parse_formula(std::string_view text, uint32_t base, bool exact, Span fallback,
                                     Diagnostics& diags);

// Canonical text of a formula, fully parenthesized ("(x * 2)"), for messages.
std::string formula_to_string(const Formula& f);

}  // namespace ucutlass::dsl
