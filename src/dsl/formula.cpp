#include "dsl/formula.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace ucutlass::dsl {

namespace {

constexpr int kMaxDepth = 32;
// Operators chain without nesting ("x + x + ... + x" is a left-deep tree), so
// the size is bounded too: every later pass recurses over the tree.
constexpr int kMaxNodes = 256;

class FormulaParser {
 public:
  FormulaParser(std::string_view text, uint32_t base, bool exact, Span fallback, Diagnostics& diags)
      : text_(text), base_(base), exact_(exact), fallback_(fallback), diags_(diags) {}

  std::optional<Formula> run() {
    skip_space();
    if (pos_ == text_.size()) {
      fail(pos_, pos_, "the expression is empty", "an expression such as relu(x * s + bias)");
      return std::nullopt;
    }
    std::optional<Formula> f = expr(0);
    if (!f) return std::nullopt;
    skip_space();
    if (pos_ != text_.size()) {
      fail(pos_, pos_ + 1, "unexpected '" + std::string(1, text_[pos_]) + "' after the expression",
           "operators + - * /, calls f(x), parentheses");
      return std::nullopt;
    }
    return f;
  }

 private:
  Span span(size_t b, size_t e) const {
    if (!exact_) return fallback_;
    return Span{base_ + static_cast<uint32_t>(b), base_ + static_cast<uint32_t>(std::max(e, b + 1))};
  }

  void fail(size_t b, size_t e, std::string msg, std::string legal = {}) {
    if (!failed_) diags_.error(span(b, e), std::move(msg), std::move(legal));
    failed_ = true;
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  bool at(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  // Counts a node; false (with one error) past kMaxNodes.
  bool count_node() {
    if (++nodes_ <= kMaxNodes) return true;
    fail(pos_ > 0 ? pos_ - 1 : 0, pos_, "the expression has more than " + std::to_string(kMaxNodes) + " terms");
    return false;
  }

  Formula binary(Formula::Kind kind, Formula lhs, Formula rhs) const {
    Formula f;
    f.kind = kind;
    f.span = exact_ ? Span{lhs.span.begin, rhs.span.end} : fallback_;
    f.args.push_back(std::move(lhs));
    f.args.push_back(std::move(rhs));
    return f;
  }

  std::optional<Formula> expr(int depth) {
    std::optional<Formula> lhs = term(depth);
    while (lhs && (at('+') || at('-'))) {
      Formula::Kind kind = text_[pos_++] == '+' ? Formula::Kind::add : Formula::Kind::sub;
      std::optional<Formula> rhs = term(depth);
      if (!rhs || !count_node()) return std::nullopt;
      lhs = binary(kind, std::move(*lhs), std::move(*rhs));
    }
    return lhs;
  }

  std::optional<Formula> term(int depth) {
    std::optional<Formula> lhs = unary(depth);
    while (lhs && (at('*') || at('/'))) {
      Formula::Kind kind = text_[pos_++] == '*' ? Formula::Kind::mul : Formula::Kind::div;
      std::optional<Formula> rhs = unary(depth);
      if (!rhs || !count_node()) return std::nullopt;
      lhs = binary(kind, std::move(*lhs), std::move(*rhs));
    }
    return lhs;
  }

  std::optional<Formula> unary(int depth) {
    if (depth >= kMaxDepth) {
      skip_space();
      fail(pos_, pos_ + 1, "the expression nests deeper than " + std::to_string(kMaxDepth) + " levels");
      return std::nullopt;
    }
    if (at('-')) {
      size_t begin = pos_++;
      std::optional<Formula> operand = unary(depth + 1);
      if (!operand) return std::nullopt;
      Formula f;
      f.kind = Formula::Kind::neg;
      f.span = exact_ ? Span{span(begin, begin).begin, operand->span.end} : fallback_;
      f.args.push_back(std::move(*operand));
      return f;
    }
    return primary(depth);
  }

  std::optional<Formula> primary(int depth) {
    if (!count_node()) return std::nullopt;
    skip_space();
    if (pos_ == text_.size()) {
      fail(pos_, pos_, "the expression ends where a value was expected", "a number, a name, f(...) or (...)");
      return std::nullopt;
    }
    const size_t begin = pos_;
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      std::optional<Formula> inner = expr(depth + 1);
      if (!inner) return std::nullopt;
      if (!at(')')) {
        fail(begin, begin + 1, "this '(' is not closed", "a matching ')'");
        return std::nullopt;
      }
      ++pos_;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number(begin);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      Formula f;
      f.name = std::string(text_.substr(begin, pos_ - begin));
      f.span = span(begin, pos_);
      f.kind = Formula::Kind::name;
      if (!at('(')) return f;
      f.kind = Formula::Kind::call;
      const size_t open = pos_++;
      if (!at(')')) {
        while (true) {
          std::optional<Formula> arg = expr(depth + 1);
          if (!arg) return std::nullopt;
          f.args.push_back(std::move(*arg));
          if (at(',')) {
            ++pos_;
            continue;
          }
          break;
        }
      }
      if (!at(')')) {
        fail(open, open + 1, "the call of '" + f.name + "' is not closed", "f(a, b) with a matching ')'");
        return std::nullopt;
      }
      ++pos_;
      if (exact_) f.span = span(begin, pos_);
      return f;
    }
    fail(begin, begin + 1, "unexpected '" + std::string(1, c) + "' in the expression",
         "numbers, names, + - * /, f(...), (...)");
    return std::nullopt;
  }

  std::optional<Formula> number(size_t begin) {
    auto digits = [&] {
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    };
    digits();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      digits();
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t save = pos_++;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) digits();
      else pos_ = save;
    }
    const std::string s(text_.substr(begin, pos_ - begin));
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      fail(begin, pos_, "malformed number '" + std::string(text_.substr(begin, pos_ - begin)) + "'");
      return std::nullopt;
    }
    if (s == ".") {
      fail(begin, pos_, "malformed number '.'");
      return std::nullopt;
    }
    errno = 0;
    Formula f;
    f.kind = Formula::Kind::number;
    f.value = std::strtod(s.c_str(), nullptr);
    if (errno == ERANGE) {
      fail(begin, pos_, "number '" + s + "' is out of range");
      return std::nullopt;
    }
    f.span = span(begin, pos_);
    return f;
  }

  std::string_view text_;
  uint32_t base_;
  bool exact_;
  Span fallback_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  int nodes_ = 0;
  bool failed_ = false;
};

}  // namespace

std::optional<Formula> parse_formula(std::string_view text, uint32_t base, bool exact, Span fallback,
                                     Diagnostics& diags) {
  return FormulaParser(text, base, exact, fallback, diags).run();
}

std::string formula_to_string(const Formula& f) {
  switch (f.kind) {
    case Formula::Kind::number: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", f.value);
      return buf;
    }
    case Formula::Kind::name: return f.name;
    case Formula::Kind::call: {
      std::string s = f.name + "(";
      for (size_t i = 0; i < f.args.size(); ++i) s += (i ? ", " : "") + formula_to_string(f.args[i]);
      return s + ")";
    }
    case Formula::Kind::neg: return "-" + formula_to_string(f.args[0]);
    case Formula::Kind::add:
    case Formula::Kind::sub:
    case Formula::Kind::mul:
    case Formula::Kind::div: {
      const char* op = f.kind == Formula::Kind::add ? " + " : f.kind == Formula::Kind::sub ? " - "
                       : f.kind == Formula::Kind::mul ? " * " : " / ";
      return "(" + formula_to_string(f.args[0]) + op + formula_to_string(f.args[1]) + ")";
    }
  }
  return "?";
}

}  // namespace ucutlass::dsl
