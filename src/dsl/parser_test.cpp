#include <gtest/gtest.h>

#include "dsl/lexer.h"
#include "dsl/parser.h"

namespace ucutlass::dsl {
namespace {

struct Parsed {
  SourceFile file;
  Diagnostics diags;
  Program program;
  explicit Parsed(const std::string& text) : file("t.dsl", text), diags(file) { program = parse_program(file, diags); }
};

TEST(Lexer, TokenKindsAndValues) {
  SourceFile f("t.dsl", "kernel k = gemm(m = 128, x = 0.5, s = \"a\\\"b\") # comment\n.with_x(-3);");
  Diagnostics d(f);
  std::vector<Token> t = tokenize(f, d);
  EXPECT_FALSE(d.has_errors()) << d.render();
  ASSERT_EQ(t.size(), 25u);
  EXPECT_EQ(t[0].kind, TokenKind::kw_kernel);
  EXPECT_EQ(t[7].kind, TokenKind::integer);
  EXPECT_EQ(t[7].int_value, 128);
  EXPECT_EQ(t[11].kind, TokenKind::real);
  EXPECT_DOUBLE_EQ(t[11].real_value, 0.5);
  EXPECT_EQ(t[15].kind, TokenKind::string);
  EXPECT_EQ(t[15].text, "a\"b");
  EXPECT_EQ(t.back().kind, TokenKind::end_of_file);
}

TEST(Lexer, ExactMessagesForBadTokens) {
  SourceFile f("t.dsl", "99999999999999999999 3xtf32 \"open\n@");
  Diagnostics d(f);
  tokenize(f, d);
  EXPECT_EQ(d.render(),
            "t.dsl:1:1: error: integer '99999999999999999999' is out of range\n"
            "  99999999999999999999 3xtf32 \"open\n"
            "  ^~~~~~~~~~~~~~~~~~~~\n"
            "  legal: at most 9223372036854775807\n"
            "t.dsl:1:22: error: malformed number '3xtf32'\n"
            "  99999999999999999999 3xtf32 \"open\n"
            "                       ^~~~~~\n"
            "  legal: an integer such as 128 or a number such as 0.01\n"
            "t.dsl:1:29: error: unterminated string\n"
            "  99999999999999999999 3xtf32 \"open\n"
            "                              ^\n"
            "  legal: a string closed by '\"' on the same line\n"
            "t.dsl:2:1: error: unexpected character '@'\n"
            "  @\n"
            "  ^\n"
            "  legal: names, numbers, strings, ( ) , . = - ; and # comments\n");
}

TEST(Lexer, RefusesHugeInput) {
  SourceFile f("t.dsl", std::string(kMaxSourceBytes + 1, ' '));
  Diagnostics d(f);
  EXPECT_EQ(tokenize(f, d).size(), 1u);
  EXPECT_EQ(d.all().at(0).message, "source is 1048577 bytes, more than the 1048576-byte limit");
}

TEST(Parser, KernelWithChain) {
  Parsed p("kernel k = gemm(m = 1, n = 2, k = 3)\n  .with_tile(128, 128, 64)\n  .with_epilogue(bias(col), clamp(0, 6))\n");
  ASSERT_FALSE(p.diags.has_errors()) << p.diags.render();
  ASSERT_EQ(p.program.kernels.size(), 1u);
  const KernelDecl& k = p.program.kernels[0];
  EXPECT_EQ(k.name, "k");
  EXPECT_EQ(k.op.name, "gemm");
  ASSERT_EQ(k.op.args.size(), 3u);
  EXPECT_EQ(k.op.args[2].name, "k");
  ASSERT_EQ(k.chain.size(), 2u);
  EXPECT_EQ(k.chain[1].name, "with_epilogue");
  EXPECT_EQ(expr_to_string(*k.chain[1].args[1].value), "clamp(0, 6)");
  EXPECT_EQ(p.file.slice(k.chain[0].span), "with_tile(128, 128, 64)");
}

TEST(Parser, ReportsEveryDeclarationsFirstError) {
  Parsed p("kernel a = gemm(m = 1,,)\nkernel b gemm()\nkernel c = gemm().with_tile(1, 2, 3)\n");
  EXPECT_EQ(p.diags.render(),
            "t.dsl:1:23: error: expected a value, found ','\n"
            "  kernel a = gemm(m = 1,,)\n"
            "                        ^\n"
            "  legal: a number, a name, a string, a call such as clamp(0, 6), or a tuple\n"
            "t.dsl:2:10: error: expected '=' after the kernel name, found 'gemm'\n"
            "  kernel b gemm()\n"
            "           ^~~~\n"
            "  legal: kernel b = gemm(...)\n");
  ASSERT_EQ(p.program.kernels.size(), 1u);
  EXPECT_EQ(p.program.kernels[0].name, "c");
}

TEST(Parser, UnterminatedCallAtEndOfFile) {
  Parsed p("kernel a = gemm(m = 1");
  EXPECT_EQ(p.diags.render(),
            "t.dsl:1:22: error: expected ',' or ')' in an argument list, found end of file\n"
            "  kernel a = gemm(m = 1\n"
            "                       ^\n"
            "  legal: arguments separated by ',' and closed by ')'\n");
}

TEST(Parser, DeepNestingIsRefusedNotOverflowed) {
  std::string text = "kernel k = gemm(";
  for (int i = 0; i < 100000; ++i) text += "a(";
  Parsed p(text);
  ASSERT_TRUE(p.diags.has_errors());
  EXPECT_EQ(p.diags.all()[0].message, "nesting deeper than 32 levels, found 'a'");
}

TEST(Parser, PipelineDeclaration) {
  Parsed p("kernel k = gemm()\npipeline mlp = inputs(x, w).k(a = x, b = w, d = y).outputs(y);\n");
  EXPECT_FALSE(p.diags.has_errors()) << p.diags.render();
  ASSERT_EQ(p.program.pipelines.size(), 1u);
  const PipelineDecl& d = p.program.pipelines[0];
  EXPECT_EQ(d.name, "mlp");
  ASSERT_EQ(d.calls.size(), 3u);
  EXPECT_EQ(d.calls[1].name, "k");
  EXPECT_EQ(d.calls[1].args[2].name, "d");
}

TEST(Parser, PipelineSyntaxErrorRecoversAtTheNextDeclaration) {
  Parsed p("pipeline p inputs(x)\nkernel k = gemm()\n");
  EXPECT_EQ(p.diags.render(),
            "t.dsl:1:12: error: expected '=' after the pipeline name, found 'inputs'\n"
            "  pipeline p inputs(x)\n"
            "             ^~~~~~\n"
            "  legal: pipeline p = inputs(...).KERNEL(a = ..., d = ...).outputs(...)\n");
  ASSERT_EQ(p.program.kernels.size(), 1u);
}

TEST(Parser, GarbageGivesBoundedDiagnostics) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += static_cast<char>((i * 7919) % 256);
  Parsed p(text);
  EXPECT_TRUE(p.diags.has_errors());
  EXPECT_LE(p.diags.all().size(), Diagnostics::kMaxKept);
}

}  // namespace
}  // namespace ucutlass::dsl
