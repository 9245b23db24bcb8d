#include "codegen/text_template.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace ucutlass::codegen {

std::string fill(std::string_view text, const Substitutions& subs) {
  std::string out;
  out.reserve(text.size() * 2);
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find('$', i);
    if (open == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    size_t close = text.find('$', open + 1);
    if (close == std::string_view::npos) throw std::logic_error("unterminated $ placeholder in template");
    out.append(text.substr(i, open - i));
    std::string_view key = text.substr(open + 1, close - open - 1);
    bool found = false;
    for (const auto& [k, v] : subs) {
      if (k == key) {
        out += v;
        found = true;
        break;
      }
    }
    if (!found) throw std::logic_error("template placeholder $" + std::string(key) + "$ has no value");
    i = close + 1;
  }
  return out;
}

std::string float_literal(double v) {
  char buf[64];
  float f = static_cast<float>(v);
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s + "f";
}

std::string runtime_block(std::string_view path, std::string_view text) {
  return "\n// ---- ucutlass runtime: " + std::string(path) + " ----\n" + std::string(text) +
         "// ---- end of the ucutlass runtime ----\n";
}

std::string c_string_literal(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default: out += ch;
    }
  }
  return out + "\"";
}

}  // namespace ucutlass::codegen
