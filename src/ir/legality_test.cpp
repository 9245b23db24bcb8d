// Table-driven legality tests: each row is a program and the exact
// diagnostics `check` must give (or none).
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/testing_legality.h"
#include "ir/canonical.h"

namespace ucutlass {
namespace {

using Row = ir_testing::LegalityRow;
using ir_testing::messages_of;

const char* kBase = "kernel k = gemm(m = 4096, n = 4096, k = 4096)";

class Legality : public ::testing::TestWithParam<Row> {};

TEST_P(Legality, ExactDiagnostics) {
  const Row& row = GetParam();
  EXPECT_EQ(messages_of(std::string(kBase) + row.program), row.messages) << row.program;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, Legality,
    ::testing::Values(
        Row{"bf16_default", ".with_types(bf16)", {}},
        Row{"tf32_bias_relu", ".with_types(f32).with_math(tf32).with_epilogue(bias(col), relu)", {}},
        Row{"fp8_fast_accum_streamk",
            ".with_types(a = e4m3, b = e4m3, d = bf16).with_math(fast_accum).with_tile(128, 128, 128).with_scheduler(stream_k)",
            {}},
        Row{"sm80_tf32x3", ".with_arch(sm80).with_types(f32).with_math(tf32x3)", {}},
        Row{"sm80_simt", ".with_arch(sm80).with_types(f32).with_math(simt)", {}},
        Row{"tile_m", ".with_tile(96, 128, 64)", {"tile M = 96 is not a multiple of 64 in [64, 256]"}},
        Row{"tile_n", ".with_tile(128, 24, 64)", {"tile N = 24 is not a multiple of 16 in [16, 256]"}},
        Row{"tile_k", ".with_tile(128, 128, 8)", {"tile K = 8 does not suit f16 WGMMA (K step 16)"}},
        Row{"coop_m64", ".with_tile(64, 128, 64).with_schedule(cooperative)",
            {"the cooperative schedule splits tile M over two warp groups and needs tile M = 128 or 256, not 64"}},
        Row{"pingpong_m256", ".with_tile(256, 128, 64).with_schedule(pingpong)",
            {"schedule 'pingpong' supports tile M = 64 or 128, not 256"}},
        Row{"pairing", ".with_schedule(pingpong, epilogue = tma_cooperative)",
            {"epilogue 'tma_cooperative' pairs only with a cooperative kernel schedule"}},
        Row{"streamk_pingpong", ".with_schedule(pingpong).with_scheduler(stream_k)",
            {"stream-K and split-K need a cooperative kernel schedule, not 'pingpong'"}},
        Row{"cluster_k", ".with_cluster(1, 1, 2)", {"cluster K must be 1, not 2"}},
        Row{"cluster_size", ".with_cluster(4, 4, 1)", {"cluster 4x4x1 has 16 CTAs, more than the portable 8"}},
        Row{"cluster_pow2", ".with_cluster(3, 1, 1)", {"cluster 3x1x1 is not made of powers of two"}},
        Row{"stages_overflow", ".with_tile(256, 256, 64).with_stages(6)",
            {"6 stages of 65552 bytes plus the epilogue's 17408 bytes exceed the 232448 bytes of shared memory"}},
        Row{"stages_one", ".with_stages(1)", {"the SM90 mainloop needs at least 2 stages"}},
        Row{"tf32_nn", ".with_types(f32).with_layouts(a = row, b = row)",
            {"f32 WGMMA reads both operands K-major; B is row-major (N-major)"}},
        Row{"fp8_layout", ".with_types(a = e4m3, b = e5m2, d = bf16).with_tile(128, 128, 128).with_layouts(a = col)",
            {"e4m3 WGMMA reads both operands K-major; A is column-major (M-major)"}},
        Row{"f32_tensor_op", ".with_types(f32).with_math(tensor_op)", {"f32 inputs have no 'tensor_op' path"}},
        Row{"tf32_on_bf16", ".with_types(bf16).with_math(tf32)", {"math path 'tf32' is for f32 inputs, not bf16"}},
        Row{"tf32x3_sm90", ".with_types(f32).with_math(tf32x3)", {"sm90a has no 'tf32x3' mainloop in CUTLASS 4.2"}},
        Row{"mixed_types", ".with_types(a = f16, b = bf16)", {"A is f16 but B is bf16"}},
        Row{"b_follows_a", ".with_types(a = bf16)", {}},
        Row{"sm90_warps", ".with_warps(2, 2, 1)",
            {"with_warps is an sm80 setting; on sm90a the schedule fixes the warp layout"}},
        Row{"sm80_raster", ".with_arch(sm80).with_raster(along_n)",
            {"sm80 kernels raster along M with a swizzle; an order cannot be chosen"}},
        Row{"cpasync_tma_epilogue", ".with_schedule(cpasync_cooperative, epilogue = tma)",
            {"cp.async kernel schedules use the no-shared-memory epilogue"}},
        Row{"beta_void", ".with_types(a = f16, b = f16, c = void).with_epilogue(beta(1.0))",
            {"beta is non-zero but C is void, so there is nothing to scale"}},
        Row{"align_wide", ".with_alignment(a = 16)", {"alignment of A = 16 elements is 32 bytes, wider than a 16-byte access"}},
        Row{"align_tma", ".with_schedule(cooperative).with_alignment(a = 4)",
            {"TMA loads need 16-byte aligned rows; A alignment 4 x 16 bits is 8 bytes"}},
        Row{"nosmem_fusion", ".with_schedule(cooperative, epilogue = nosmem).with_epilogue(relu)",
            {"the nosmem epilogue supports only alpha and beta, not a fused bias or activation"}},
        Row{"cpasync_cluster", ".with_schedule(cpasync_cooperative).with_cluster(2, 1, 1)",
            {"cp.async schedules do not use TMA multicast, so the cluster must be 1x1x1"}},
        Row{"sm80_cluster", ".with_arch(sm80).with_cluster(2, 1, 1)", {"sm80 has no thread block clusters"}},
        Row{"sm80_bias", ".with_arch(sm80).with_epilogue(bias(col), relu)", {}},
        Row{"sm80_bias_row_col_major", ".with_arch(sm80).with_layouts(c = col).with_epilogue(bias(row))", {}},
        Row{"sm80_bias_after_activation", ".with_arch(sm80).with_epilogue(relu, bias(col))",
            {"an sm80 bias is read through C, before the element-wise step, so it must be the first step"}},
        Row{"sm80_bias_and_c", ".with_arch(sm80).with_epilogue(beta(1.0), bias(col))",
            {"an sm80 bias is read through C, so C cannot also be read (beta or a residual)"}},
        Row{"sm80_bias_type", ".with_arch(sm80).with_epilogue(bias(col, f32))",
            {"an sm80 bias is read through C as D's type f16, not f32"}},
        Row{"sm80_bias_axis", ".with_arch(sm80).with_epilogue(bias(row))",
            {"an sm80 bias(row) needs a column-major output, which repeats it with a leading dimension of 0"}},
        Row{"sm80_bias_split_k", ".with_arch(sm80).with_scheduler(split_k(4)).with_epilogue(bias(col))",
            {"an sm80 bias is read through C, which serial split-K re-reads as the partial sum"}},
        Row{"sm80_two_acts", ".with_arch(sm80).with_epilogue(relu, tanh)", {"sm80 fuses at most one element-wise step"}},
        Row{"sm80_fp8", ".with_arch(sm80).with_types(a = e4m3, b = e4m3, d = bf16)",
            {"fp8 tensor cores need sm90a"}},
        Row{"sm80_stages", ".with_arch(sm80).with_stages(2)",
            {"the SM80 multistage mainloop takes 3 to 10 stages, not 2"}},
        Row{"sm80_warps", ".with_arch(sm80).with_tile(128, 128, 32).with_warps(4, 4, 1)",
            {"16 warps per CTA is not supported"}},
        Row{"sm80_simt_types", ".with_arch(sm80).with_types(a = f32, b = f32, d = bf16).with_math(simt)",
            {"the SIMT path computes f32 in and out"}},
        Row{"split_k_slices", ".with_scheduler(split_k(128))",
            {"split_k(128) leaves some slices without a K tile: K = 4096 holds 64 tiles of 64"}},
        // Lowering: names and arguments.
        Row{"unknown_setting", ".with_tiles(128, 128, 64)", {"unknown setting 'with_tiles'"}},
        Row{"unknown_type", ".with_types(bf61)", {"unknown element type 'bf61'"}},
        Row{"duplicate", ".with_tile(128, 128, 64).with_tile(128, 128, 64)",
            {"with_tile is given twice (first at line 1)"}},
        Row{"tile_arity", ".with_tile(128, 128)", {"with_tile takes 3 arguments, got 2"}},
        Row{"out_of_range", ".with_cluster(1, 1, 99)", {"with_cluster k = 99 is out of range"}},
        Row{"clamp_order", ".with_epilogue(clamp(6, 0))", {"clamp lower bound is above the upper bound"}},
        Row{"unknown_step", ".with_epilogue(gleu)", {"unknown epilogue step 'gleu'"}},
        Row{"split_k_count", ".with_scheduler(split_k)", {"split_k needs a slice count"}}),
    [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

TEST(Legality, AlignmentAgainstFixedShape) {
  EXPECT_EQ(messages_of("kernel k = gemm(m = 128, n = 128, k = 100).with_alignment(a = 8)"),
            (std::vector<std::string>{
                "A is row-major, so its rows hold K = 100 contiguous elements, which alignment 8 does not divide"}));
}

TEST(Legality, HintsNameTheTypo) {
  FrontendResult r = run_frontend("t.dsl", std::string(kBase) + ".with_schedule(cooprative)");
  ASSERT_EQ(r.diags->all().size(), 1u);
  EXPECT_EQ(r.diags->all()[0].hint, "did you mean 'cooperative'?");
}

TEST(Canonical, SameMeaningSameHash) {
  FrontendResult a = run_frontend("a.dsl", "kernel k = gemm(m = 64, n = 64, k = 64).with_types(bf16)");
  FrontendResult b = run_frontend(
      "b.dsl", "# comment\nkernel k = gemm(k = 64, n = 64, m = 64)\n  .with_types(a = bf16, b = bf16, d = bf16)\n"
               "  .with_schedule(auto)\n");
  ASSERT_TRUE(a.ok && b.ok) << a.diags->render() << b.diags->render();
  EXPECT_EQ(a.hash, b.hash);
  FrontendResult c = run_frontend("c.dsl", "kernel k = gemm(m = 64, n = 64, k = 64).with_types(f16)");
  ASSERT_TRUE(c.ok);
  EXPECT_NE(a.hash, c.hash);
}

TEST(ResolveAuto, ChoosesSoundDefaults) {
  FrontendResult r = run_frontend("t.dsl", "kernel k = gemm(m = 4096, n = 4096, k = 4096).with_types(f32)");
  ASSERT_TRUE(r.ok) << r.diags->render();
  EXPECT_EQ(ir::canonical_text(r.program.kernels[0]),
            "kernel k = gemm(m=4096,n=4096,k=4096,batch=1)\n"
            "  arch=sm90a\n  types=f32,f32,void,f32,f32\n  layouts=row,col,row\n  math=tf32\n"
            "  tile=128x128x32\n  cluster=2x1x1\n  warps=0x0x0\n  schedule=cooperative,tma_cooperative\n"
            "  stages=0\n  alignment=4,4,4\n  raster=heuristic,swizzle=1\n  scheduler=persistent,splits=1\n"
            "  alpha=1\n  beta=0\n");
}

TEST(ResolveAuto, UnalignedShapeFallsBackToCpAsync) {
  FrontendResult r = run_frontend("t.dsl", "kernel k = gemm(m = 128, n = 130, k = 130).with_types(bf16)");
  ASSERT_TRUE(r.ok) << r.diags->render();
  const ir::GemmKernel& k = r.program.kernels[0];
  EXPECT_EQ(k.schedule.value, ir::KernelSchedule::cpasync_cooperative);
  EXPECT_EQ(k.epilogue_schedule.value, ir::EpilogueSchedule::nosmem);
  EXPECT_EQ(k.align_a.value, 2);
  EXPECT_EQ(k.cluster.value, (ir::Shape3{1, 1, 1}));
}

}  // namespace
}  // namespace ucutlass
