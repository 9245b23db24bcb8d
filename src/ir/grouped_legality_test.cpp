// Grouped GEMM (gemm(..., groups = G)): lowering, auto choices and the exact
// diagnostics `check` gives, as "LINE:COL: message" (the position points at
// the setting to fix), before any nvcc run.
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/testing_legality.h"
#include "ir/canonical.h"

namespace ucutlass {
namespace {

using Row = ir_testing::LegalityRow;
using ir_testing::located_messages;

class GroupedLegality : public ::testing::TestWithParam<Row> {};

TEST_P(GroupedLegality, ExactDiagnostics) {
  const Row& row = GetParam();
  EXPECT_EQ(located_messages(row.program), row.messages) << row.program;
}

#define MOE "kernel g = gemm(m = dynamic, n = 4096, k = 2048, groups = 8).with_types(bf16)"

INSTANTIATE_TEST_SUITE_P(
    Rules, GroupedLegality,
    ::testing::Values(
        Row{"moe_default", MOE, {}},
        Row{"all_dynamic", "kernel g = gemm(groups = dynamic).with_types(f16)", {}},
        Row{"pingpong_chain",
            MOE ".with_tile(64, 128, 64).with_schedule(pingpong).with_epilogue(beta(1.0), gelu, clamp(-4, 4), "
                "custom(\"x * sigmoid(acc) + c\"))",
            {}},
        Row{"fp8_fast_accum", "kernel g = gemm(groups = 4).with_types(a = e4m3, b = e4m3, d = bf16).with_math(fast_accum)",
            {}},
        Row{"sm80", MOE ".with_arch(sm80)",
            {"1:89: grouped GEMM needs sm90a (CUTLASS's pointer-array kernels); ucutlass has no sm80 grouped kernel"}},
        Row{"batched", "kernel g = gemm(m = 64, n = 64, k = 64, batch = 4, groups = 8).with_types(bf16)",
            {"1:49: a grouped GEMM cannot also be batched (batch = 4)"}},
        Row{"stream_k", MOE ".with_scheduler(stream_k)",
            {"1:94: stream-K is not available for a grouped GEMM: CUTLASS 4.2's pointer-array kernels take only the "
             "group tile scheduler"}},
        Row{"split_k", MOE ".with_scheduler(split_k(4))",
            {"1:94: split-K is not available for a grouped GEMM: CUTLASS 4.2's pointer-array kernels take only the "
             "group tile scheduler"}},
        Row{"cpasync", MOE ".with_schedule(cpasync_cooperative)",
            {"1:93: a grouped GEMM runs CUTLASS's pointer-array TMA kernels, which have no 'cpasync_cooperative' "
             "schedule"}},
        Row{"warpspecialized", MOE ".with_tile(64, 128, 64).with_schedule(warpspecialized)",
            {"1:116: a grouped GEMM runs CUTLASS's pointer-array TMA kernels, which have no 'warpspecialized' schedule"}},
        Row{"nosmem", MOE ".with_schedule(cooperative, epilogue = nosmem)",
            {"1:117: a grouped GEMM needs the pointer-array TMA epilogue, not 'nosmem'"}},
        Row{"bias", MOE ".with_epilogue(bias(col), relu)",
            {"1:93: a grouped GEMM cannot fuse bias(col): each group would need its own vector (a pointer array), "
             "which ucutlass does not emit yet"}},
        Row{"vector_operand", MOE ".with_epilogue(per_col_scale)",
            {"1:93: a grouped GEMM cannot fuse 'per_col_scale', which reads a scalar, vector or aux tensor operand: "
             "each group would need its own (a pointer array), which ucutlass does not emit yet"}},
        Row{"aux_store", MOE ".with_epilogue(aux_store, relu)",
            {"1:93: a grouped GEMM cannot fuse aux_store: each group would need its own output tensor (a pointer "
             "array), which ucutlass does not emit yet"}},
        Row{"row_sum", MOE ".with_epilogue(relu, row_sum)",
            {"1:99: a grouped GEMM cannot fuse row_sum: each group would need its own output vector (a pointer "
             "array), which ucutlass does not emit yet"}},
        Row{"unaligned_n", "kernel g = gemm(n = 4100, groups = 8).with_types(bf16)",
            {"1:8: a TMA epilogue needs 16-byte aligned C/D rows; alignment 4 of bf16 is 8 bytes"}},
        Row{"tf32_n_major_b", "kernel g = gemm(groups = 8).with_types(f32).with_layouts(b = row)",
            {"1:62: f32 WGMMA reads both operands K-major; B is row-major (N-major)"}},
        Row{"groups_zero", "kernel g = gemm(groups = 0).with_types(bf16)", {"1:26: gemm groups = 0 is out of range"}},
        Row{"pipeline", MOE "\nkernel h = gemm(m = 64, n = 64, k = 64).with_types(bf16)\n"
                        "pipeline p = inputs(x, w).g(a = x, b = w, d = y).outputs(y)",
            {"3:27: kernel 'g' is a grouped GEMM; pipelines run single-problem GEMM kernels only"}}),
    [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

TEST(GroupedGemm, DiagnosticSaysWhatIsLegal) {
  FrontendResult r = run_frontend("t.dsl", MOE ".with_arch(sm80)");
  ASSERT_EQ(r.diags->all().size(), 1u);
  EXPECT_EQ(r.diags->render(),
            "t.dsl:1:89: error: grouped GEMM needs sm90a (CUTLASS's pointer-array kernels); ucutlass has no sm80 "
            "grouped kernel\n"
            "  kernel g = gemm(m = dynamic, n = 4096, k = 2048, groups = 8).with_types(bf16).with_arch(sm80)\n"
            "                                                                                          ^~~~\n"
            "  legal: with_arch(sm90a); on sm80 one gemm kernel per group, or batch = G when every group has one "
            "shape\n");
}

TEST(GroupedGemm, ResolvesToPointerArraySchedules) {
  FrontendResult r = run_frontend("t.dsl", MOE);
  ASSERT_TRUE(r.ok) << r.diags->render();
  // Dynamic m leaves tile M at 128, hence cooperative; never a cp.async schedule or the no-smem epilogue.
  EXPECT_EQ(ir::canonical_text(r.program.kernels[0]),
            "kernel g = gemm(m=0,n=4096,k=2048,batch=1,groups=8)\n"
            "  arch=sm90a\n  types=bf16,bf16,void,bf16,f32\n  layouts=row,col,row\n  math=tensor_op\n"
            "  tile=128x128x64\n  cluster=2x1x1\n  warps=0x0x0\n  schedule=cooperative,tma_cooperative\n"
            "  stages=0\n  alignment=8,8,8\n  raster=heuristic,swizzle=1\n  scheduler=persistent,splits=1\n"
            "  alpha=1\n  beta=0\n");
  // Narrow rows of a fixed extent stay on the TMA schedule (and are rejected), unlike a plain GEMM.
  FrontendResult narrow = run_frontend("t.dsl", "kernel g = gemm(k = 100, groups = 2).with_types(bf16)");
  ASSERT_EQ(narrow.program.kernels.size(), 1u);
  EXPECT_EQ(narrow.program.kernels[0].schedule.value, ir::KernelSchedule::cooperative);
  EXPECT_EQ(narrow.program.kernels[0].epilogue_schedule.value, ir::EpilogueSchedule::tma_cooperative);
}

TEST(GroupedGemm, GroupsChangeTheHash) {
  FrontendResult a = run_frontend("a.dsl", "kernel g = gemm(m = 64, n = 64, k = 64).with_types(bf16)");
  FrontendResult b = run_frontend("b.dsl", "kernel g = gemm(m = 64, n = 64, k = 64, groups = 2).with_types(bf16)");
  FrontendResult c = run_frontend("c.dsl", "kernel g = gemm(m = 64, n = 64, k = 64, groups = dynamic).with_types(bf16)");
  ASSERT_TRUE(a.ok && b.ok && c.ok) << a.diags->render() << b.diags->render() << c.diags->render();
  EXPECT_NE(a.hash, b.hash);
  EXPECT_NE(b.hash, c.hash);
}

}  // namespace
}  // namespace ucutlass
