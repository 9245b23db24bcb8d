#pragma once
// Fills `$KEY$` placeholders in a block of emitted code. Emitted C++ is kept
// as readable raw-string templates next to the logic that chooses the values,
// so a reader sees the generated shape instead of a trail of `+=`.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ucutlass::codegen {

using Substitutions = std::vector<std::pair<std::string_view, std::string>>;

// Replaces every `$KEY$` with its value; a placeholder without a value is a
// bug in the emitter and throws std::logic_error naming it.
std::string fill(std::string_view text, const Substitutions& subs);

// A C++ float literal that reads back as exactly `v` (shortest form): "0.01f", "6.0f".
std::string float_literal(double v);

// One of ucutlass's runtime files (src/codegen/runtime/*.hpp) copied into a generated header, between
// lines naming it, so a reader of the header sees where the code comes from.
std::string runtime_block(std::string_view path, std::string_view text);

// `text` as a C/C++ string literal, quotes included.
std::string c_string_literal(std::string_view text);

}  // namespace ucutlass::codegen
