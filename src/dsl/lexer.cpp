#include "dsl/lexer.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace ucutlass::dsl {

const char* token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::identifier: return "a name";
    case TokenKind::integer: return "an integer";
    case TokenKind::real: return "a number";
    case TokenKind::string: return "a string";
    case TokenKind::kw_kernel: return "'kernel'";
    case TokenKind::lparen: return "'('";
    case TokenKind::rparen: return "')'";
    case TokenKind::comma: return "','";
    case TokenKind::dot: return "'.'";
    case TokenKind::equals: return "'='";
    case TokenKind::minus: return "'-'";
    case TokenKind::semicolon: return "';'";
    case TokenKind::end_of_file: return "end of file";
  }
  return "?";
}

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

class Lexer {
 public:
  Lexer(const SourceFile& file, Diagnostics& diags) : text_(file.text()), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    if (text_.size() > kMaxSourceBytes) {
      diags_.error(Span{0, 0}, "source is " + std::to_string(text_.size()) + " bytes, more than the " +
                                   std::to_string(kMaxSourceBytes) + "-byte limit",
                   "a kernel program of at most 1 MiB");
      out.push_back(eof());
      return out;
    }
    while (true) {
      skip_space_and_comments();
      if (pos_ >= text_.size()) break;
      out.push_back(next());
    }
    out.push_back(eof());
    return out;
  }

 private:
  Token eof() const {
    Token t;
    t.kind = TokenKind::end_of_file;
    t.span = {static_cast<uint32_t>(text_.size()), static_cast<uint32_t>(text_.size())};
    return t;
  }

  void skip_space_and_comments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  Token make(TokenKind kind, size_t begin) {
    Token t;
    t.kind = kind;
    t.span = {static_cast<uint32_t>(begin), static_cast<uint32_t>(pos_)};
    t.text = text_.substr(begin, pos_ - begin);
    return t;
  }

  Token next() {
    size_t begin = pos_;
    char c = text_[pos_];
    if (is_ident_start(c)) {
      while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
      Token t = make(TokenKind::identifier, begin);
      if (t.text == "kernel") t.kind = TokenKind::kw_kernel;
      return t;
    }
    if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) return number(begin);
    if (c == '"') return string(begin);
    ++pos_;
    switch (c) {
      case '(': return make(TokenKind::lparen, begin);
      case ')': return make(TokenKind::rparen, begin);
      case ',': return make(TokenKind::comma, begin);
      case '.': return make(TokenKind::dot, begin);
      case '=': return make(TokenKind::equals, begin);
      case '-': return make(TokenKind::minus, begin);
      case ';': return make(TokenKind::semicolon, begin);
      default: break;
    }
    // Swallow the rest of a UTF-8 sequence so one stray character is one error.
    while (pos_ < text_.size() && (static_cast<unsigned char>(text_[pos_]) & 0xC0) == 0x80) ++pos_;
    unsigned char uc = static_cast<unsigned char>(c);
    std::string shown = (uc >= 0x20 && uc < 0x7f) ? std::string("'") + c + "'" : "byte 0x" + hex(uc);
    diags_.error(Span{static_cast<uint32_t>(begin), static_cast<uint32_t>(pos_)}, "unexpected character " + shown,
                 "names, numbers, strings, ( ) , . = - ; and # comments");
    return next_or_eof();
  }

  Token next_or_eof() {
    skip_space_and_comments();
    if (pos_ >= text_.size()) return eof();
    return next();
  }

  static std::string hex(unsigned char c) {
    const char* d = "0123456789abcdef";
    return std::string{d[c >> 4], d[c & 15]};
  }

  Token number(size_t begin) {
    bool is_real = false;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.' && !(pos_ + 1 < text_.size() && is_ident_start(text_[pos_ + 1]))) {
      is_real = true;
      ++pos_;
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t save = pos_;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ < text_.size() && is_digit(text_[pos_])) {
        is_real = true;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
      } else {
        pos_ = save;
      }
    }
    // A number glued to letters (128x, 3xtf32) is one bad token, not two.
    bool glued = false;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) {
      glued = true;
      ++pos_;
    }
    Token t = make(is_real ? TokenKind::real : TokenKind::integer, begin);
    if (glued) {
      diags_.error(t.span, "malformed number '" + t.text + "'", "an integer such as 128 or a number such as 0.01");
      t.kind = TokenKind::integer;
      return t;
    }
    errno = 0;
    if (is_real) {
      t.real_value = std::strtod(t.text.c_str(), nullptr);
      if (errno == ERANGE) diags_.error(t.span, "number '" + t.text + "' is out of range", "a finite double");
    } else {
      char* end = nullptr;
      long long v = std::strtoll(t.text.c_str(), &end, 10);
      if (errno == ERANGE) {
        diags_.error(t.span, "integer '" + t.text + "' is out of range", "at most 9223372036854775807");
        v = 0;
      }
      t.int_value = v;
      t.real_value = static_cast<double>(v);
    }
    return t;
  }

  Token string(size_t begin) {
    ++pos_;  // opening quote
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) {
        char e = text_[pos_ + 1];
        value.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e);
        pos_ += 2;
      } else {
        value.push_back(text_[pos_++]);
      }
    }
    if (pos_ >= text_.size() || text_[pos_] != '"') {
      Token t = make(TokenKind::string, begin);
      diags_.error(Span{static_cast<uint32_t>(begin), static_cast<uint32_t>(begin + 1)},
                   "unterminated string", "a string closed by '\"' on the same line");
      t.text = value;
      return t;
    }
    ++pos_;
    Token t = make(TokenKind::string, begin);
    t.text = value;
    return t;
  }

  const std::string& text_;
  Diagnostics& diags_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<Token> tokenize(const SourceFile& file, Diagnostics& diags) { return Lexer(file, diags).run(); }

}  // namespace ucutlass::dsl
