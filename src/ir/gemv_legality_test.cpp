// GEMV kernels (gemv(m, k)): lowering, auto choices and the exact diagnostics
// `check` gives, as "LINE:COL: message", before any nvcc run.
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/testing_legality.h"
#include "ir/canonical.h"

namespace ucutlass {
namespace {

using Row = ir_testing::LegalityRow;
using ir_testing::located_messages;

class GemvLegality : public ::testing::TestWithParam<Row> {};

TEST_P(GemvLegality, ExactDiagnostics) {
  const Row& row = GetParam();
  EXPECT_EQ(located_messages(row.program), row.messages) << row.program;
}

#define GEMV "kernel y = gemv(m = 4096, k = 32768).with_types(f32)"
#define SMALL "kernel y = gemv(m = 64, k = 100).with_types(f32)"

INSTANTIATE_TEST_SUITE_P(
    Rules, GemvLegality,
    ::testing::Values(
        Row{"level1_016", GEMV, {}},
        Row{"every_lever", GEMV ".with_arch(sm80).with_math(simt).with_layouts(a = row)"
                                ".with_gemv(access = 4, threads_per_row = 8, threads = 512)",
            {}},
        Row{"bf16_batched_beta",
            "kernel y = gemv(m = 2048, k = 4096, batch = 8).with_types(a = bf16, b = bf16, c = f32, d = f32)"
            ".with_gemv(access = 16, threads_per_row = 16, threads = 128).with_epilogue(alpha(2.0), beta(1.0))",
            {}},
        Row{"dynamic", "kernel y = gemv(m = dynamic, k = dynamic).with_types(f16)", {}},
        Row{"odd_m_whole_warp_rows", "kernel y = gemv(m = 33, k = 64).with_types(f32)", {}},
        Row{"sm90a", GEMV ".with_arch(sm90a)",
            {"1:64: gemv kernels run CUTLASS's SIMT Gemv, an sm80 kernel (it runs on Hopper as well); sm90a has none"}},
        Row{"tf32", GEMV ".with_math(tf32)", {"1:64: gemv kernels multiply on CUDA cores, not on the 'tf32' path"}},
        Row{"fp8", "kernel y = gemv(m = 64, k = 64).with_types(e4m3)", {"1:44: gemv inputs cannot be e4m3"}},
        Row{"mixed_inputs", "kernel y = gemv(m = 64, k = 64).with_types(a = f16, b = f32)",
            {"1:57: A is f16 but x is f32"}},
        Row{"bf16_out_of_f16", "kernel y = gemv(m = 64, k = 64).with_types(a = f16, d = bf16)",
            {"1:57: a gemv of f16 inputs cannot write bf16"}},
        Row{"f16_accumulator", "kernel y = gemv(m = 64, k = 64).with_types(a = f16, acc = f16)",
            {"1:59: gemv kernels accumulate in f32, not f16"}},
        Row{"c_not_d", "kernel y = gemv(m = 64, k = 64).with_types(a = f16, c = f16, d = f32).with_epilogue(beta(1.0))",
            {"1:57: the gemv reads c with y's type f32, not f16"}},
        Row{"k_misaligned", SMALL ".with_gemv(access = 8)",
            {"1:69: K = 100 is not a multiple of access = 8: each row of A starts K elements after the last, so its "
             "loads of 8 elements would be misaligned (CUTLASS's can_implement rejects it)"}},
        Row{"access_not_pow2", GEMV ".with_gemv(access = 3)",
            {"1:73: access = 3 f32 elements is not a load CUTLASS's Gemv can issue"}},
        Row{"access_too_wide", GEMV ".with_gemv(access = 16)",
            {"1:73: access = 16 f32 elements is not a load CUTLASS's Gemv can issue"}},
        Row{"threads_per_row_48", GEMV ".with_gemv(threads_per_row = 48)",
            {"1:82: threads_per_row = 48 cannot be reduced by the kernel's xor shuffles within a warp"}},
        Row{"threads_partial_warp", GEMV ".with_gemv(threads = 100)",
            {"1:74: threads = 100 is not a whole number of warps up to 1024: the row sums shuffle across all 32 lanes "
             "of a warp, so a partial warp is undefined"}},
        Row{"threads_range", GEMV ".with_gemv(threads = 2048)", {"1:74: with_gemv threads = 2048 is out of range"}},
        Row{"m_partial_warp", "kernel y = gemv(m = 102, k = 64).with_types(f32).with_gemv(threads_per_row = 8)",
            {"1:78: M = 102 is not a multiple of the 4 rows a warp covers with threads_per_row = 8: the last warp "
             "would shuffle with lanes past the last row"}},
        Row{"column_major_a", GEMV ".with_layouts(a = col)",
            {"1:71: gemv kernels read a row-major A (K contiguous), whose rows are loaded access elements at a time"}},
        Row{"vector_layout", GEMV ".with_layouts(b = col)",
            {"1:71: x and y are contiguous vectors; a gemv kernel takes only A's layout"}},
        Row{"tile", GEMV ".with_tile(128, 128, 8)",
            {"1:54: with_tile does not apply to a gemv kernel (it has no tiles, stages or schedules)"}},
        Row{"alignment", GEMV ".with_alignment(a = 4)",
            {"1:73: with_alignment does not apply to a gemv kernel (it has no tiles, stages or schedules)"}},
        Row{"split_k", GEMV ".with_scheduler(split_k(8))",
            {"1:69: with_scheduler does not apply to a gemv kernel (it has no tiles, stages or schedules)"}},
        Row{"relu", GEMV ".with_epilogue(relu)",
            {"1:68: gemv kernels fuse alpha and beta only (CUTLASS's Gemv applies one LinearCombination per output "
             "element)"}},
        Row{"beta_without_c", "kernel y = gemv(m = 64, k = 64).with_types(a = f32, c = void).with_epilogue(beta(1.0))",
            {"1:77: beta is non-zero but C is void, so there is nothing to scale"}},
        Row{"batch_grid_z", "kernel y = gemv(m = 64, k = 64, batch = 70000).with_types(f32)",
            {"1:41: batch = 70000 exceeds the grid's z dimension"}},
        Row{"with_gemv_on_gemm", "kernel g = gemm(m = 64, n = 1, k = 64).with_types(f32).with_gemv(access = 4)",
            {"1:56: with_gemv applies to gemv kernels only"}},
        Row{"pipeline", GEMV "\npipeline p = inputs(a, x).y(a = a, b = x, d = out).outputs(out)",
            {"2:27: kernel 'y' is a gemv; pipelines do not run gemv kernels yet"}},
        Row{"gemv_has_no_n", "kernel y = gemv(m = 64, n = 1, k = 64).with_types(f32)",
            {"1:25: unknown argument 'n' of gemv"}}),
    [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

TEST(Gemv, DiagnosticSaysWhatIsLegalAndTheFix) {
  FrontendResult r = run_frontend("t.dsl", SMALL ".with_gemv(access = 8)");
  ASSERT_EQ(r.diags->all().size(), 1u);
  EXPECT_EQ(r.diags->render(),
            "t.dsl:1:69: error: K = 100 is not a multiple of access = 8: each row of A starts K elements after the "
            "last, so its loads of 8 elements would be misaligned (CUTLASS's can_implement rejects it)\n"
            "  kernel y = gemv(m = 64, k = 100).with_types(f32).with_gemv(access = 8)\n"
            "                                                                      ^\n"
            "  legal: an access that divides K: at most 4 here\n"
            "  hint: with_gemv(access = 4)\n");
}

TEST(Gemv, AutoPicksWideLoadsAndWholeWarpRows) {
  FrontendResult r = run_frontend("t.dsl", GEMV);
  ASSERT_TRUE(r.ok) << r.diags->render();
  EXPECT_EQ(ir::canonical_text(r.program.kernels[0]),
            "kernel y = gemv(m=4096,n=1,k=32768,batch=1)\n"
            "  gemv=access=8,threads_per_row=32,threads=256\n"
            "  arch=sm80\n  types=f32,f32,void,f32,f32\n  layouts=row,col,row\n  math=simt\n"
            "  tile=0x0x0\n  cluster=1x1x1\n  warps=0x0x0\n  schedule=multistage,nosmem\n"
            "  stages=0\n  alignment=8,8,1\n  raster=heuristic,swizzle=1\n  scheduler=persistent,splits=1\n"
            "  alpha=1\n  beta=0\n");
  // K = 100 takes the widest load that divides it; M = 1024 rows at 8 per CTA would be 128 CTAs,
  // under two per SM, so auto halves the CTA to 64 threads (2 rows, 512 CTAs).
  FrontendResult small = run_frontend("t.dsl", "kernel y = gemv(m = 1024, k = 100).with_types(f32)");
  ASSERT_TRUE(small.ok) << small.diags->render();
  const ir::GemvLevers& g = small.program.kernels[0].gemv_levers;
  EXPECT_EQ(g.access.value, 4);
  EXPECT_EQ(g.threads_per_row.value, 32);
  EXPECT_EQ(g.threads.value, 64);
}

TEST(Gemv, IsNotTheGemmWithNOne) {
  FrontendResult a = run_frontend("a.dsl", "kernel y = gemv(m = 64, k = 64).with_types(f32)");
  FrontendResult b = run_frontend("b.dsl", "kernel y = gemm(m = 64, n = 1, k = 64).with_types(f32).with_arch(sm80)");
  ASSERT_TRUE(a.ok && b.ok) << a.diags->render() << b.diags->render();
  EXPECT_NE(a.hash, b.hash);
}

}  // namespace
}  // namespace ucutlass
