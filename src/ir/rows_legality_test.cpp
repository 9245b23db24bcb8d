// Row kernels (softmax(rows, length), layernorm(...), ...): lowering, auto choices and the exact
// diagnostics `check` gives, as "LINE:COL: message", before any nvcc run.
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/canonical.h"
#include "ir/testing_legality.h"

namespace ucutlass {
namespace {

using Row = ir_testing::LegalityRow;
using ir_testing::located_messages;

class RowLegality : public ::testing::TestWithParam<Row> {};

TEST_P(RowLegality, ExactDiagnostics) {
  const Row& row = GetParam();
  EXPECT_EQ(located_messages(row.program), row.messages) << row.program;
}

#define SOFTMAX "kernel s = softmax(rows = 16384, length = 16384).with_types(f32)"
#define GROUPNORM \
  "kernel g = groupnorm(rows = 1024, length = 32768, groups = 32, channel_span = 4096, eps = 1e-5, affine = on)"

INSTANTIATE_TEST_SUITE_P(
    Rules, RowLegality,
    ::testing::Values(
        Row{"level1_028", SOFTMAX, {}},
        Row{"every_lever", SOFTMAX ".with_arch(sm90a).with_rows(access = 4, threads = 512, items = 8, splits = 1)", {}},
        Row{"sm80", SOFTMAX ".with_arch(sm80)", {}},
        Row{"level1_035", GROUPNORM ".with_types(f32)", {}},
        Row{"bf16_in_f32_out", "kernel l = layernorm(rows = 8, length = 4096).with_types(a = bf16, d = f32)", {}},
        Row{"argmax", "kernel a = argmax(rows = 16384, length = 16384).with_types(f32)", {}},
        Row{"long_rows_split", "kernel s = softmax(rows = 64, length = 1048576).with_types(f32)", {}},
        Row{"unknown_op", "kernel s = sofmax(rows = 4, length = 4)", {"1:12: unknown operation 'sofmax'"}},
        Row{"missing_length", "kernel s = softmax(rows = 4).with_types(f32)", {"1:12: softmax needs length = ... (fixed)"}},
        Row{"eps_on_softmax", "kernel s = softmax(rows = 4, length = 4, eps = 1e-5)",
            {"1:42: unknown argument 'eps' of softmax"}},
        Row{"affine_word", "kernel l = layernorm(rows = 4, length = 4, affine = yes)",
            {"1:53: layernorm affine must be on or off, not 'yes'"}},
        Row{"groups_divide_rows",
            "kernel g = groupnorm(rows = 100, length = 64, groups = 32, channel_span = 8).with_types(f32)",
            {"1:56: rows = 100 is not a whole number of samples of groups = 32 (row r is group r % groups of sample "
             "r / groups)"}},
        Row{"channel_span_divides_length",
            "kernel g = groupnorm(rows = 64, length = 100, groups = 32, channel_span = 8).with_types(f32)",
            {"1:75: length = 100 is not a whole number of channels of channel_span = 8 elements"}},
        Row{"eps_zero", "kernel l = layernorm(rows = 4, length = 4, eps = 0.0).with_types(f32)",
            {"1:50: eps must be positive: it keeps 1 / sqrt(var + eps) finite on a constant row"}},
        Row{"fp8", "kernel s = softmax(rows = 4, length = 16).with_types(e4m3)",
            {"1:54: row kernels cannot read e4m3", "1:54: row kernels cannot write e4m3"}},
        Row{"argmax_d", "kernel a = argmax(rows = 4, length = 16).with_types(a = f32, d = f16)",
            {"1:66: argmax writes int64 indices (torch.argmax's dtype); d does not apply"}},
        Row{"b_type", "kernel s = softmax(rows = 4, length = 16).with_types(a = f32, b = f16)",
            {"1:67: row kernels read one tensor, a; b does not apply"}},
        Row{"access_3", SOFTMAX ".with_rows(access = 3)",
            {"1:85: access = 3 is not a vector width the kernel loads"}},
        Row{"access_too_wide", SOFTMAX ".with_rows(access = 8)",
            {"1:85: access = 8 elements of 4 bytes is wider than a 16-byte vector load"}},
        Row{"access_misaligned", "kernel s = softmax(rows = 4, length = 100).with_types(f16).with_rows(access = 8)",
            {"1:79: length = 100 is not a multiple of access = 8: each row starts `length` elements after the last, "
             "so its vector loads would be misaligned"}},
        Row{"threads_96", SOFTMAX ".with_rows(threads = 96)",
            {"1:86: threads = 96 is not a CTA size the kernel is built for"}},
        Row{"register_spill", SOFTMAX ".with_rows(access = 4, items = 32)",
            {"1:96: access x items = 4 x 32 = 128 values per thread would spill the registers that hold the chunk"}},
        Row{"chunk_does_not_fit", SOFTMAX ".with_rows(access = 4, threads = 128, items = 8, splits = 1)",
            {"1:111: a chunk of 16384 elements (length 16384 / splits 1) does not fit the threads x access x items = "
             "128 x 4 x 8 = 4096 the CTA holds in registers"}},
        Row{"empty_chunk", "kernel s = softmax(rows = 4, length = 64).with_types(f32).with_rows(access = 4, splits = 12)",
            {"1:90: splits = 12 leaves the last CTA of each row with no elements (chunks of 8 over length = 64)"}},
        Row{"tile", SOFTMAX ".with_tile(128, 128, 32)",
            {"1:66: with_tile does not apply to a row kernel (softmax has no matrix product)"}},
        Row{"epilogue", SOFTMAX ".with_epilogue(relu)", {"1:80: row kernels have no epilogue: softmax is the whole kernel"}},
        Row{"with_rows_on_gemm", "kernel g = gemm(m = 64, n = 64, k = 64).with_types(f32).with_rows(threads = 128)",
            {"1:57: with_rows applies to row kernels only"}},
        Row{"pipeline", SOFTMAX "\npipeline p = inputs(x).s(a = x, d = y).outputs(y)",
            {"2:24: kernel 's' is a row kernel (softmax); pipelines run GEMM kernels"}}),
    [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

TEST(Rows, AutoFillsTheRegistersWithOneReadOfEachRow) {
  FrontendResult r = run_frontend("t.dsl", SOFTMAX);
  ASSERT_TRUE(r.ok) << r.diags->render();
  EXPECT_EQ(ir::canonical_text(r.program.kernels[0]),
            "kernel s = softmax(rows=16384,length=16384)\n"
            "  arch=sm90a\n  types=f32,f32\n  rows=access=4,threads=512,items=8,splits=1\n");
  // 64 rows of 1M: 512 threads x 4 x 16 = 32768 per CTA needs 32 splits; 64 x 32 = 2048 CTAs fill
  // the GPU, so no more.
  FrontendResult long_rows = run_frontend("t.dsl", "kernel s = softmax(rows = 64, length = 1048576).with_types(f32)");
  ASSERT_TRUE(long_rows.ok) << long_rows.diags->render();
  const ir::RowLevers& l = long_rows.program.kernels[0].row_levers;
  EXPECT_EQ(l.threads.value, 512);
  EXPECT_EQ(l.splits.value, 32);
  EXPECT_EQ(l.items.value, 16);
  // Few short rows: splits while a chunk still spans a CTA (8 rows of 8192 bf16: 8 per load, 128
  // threads, a CTA spans 1024, 8 x 8 = 64 CTAs).
  FrontendResult few = run_frontend("t.dsl", "kernel l = layernorm(rows = 8, length = 8192).with_types(bf16)");
  ASSERT_TRUE(few.ok) << few.diags->render();
  const ir::RowLevers& f = few.program.kernels[0].row_levers;
  EXPECT_EQ(f.access.value, 8);
  EXPECT_EQ(f.threads.value, 128);
  EXPECT_EQ(f.splits.value, 8);
  EXPECT_EQ(f.items.value, 1);
}

TEST(Rows, NormCanonicalTextNamesEpsAndAffine) {
  FrontendResult r = run_frontend("t.dsl", GROUPNORM ".with_types(f32)");
  ASSERT_TRUE(r.ok) << r.diags->render();
  EXPECT_EQ(ir::canonical_text(r.program.kernels[0]),
            "kernel g = groupnorm(rows=1024,length=32768)\n"
            "  groups=32,channel_span=4096\n  norm=eps=1.0000000000000001e-05,affine=on\n"
            "  arch=sm90a\n  types=f32,f32\n  rows=access=4,threads=512,items=16,splits=1\n");
}

TEST(Rows, DiagnosticSaysWhatIsLegalAndTheFix) {
  FrontendResult r = run_frontend("t.dsl", SOFTMAX ".with_rows(access = 4, threads = 512, items = 4, splits = 1)");
  ASSERT_EQ(r.diags->all().size(), 1u);
  EXPECT_EQ(r.diags->render(),
            "t.dsl:1:111: error: a chunk of 16384 elements (length 16384 / splits 1) does not fit the threads x access "
            "x items = 512 x 4 x 4 = 8192 the CTA holds in registers\n"
            "  " SOFTMAX ".with_rows(access = 4, threads = 512, items = 4, splits = 1)\n"
            "                                                                                                          "
            "      ^\n"
            "  legal: chunk <= threads x access x items\n"
            "  hint: with_rows(items = 8)\n");
  // When no items count fits the registers, the hint says what else to change.
  FrontendResult wide = run_frontend("t.dsl", SOFTMAX ".with_rows(access = 4, threads = 128, items = 8, splits = 1)");
  ASSERT_EQ(wide.diags->all().size(), 1u);
  EXPECT_EQ(wide.diags->all()[0].hint, "more threads or more splits");
}

}  // namespace
}  // namespace ucutlass
