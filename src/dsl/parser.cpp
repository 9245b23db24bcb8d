#include "dsl/parser.h"

#include <cstdio>

#include "dsl/lexer.h"

namespace ucutlass::dsl {

std::string expr_to_string(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::integer: return std::to_string(e.int_value);
    case Expr::Kind::real: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", e.real_value);
      return buf;
    }
    case Expr::Kind::name: return e.text;
    case Expr::Kind::string: return "\"" + e.text + "\"";
    case Expr::Kind::call: {
      std::string s = e.text + "(";
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i) s += ", ";
        if (!e.args[i].name.empty()) s += e.args[i].name + " = ";
        if (e.args[i].value) s += expr_to_string(*e.args[i].value);
      }
      return s + ")";
    }
    case Expr::Kind::tuple: {
      std::string s = "(";
      for (size_t i = 0; i < e.items.size(); ++i) s += (i ? ", " : "") + expr_to_string(*e.items[i]);
      return s + ")";
    }
  }
  return "?";
}

namespace {

// Thrown to unwind out of one declaration after its first syntax error; caught
// in parse_program, never escapes the parser.
struct SyntaxError {};

class Parser {
 public:
  Parser(std::vector<Token> tokens, Diagnostics& diags) : toks_(std::move(tokens)), diags_(diags) {}

  Program program() {
    Program p;
    while (peek().kind != TokenKind::end_of_file) {
      try {
        if (at_pipeline()) {
          p.pipelines.push_back(pipeline_decl());
          continue;
        }
        if (peek().kind != TokenKind::kw_kernel)
          error_here("expected 'kernel' or 'pipeline' to start a declaration",
                     "kernel NAME = gemm(...).with_...(...), or pipeline NAME = inputs(...).KERNEL(...).outputs(...)");
        p.kernels.push_back(kernel_decl());
      } catch (const SyntaxError&) {
        recover();
      }
    }
    return p;
  }

 private:
  const Token& peek(size_t ahead = 0) const {
    size_t i = std::min(pos_ + ahead, toks_.size() - 1);
    return toks_[i];
  }
  const Token& advance() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool accept(TokenKind k) {
    if (peek().kind != k) return false;
    advance();
    return true;
  }
  [[noreturn]] void error_here(const std::string& what, const std::string& legal) {
    const Token& t = peek();
    std::string found = t.kind == TokenKind::end_of_file ? "end of file"
                        : t.kind == TokenKind::string    ? "a string"
                                                         : "'" + t.text + "'";
    diags_.error(t.span, what + ", found " + found, legal);
    throw SyntaxError{};
  }
  const Token& expect(TokenKind k, const std::string& context, const std::string& legal) {
    if (peek().kind != k) error_here(std::string("expected ") + token_kind_name(k) + " " + context, legal);
    return advance();
  }
  // `pipeline` is a keyword only where a declaration starts and a name
  // follows, so a program may still use it as a name elsewhere.
  bool at_pipeline() const {
    return peek().kind == TokenKind::identifier && peek().text == "pipeline" &&
           peek(1).kind == TokenKind::identifier;
  }
  bool at_declaration() const {
    return peek().kind == TokenKind::kw_kernel || peek().kind == TokenKind::end_of_file || at_pipeline();
  }
  void recover() {
    advance();
    while (!at_declaration()) advance();
  }

  PipelineDecl pipeline_decl() {
    PipelineDecl d;
    const Token& kw = advance();
    const Token& name = advance();
    d.name = name.text;
    d.name_span = name.span;
    const std::string form = "pipeline " + d.name + " = inputs(...).KERNEL(a = ..., d = ...).outputs(...)";
    expect(TokenKind::equals, "after the pipeline name", form);
    d.calls.push_back(call("inputs(...)"));
    while (accept(TokenKind::dot)) d.calls.push_back(call("a kernel call or outputs(...)"));
    uint32_t end = toks_[pos_ > 0 ? pos_ - 1 : 0].span.end;
    accept(TokenKind::semicolon);
    if (!at_declaration())
      error_here("expected '.' to continue the pipeline or a new declaration", ".KERNEL(...), .outputs(...)");
    d.span = {kw.span.begin, end};
    return d;
  }

  KernelDecl kernel_decl() {
    KernelDecl k;
    const Token& kw = advance();
    const Token& name = expect(TokenKind::identifier, "after 'kernel'", "kernel NAME = gemm(...)");
    k.name = name.text;
    k.name_span = name.span;
    expect(TokenKind::equals, "after the kernel name", "kernel " + k.name + " = gemm(...)");
    k.op = call("an operation such as gemm(...)");
    while (accept(TokenKind::dot)) k.chain.push_back(call("a setting such as with_tile(128, 128, 64)"));
    uint32_t end = toks_[pos_ > 0 ? pos_ - 1 : 0].span.end;
    accept(TokenKind::semicolon);
    if (!at_declaration())
      error_here("expected '.' to continue the chain or 'kernel' to start the next declaration",
                 ".with_NAME(...) or a new 'kernel' declaration");
    k.span = {kw.span.begin, end};
    return k;
  }

  Call call(const std::string& what) {
    Call c;
    const Token& name = expect(TokenKind::identifier, "for " + what, what);
    c.name = name.text;
    c.name_span = name.span;
    expect(TokenKind::lparen, "after '" + c.name + "'", c.name + "(...)");
    c.args = arg_list(0);
    c.span = {name.span.begin, toks_[pos_ - 1].span.end};
    return c;
  }

  // After '(' through the matching ')'.
  std::vector<Arg> arg_list(int depth) {
    std::vector<Arg> args;
    if (accept(TokenKind::rparen)) return args;
    while (true) {
      Arg a;
      uint32_t begin = peek().span.begin;
      if (peek().kind == TokenKind::identifier && peek(1).kind == TokenKind::equals) {
        a.name = peek().text;
        a.name_span = peek().span;
        advance();
        advance();
      }
      a.value = expr(depth + 1);
      a.span = {begin, a.value->span.end};
      args.push_back(std::move(a));
      if (accept(TokenKind::comma)) {
        if (accept(TokenKind::rparen)) return args;  // trailing comma
        continue;
      }
      if (accept(TokenKind::rparen)) return args;
      error_here("expected ',' or ')' in an argument list", "arguments separated by ',' and closed by ')'");
    }
  }

  ExprPtr expr(int depth) {
    if (depth > kMaxNesting)
      error_here("nesting deeper than " + std::to_string(kMaxNesting) + " levels", "flatter expressions");
    auto e = std::make_unique<Expr>();
    const Token& t = peek();
    e->span = t.span;
    switch (t.kind) {
      case TokenKind::minus: {
        advance();
        const Token& n = peek();
        if (n.kind != TokenKind::integer && n.kind != TokenKind::real)
          error_here("expected a number after '-'", "a negative number such as -1.5");
        advance();
        e->kind = n.kind == TokenKind::integer ? Expr::Kind::integer : Expr::Kind::real;
        e->int_value = -n.int_value;
        e->real_value = -n.real_value;
        e->span = {t.span.begin, n.span.end};
        return e;
      }
      case TokenKind::integer:
        advance();
        e->kind = Expr::Kind::integer;
        e->int_value = t.int_value;
        e->real_value = t.real_value;
        return e;
      case TokenKind::real:
        advance();
        e->kind = Expr::Kind::real;
        e->real_value = t.real_value;
        return e;
      case TokenKind::string:
        advance();
        e->kind = Expr::Kind::string;
        e->text = t.text;
        return e;
      case TokenKind::identifier: {
        advance();
        e->text = t.text;
        if (accept(TokenKind::lparen)) {
          e->kind = Expr::Kind::call;
          e->callee_span = t.span;
          e->args = arg_list(depth);
          e->span = {t.span.begin, toks_[pos_ - 1].span.end};
        } else {
          e->kind = Expr::Kind::name;
        }
        return e;
      }
      case TokenKind::lparen: {
        advance();
        e->kind = Expr::Kind::tuple;
        while (true) {
          e->items.push_back(expr(depth + 1));
          if (accept(TokenKind::comma)) continue;
          e->span = {t.span.begin, expect(TokenKind::rparen, "to close a tuple", "(a, b, c)").span.end};
          return e;
        }
      }
      default:
        error_here("expected a value", "a number, a name, a string, a call such as clamp(0, 6), or a tuple");
    }
  }

  std::vector<Token> toks_;
  Diagnostics& diags_;
  size_t pos_ = 0;
};

}  // namespace

Program parse_program(const SourceFile& file, Diagnostics& diags) {
  std::vector<Token> tokens = tokenize(file, diags);
  return Parser(std::move(tokens), diags).program();
}

}  // namespace ucutlass::dsl
