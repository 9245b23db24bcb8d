// The epilogue vocabulary: every built-in step lowers to the expected
// expression (canonical text), and every rejection gives its exact message at
// its exact column. One row per rule; docs/coverage.md names these rows.
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/canonical.h"

namespace ucutlass {
namespace {

const char* kBase = "kernel k = gemm(m = 1024, n = 1024, k = 1024).with_types(bf16)";

FrontendResult front(const std::string& chain) { return run_frontend("t.dsl", std::string(kBase) + chain); }

// "col: message" for each diagnostic, in order.
std::vector<std::string> located(const std::string& chain) {
  FrontendResult r = front(chain);
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diags->all())
    out.push_back(std::to_string(r.file->line_col(d.span.begin).column) + ": " + d.message);
  return out;
}

// The canonical lines of the epilogue (expr=, act=, bias=, aux_store=, extra=).
std::string epilogue_lines(const std::string& chain) {
  FrontendResult r = front(chain);
  EXPECT_TRUE(r.ok) << chain;
  if (!r.ok) return "";
  std::string all = ir::canonical_text(r.program.kernels.at(0)), out;
  size_t pos = all.find("  beta=");
  pos = all.find('\n', pos) + 1;
  return all.substr(pos);
}

struct Lowering {
  const char* name;
  const char* chain;
  const char* lines;
};
void PrintTo(const Lowering& row, std::ostream* os) { *os << row.name; }

class EpilogueLowering : public ::testing::TestWithParam<Lowering> {};

TEST_P(EpilogueLowering, CanonicalText) {
  EXPECT_EQ(epilogue_lines(GetParam().chain), GetParam().lines) << GetParam().chain;
}

INSTANTIATE_TEST_SUITE_P(
    Steps, EpilogueLowering,
    ::testing::Values(
        Lowering{"relu", ".with_epilogue(relu)", "  act=relu,0,0\n"},
        Lowering{"gelu", ".with_epilogue(gelu)", "  act=gelu,0,0\n"},
        Lowering{"gelu_tanh", ".with_epilogue(gelu_tanh)", "  act=gelu_tanh,0,0\n"},
        Lowering{"silu", ".with_epilogue(silu)", "  act=silu,0,0\n"},
        Lowering{"sigmoid", ".with_epilogue(sigmoid)", "  act=sigmoid,0,0\n"},
        Lowering{"tanh", ".with_epilogue(tanh)", "  act=tanh,0,0\n"},
        Lowering{"mish", ".with_epilogue(mish)", "  act=mish,0,0\n"},
        Lowering{"hardswish", ".with_epilogue(hardswish)", "  act=hardswish,0,0\n"},
        Lowering{"hardsigmoid", ".with_epilogue(hardsigmoid)", "  act=hardsigmoid,0,0\n"},
        Lowering{"leaky_relu", ".with_epilogue(leaky_relu(0.2))", "  act=leaky_relu,0.20000000000000001,0\n"},
        Lowering{"elu", ".with_epilogue(elu)", "  act=elu,1,0\n"},
        Lowering{"elu_alpha", ".with_epilogue(elu(0.5))", "  act=elu,0.5,0\n"},
        Lowering{"selu", ".with_epilogue(selu)", "  act=selu,0,0\n"},
        Lowering{"softplus", ".with_epilogue(softplus)", "  act=softplus,1,20\n"},
        Lowering{"softplus_beta", ".with_epilogue(softplus(2, 10))", "  act=softplus,2,10\n"},
        Lowering{"clamp", ".with_epilogue(clamp(-1, 6))", "  act=clamp,-1,6\n"},
        Lowering{"clip", ".with_epilogue(clip(0, 6))", "  act=clamp,0,6\n"},
        Lowering{"bias", ".with_epilogue(bias(col, f32))", "  bias=col,f32\n"},
        Lowering{"scale_const", ".with_epilogue(scale(0.5))", "  expr=scale,(mul x 0.5)\n"},
        Lowering{"scale_scalar", ".with_epilogue(scale(scalar))",
                 "  expr=scale,(mul x scale)\n  extra=scale,scalar,f32,in\n"},
        Lowering{"add_const", ".with_epilogue(add(1))", "  expr=add,(add x 1)\n"},
        Lowering{"sub_const", ".with_epilogue(sub(-2.5))", "  expr=sub,(sub x -2.5)\n"},
        Lowering{"mul_col", ".with_epilogue(mul(col))", "  expr=mul,(mul x mul_col)\n  extra=mul_col,col,bf16,in\n"},
        Lowering{"div_row", ".with_epilogue(div(row(f32)))",
                 "  expr=div,(div x div_row)\n  extra=div_row,row,f32,in\n"},
        Lowering{"min_const", ".with_epilogue(min(6))", "  expr=min,(min x 6)\n"},
        Lowering{"max_const", ".with_epilogue(max(0))", "  expr=max,(max x 0)\n"},
        Lowering{"add_aux", ".with_epilogue(add(aux))", "  expr=add,(add x add_aux)\n  extra=add_aux,aux,bf16,in\n"},
        Lowering{"per_row_scale", ".with_epilogue(per_row_scale)",
                 "  expr=per_row_scale,(mul x per_row_scale)\n  extra=per_row_scale,row,bf16,in\n"},
        Lowering{"per_col_scale", ".with_epilogue(per_col_scale(f32))",
                 "  expr=per_col_scale,(mul x per_col_scale)\n  extra=per_col_scale,col,f32,in\n"},
        Lowering{"per_channel_scale", ".with_epilogue(per_channel_scale)",
                 "  expr=per_channel_scale,(mul x per_channel_scale)\n  extra=per_channel_scale,col,bf16,in\n"},
        Lowering{"residual", ".with_epilogue(residual)",
                 "  expr=residual,(add x residual)\n  extra=residual,aux,bf16,in\n"},
        Lowering{"aux_load", ".with_epilogue(aux_load(f32))",
                 "  expr=aux_load,(add x aux_load)\n  extra=aux_load,aux,f32,in\n"},
        Lowering{"aux_store", ".with_epilogue(relu, aux_store, gelu)",
                 "  act=relu,0,0\n  aux_store=aux_store\n  act=gelu,0,0\n  extra=aux_store,aux,bf16,out\n"},
        Lowering{"row_sum", ".with_epilogue(row_sum)", "  reduce=row_sum,row_sum\n  extra=row_sum,row,f32,out\n"},
        Lowering{"reductions", ".with_epilogue(relu, col_max(bf16), row_max, custom(\"exp(x)\"), row_sum, row_sum(f16))",
                 "  act=relu,0,0\n  reduce=col_max,col_max\n  reduce=row_max,row_max\n  expr=custom,(exp x)\n"
                 "  reduce=row_sum,row_sum\n  reduce=row_sum,row_sum_2\n  extra=col_max,col,bf16,out\n"
                 "  extra=row_max,row,f32,out\n  extra=row_sum,row,f32,out\n  extra=row_sum_2,row,f16,out\n"},
        Lowering{"col_sum", ".with_epilogue(col_sum(bf16))", "  reduce=col_sum,col_sum\n  extra=col_sum,col,bf16,out\n"},
        Lowering{"two_scales_named_apart", ".with_epilogue(per_col_scale, per_col_scale)",
                 "  expr=per_col_scale,(mul x per_col_scale)\n  expr=per_col_scale,(mul x per_col_scale_2)\n"
                 "  extra=per_col_scale,col,bf16,in\n  extra=per_col_scale_2,col,bf16,in\n"},
        Lowering{"custom_precedence", ".with_epilogue(custom(\"x + 2 * -acc / 4 - 1\"))",
                 "  expr=custom,(sub (add x (div (mul 2 (neg acc)) 4)) 1)\n"},
        Lowering{"custom_inputs",
                 ".with_epilogue(custom(\"relu(x * s + shift) + clamp(r, -1, 1)\", s = scalar, shift = row(f32), r = aux))",
                 "  expr=custom,(add (relu (add (mul x s) shift)) (clamp r (neg 1) 1))\n  extra=s,scalar,f32,in\n"
                 "  extra=shift,row,f32,in\n  extra=r,aux,bf16,in\n"},
        Lowering{"custom_functions", ".with_epilogue(custom(\"max(min(exp(x), 1e3), log(abs(acc) + 1))\"))",
                 "  expr=custom,(max (min (exp x) 1000) (log (add (abs acc) 1)))\n"}),
    [](const ::testing::TestParamInfo<Lowering>& info) { return std::string(info.param.name); });

TEST(EpilogueLowering, CustomReadingCMakesCRead) {
  FrontendResult r = front(".with_epilogue(custom(\"x + 0.5 * c\"))");
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.program.kernels[0].has_source()) << "c defaults to D's type when an expression reads it";
}

struct Rejection {
  const char* name;
  const char* chain;
  std::vector<std::string> messages;  // "column: message", exact
};
void PrintTo(const Rejection& row, std::ostream* os) { *os << row.name; }

class EpilogueRejection : public ::testing::TestWithParam<Rejection> {};

TEST_P(EpilogueRejection, ExactMessageAndColumn) {
  EXPECT_EQ(located(GetParam().chain), GetParam().messages) << GetParam().chain;
}

// kBase is 62 characters, so the chain starts at column 63.
INSTANTIATE_TEST_SUITE_P(
    Rules, EpilogueRejection,
    ::testing::Values(
        Rejection{"custom_unknown_name", ".with_epilogue(custom(\"relu(x * s)\"))",
                  {"95: unknown name 's' in the expression"}},
        Rejection{"custom_unknown_function", ".with_epilogue(custom(\"rleu(x)\"))",
                  {"86: unknown function 'rleu'"}},
        Rejection{"custom_arity", ".with_epilogue(custom(\"clamp(x, 0)\"))", {"86: 'clamp' takes 3 arguments, got 2"}},
        Rejection{"custom_unclosed", ".with_epilogue(custom(\"(x + 1\"))", {"86: this '(' is not closed"}},
        Rejection{"custom_trailing", ".with_epilogue(custom(\"x + 1)\"))", {"91: unexpected ')' after the expression"}},
        Rejection{"custom_bad_char", ".with_epilogue(custom(\"x ^ 2\"))", {"88: unexpected '^' after the expression"}},
        Rejection{"custom_empty", ".with_epilogue(custom(\"  \"))", {"88: the expression is empty"}},
        Rejection{"custom_missing_operand", ".with_epilogue(custom(\"x *\"))",
                  {"89: the expression ends where a value was expected"}},
        Rejection{"custom_bad_number", ".with_epilogue(custom(\"x * 2q\"))", {"90: malformed number '2q'"}},
        Rejection{"custom_function_as_name", ".with_epilogue(custom(\"relu + x\"))",
                  {"86: 'relu' is a function; call it as relu(...)"}},
        Rejection{"custom_constant", ".with_epilogue(custom(\"1 + 2\"))", {"85: the expression is a constant"}},
        Rejection{"custom_unused_input", ".with_epilogue(custom(\"x\", s = scalar))",
                  {"90: input 's' is declared but the expression does not use it"}},
        Rejection{"custom_reserved", ".with_epilogue(custom(\"x * bias\", bias = col))",
                  {"97: 'bias' is a reserved name in custom expressions"}},
        Rejection{"custom_no_string", ".with_epilogue(custom(x))",
                  {"78: custom takes the expression as a string first, then its named inputs"}},
        Rejection{"custom_bad_kind", ".with_epilogue(custom(\"x * s\", s = vector))", {"98: unknown operand kind 'vector'"}},
        Rejection{"custom_drops_steps", ".with_epilogue(relu, custom(\"acc * 2\"))",
                  {"84: this custom step does not use x, so the steps before it would be lost"}},
        Rejection{"duplicate_input_name", ".with_epilogue(scale(scalar), custom(\"x * scale\", scale = scalar))",
                  {"113: an epilogue operand named 'scale' already exists in this kernel"}},
        Rejection{"scale_vector", ".with_epilogue(scale(col))", {"84: scale takes a number or a runtime scalar"}},
        Rejection{"scalar_typed", ".with_epilogue(mul(scalar(f16)))", {"82: a scalar operand is always f32"}},
        Rejection{"too_many_extras",
                  ".with_epilogue(add(col), add(col), add(col), add(col), add(col), add(col), add(col), add(col), "
                  "add(col))",
                  {"162: more than 8 extra epilogue operands"}},
        Rejection{"fp8_operand", ".with_epilogue(per_col_scale(e4m3))",
                  {"78: epilogue operand 'per_col_scale' cannot be fp8 (e4m3)"}},
        Rejection{"softplus_beta", ".with_epilogue(softplus(0))", {"87: softplus beta must be positive"}},
        Rejection{"elu_args", ".with_epilogue(elu(1, 2))", {"78: 'elu' takes 0 to 1 arguments, got 2"}},
        Rejection{"sm80_custom", ".with_arch(sm80).with_epilogue(custom(\"x * 2\"))",
                  {"94: custom epilogue expressions need sm90a (an epilogue visitor tree)"}},
        Rejection{"sm80_vector", ".with_arch(sm80).with_epilogue(per_col_scale)",
                  {"94: 'per_col_scale' reads a vector, scalar or tensor operand, which sm80 kernels do not fuse"}},
        Rejection{"sm80_aux_store", ".with_arch(sm80).with_epilogue(relu, aux_store)",
                  {"100: aux_store needs an epilogue visitor tree, which sm80 kernels do not have"}},
        Rejection{"sm80_row_sum", ".with_arch(sm80).with_epilogue(relu, row_sum)",
                  {"100: row_sum needs an epilogue visitor tree, which sm80 kernels do not have"}},
        Rejection{"reduction_fp8", ".with_epilogue(row_sum(e4m3))",
                  {"78: epilogue operand 'row_sum' cannot be fp8 (e4m3)"}},
        Rejection{"reduction_void", ".with_epilogue(row_sum(void))", {"86: row_sum cannot have element type void"}},
        Rejection{"reduction_args", ".with_epilogue(col_sum(f32, f32))", {"78: 'col_sum' takes 0 to 1 arguments, got 2"}},
        Rejection{"col_reduction_staging",
                  ".with_tile(128, 144, 64).with_schedule(cooperative).with_epilogue(col_sum)",
                  {"129: col_sum combines the partials of 8 warps in the staging buffer of one 128 x 16 bf16 D "
                   "subtile (4096 bytes), too small for tile N = 144 (4608 bytes of f32)"}},
        Rejection{"col_reduction_fits", ".with_tile(128, 256, 64).with_schedule(cooperative).with_epilogue(col_sum)",
                  {}},
        Rejection{"row_reduction_any_tile_n", ".with_tile(128, 144, 64).with_schedule(cooperative).with_epilogue(row_sum)",
                  {}},
        Rejection{"sm80_two_steps", ".with_arch(sm80).with_epilogue(mish, scale(2))",
                  {"100: sm80 fuses at most one element-wise step"}},
        Rejection{"sm80_one_step", ".with_arch(sm80).with_epilogue(scale(2))", {}},
        Rejection{"sm80_mish", ".with_arch(sm80).with_epilogue(mish)", {}},
        Rejection{"nosmem_custom", ".with_schedule(cooperative, epilogue = nosmem).with_epilogue(scale(2))",
                  {"124: the nosmem epilogue supports only alpha and beta, not a fused bias or activation"}}),
    [](const ::testing::TestParamInfo<Rejection>& info) { return std::string(info.param.name); });

std::vector<std::string> messages_of(const std::string& program) {
  FrontendResult r = run_frontend("t.dsl", program);
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diags->all()) out.push_back(d.message);
  return out;
}

TEST(EpilogueRejection, AuxTensorNeedsFullVectors) {
  // f32 D rows of 1004 elements are 16-byte multiples; bf16 aux rows of 1004 are not.
  EXPECT_EQ(messages_of("kernel k = gemm(m = 1024, n = 1004, k = 1024).with_types(f32).with_epilogue(residual(bf16))"),
            std::vector<std::string>{"aux tensor 'residual' is read and written in 16-byte vectors, which N = 1004 "
                                     "bf16 elements per row do not fill"});
}

TEST(EpilogueRejection, Fp8ReductionSuggestsItsOwnStep) {
  FrontendResult r = front(".with_epilogue(relu, col_max(e5m2))");
  ASSERT_EQ(r.diags->all().size(), 1u);
  EXPECT_EQ(r.diags->all()[0].message, "epilogue operand 'col_max' cannot be fp8 (e5m2)");
  EXPECT_EQ(r.diags->all()[0].legal, "f16, bf16 or f32, e.g. col_max(f32)");
}

TEST(EpilogueRejection, CustomReadingVoidC) {
  EXPECT_EQ(messages_of("kernel k = gemm(m = 1024, n = 1024, k = 1024).with_types(a = bf16, c = void)"
                        ".with_epilogue(custom(\"x + c\"))"),
            std::vector<std::string>{"the expression reads c but C is void"});
}

TEST(EpilogueRejection, LongAndDeepExpressionsAreBounded) {
  std::string sum = "x";
  for (int i = 0; i < 300; ++i) sum += " + x";
  std::vector<std::string> long_one = messages_of(std::string(kBase) + ".with_epilogue(custom(\"" + sum + "\"))");
  EXPECT_EQ(long_one, std::vector<std::string>{"the expression has more than 256 terms"});
  std::string deep = std::string(40, '(') + "x" + std::string(40, ')');
  EXPECT_EQ(messages_of(std::string(kBase) + ".with_epilogue(custom(\"" + deep + "\"))"),
            std::vector<std::string>{"the expression nests deeper than 32 levels"});
}

TEST(EpilogueRejection, EscapedStringPointsAtTheString) {
  // With an escape the offsets inside the string do not map to the source: the whole string is shown.
  std::vector<std::string> got = located(".with_epilogue(custom(\"x \\\\ 2\"))");
  EXPECT_EQ(got, std::vector<std::string>{"85: unexpected '\\' after the expression"});
}

}  // namespace
}  // namespace ucutlass
