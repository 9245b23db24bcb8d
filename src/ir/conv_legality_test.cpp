// Table-driven legality tests for convolution kernels: each row is a whole
// program and the exact diagnostics `check` gives, as "LINE:COL: message"
// (the position is part of the contract: it points at the setting to fix).
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/testing_legality.h"
#include "ir/canonical.h"
#include "ir/conv_problem.h"
#include "ir/validate_depthwise.h"

namespace ucutlass {
namespace {

using Row = ir_testing::LegalityRow;
using ir_testing::located_messages;

class ConvLegality : public ::testing::TestWithParam<Row> {};

TEST_P(ConvLegality, ExactDiagnostics) {
  const Row& row = GetParam();
  EXPECT_EQ(located_messages(row.program), row.messages) << row.program;
}

#define FPROP_BF16 "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 128, r = 3, s = 3, pad = 1)"
#define DW_SM80                                                                                                    \
  "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1, groups = 64)"            \
  ".with_arch(sm80)"

INSTANTIATE_TEST_SUITE_P(
    Rules, ConvLegality,
    ::testing::Values(
        // Legal programs: every pass and rank on sm90a, tf32 fprop, the sm80 path, a fused epilogue.
        Row{"fprop_bias_relu", FPROP_BF16 ".with_types(bf16).with_epilogue(bias(col), relu)", {}},
        Row{"dgrad_3d", "kernel k = conv3d(dgrad, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, "
                        "pad = 1).with_types(bf16)",
            {}},
        Row{"wgrad_1d", "kernel k = conv1d(wgrad, n = 8, w = 1000, c = 64, k = 128, s = 5, pad = 2).with_types(f16)",
            {}},
        Row{"tf32_fprop", FPROP_BF16 ".with_types(f32)", {}},
        Row{"residual_beta", FPROP_BF16 ".with_types(bf16).with_epilogue(beta(1.0), bias(col), relu)", {}},
        Row{"dynamic_batch", "kernel k = conv2d(fprop, n = dynamic, h = dynamic, w = 56, c = 64, k = 64, r = 1, s = 1)"
                             ".with_types(bf16)",
            {}},
        Row{"sm80_strided_dgrad", "kernel k = conv2d(dgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, "
                                  "pad = 1, stride = 2).with_arch(sm80).with_types(f16)",
            {}},
        Row{"sm80_tf32x3_wgrad", "kernel k = conv2d(wgrad, n = 8, h = 28, w = 28, c = 32, k = 32, r = 3, s = 3, "
                                 "pad = 1).with_arch(sm80).with_types(f32).with_math(tf32x3)",
            {}},
        Row{"conv_transpose_sm80", "kernel k = conv_transpose2d(n = 8, h = 32, w = 32, c = 64, k = 32, r = 4, s = 4, "
                                   "pad = 1, stride = 2).with_arch(sm80).with_types(f16)",
            {}},
        Row{"conv_transpose_sm90_stride1", "kernel k = conv_transpose3d(n = 2, d = 8, h = 8, w = 8, c = 64, k = 32, "
                                           "t = 3, r = 3, s = 3, pad = 1).with_types(bf16)",
            {}},
        // One program is one translation unit: CUTLASS 4.2 compiles its sm90a conv kernel beside an sm80
        // conv, not beside any GEMM (nvcc-checked 2026-11-30: sm80 GEMM + sm90a conv and sm90a GEMM + sm90a
        // conv fail, sm80 conv + sm90a conv builds).
        Row{"sm90_conv_beside_a_gemm", "kernel g = gemm(m = 64, n = 1000, k = 256).with_types(f32)\n" FPROP_BF16
                                       ".with_types(f32)\nkernel c2 = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, "
                                       "k = 128, r = 3, s = 3, pad = 1).with_arch(sm80).with_types(f32)",
            {"2:8: kernel 'k' is an sm90a convolution, which CUTLASS 4.2 cannot compile in one program with the GEMM "
             "'g' (its GEMM headers make the SM90 convolution kernel ambiguous)"}},
        // ucutlass's persistent kernel instantiates no CUTLASS conv kernel: with an explicit cooperative or
        // pingpong schedule an sm90a conv compiles beside a GEMM (nvcc-checked 2026-11-30: an sm90a f32
        // GEMM + pingpong TF32 conv + cooperative bf16 conv built in 187 s; an sm80 stream-K TF32 GEMM +
        // pingpong TF32 conv in 144 s).
        Row{"sm90_persistent_conv_beside_a_gemm", "kernel g = gemm(m = 64, n = 1000, k = 256).with_types(f32)\n" FPROP_BF16
                                                  ".with_types(f32).with_schedule(pingpong)",
            {}},
        Row{"sm80_conv_beside_sm90_conv", DW_SM80 "\nkernel k2 = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 128, "
                                          "r = 3, s = 3, pad = 1).with_types(bf16)",
            {}},
        // Lowering: names, required arguments, windows.
        Row{"conv_transpose_pass", "kernel k = conv_transpose2d(dgrad, n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3)",
            {"1:29: conv_transpose2d takes no pass: it is the dgrad of the forward convolution"}},
        Row{"conv_transpose_output_padding", "kernel k = conv_transpose2d(n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, "
                                             "s = 3, stride = 2, output_padding = 2)",
            {"1:107: output_padding 2 along h must be smaller than the stride 2"}},
        Row{"conv_transpose_dynamic", "kernel k = conv_transpose2d(n = 1, h = dynamic, w = 8, c = 8, k = 8, r = 3, s = 3)",
            {"1:40: conv_transpose2d h must be fixed: it decides the output size"}},
        Row{"conv_transpose_sm90_stride2", "kernel k = conv_transpose2d(n = 8, h = 32, w = 32, c = 64, k = 32, r = 4, "
                                           "s = 4, pad = 1, stride = 2).with_types(bf16)",
            {"1:100: sm90a dgrad runs unit-stride problems only in this version (stride 2 along h)"}},
        Row{"unknown_pass", "kernel k = conv2d(fwd, n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3)",
            {"1:19: unknown convolution pass 'fwd'"}},
        Row{"missing_pass", "kernel k = conv2d(n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3)",
            {"1:12: conv2d needs its pass first: fprop, dgrad or wgrad"}},
        Row{"missing_filter", "kernel k = conv2d(fprop, n = 1, h = 8, w = 8, c = 8, k = 8, r = 3)",
            {"1:12: conv2d needs 's'"}},
        Row{"typo", "kernel k = conv2d(fprop, n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3, dilaton = 2)",
            {"1:75: unknown argument 'dilaton' of conv2d"}},
        Row{"window_rank", "kernel k = conv2d(fprop, n = 1, h = 8, w = 8, c = 8, k = 8, r = 3, s = 3, pad = (1, 1, 1))",
            {"1:81: pad has 3 values but conv2d has 2 spatial dimensions"}},
        Row{"dynamic_channels", "kernel k = conv2d(fprop, n = 1, h = 8, w = 8, c = dynamic, k = 8, r = 3, s = 3)",
            {"1:51: conv2d c must be fixed: channels and filter sizes decide alignment and legality"}},
        // The problem.
        Row{"groups_divide", "kernel k = conv2d(fprop, n = 8, h = 8, w = 8, c = 64, k = 96, r = 1, s = 1, groups = 5)"
                             ".with_types(bf16)",
            {"1:86: groups = 5 does not divide c = 64"}},
        Row{"filter_too_big", "kernel k = conv2d(fprop, n = 1, h = 2, w = 8, c = 8, k = 8, r = 5, s = 3)"
                              ".with_types(bf16)",
            {"1:65: the filter does not fit the input: r = 5 with dilation 1 spans 5, but h = 2 with pad 0 is 2 wide"}},
        Row{"layouts", FPROP_BF16 ".with_types(bf16).with_layouts(a = col)",
            {"1:123: convolutions are channels-last (NHWC activations, KRSC filters); with_layouts does not apply"}},
        Row{"split_k", FPROP_BF16 ".with_types(bf16).with_scheduler(split_k(2))",
            {"1:121: stream-K and split-K are not available for convolutions in CUTLASS 4.2"}},
        Row{"bias_row", FPROP_BF16 ".with_types(bf16).with_epilogue(bias(row))",
            {"1:120: bias(row) would be one value per output pixel; a convolution's bias is per output channel"}},
        Row{"residual_tensor", FPROP_BF16 ".with_types(bf16).with_epilogue(residual)",
            {"1:120: epilogue tensor 'residual' is not supported on convolutions in this version"}},
        Row{"col_sum", FPROP_BF16 ".with_types(bf16).with_epilogue(col_sum)",
            {"1:120: 'col_sum' reduces into a side output, which convolution kernels do not fuse in this version"}},
        Row{"wgrad_bias", "kernel k = conv2d(wgrad, n = 8, h = 28, w = 28, c = 32, k = 32, r = 3, s = 3, pad = 1)"
                          ".with_types(bf16).with_epilogue(bias(col))",
            {"1:119: a wgrad kernel writes the filter gradient, which has no bias to add"}},
        // sm90a rules (CUTLASS 4.2 SM90 conv mainloop's can_implement and builder).
        Row{"sm90_channels", "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 3, k = 64, r = 7, s = 7, pad = 3)"
                             ".with_types(bf16)",
            {"1:53: sm90a convolutions load through TMA, which needs 16-byte aligned channels: c = 3 bf16 channels "
             "are 6 bytes per pixel"}},
        Row{"sm90_groups", "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1, "
                           "groups = 64).with_types(bf16)",
            {"1:97: sm90a convolutions in CUTLASS 4.2 take groups = 1 (depthwise is groups = c, groups = 64)"}},
        Row{"sm90_strided_dgrad", "kernel k = conv2d(dgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, "
                                  "pad = 1, stride = 2).with_types(bf16)",
            {"1:97: sm90a dgrad runs unit-stride problems only in this version (stride 2 along h)"}},
        Row{"sm90_tf32_dgrad", "kernel k = conv2d(dgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, "
                               "pad = 1).with_types(f32)",
            {"1:19: sm90a dgrad reads an MN-major operand, which tf32 WGMMA cannot (it reads K-major operands only)"}},
        Row{"sm90_schedule", FPROP_BF16 ".with_types(bf16).with_schedule(cpasync).with_cluster(1, 1, 1)",
            {"1:120: sm90a convolutions run CUTLASS's non-persistent 'warpspecialized' kernel or, for fprop, "
             "ucutlass's persistent 'cooperative' and 'pingpong' ones (CUTLASS 4.2 has no cp.async conv mainloop), "
             "not 'cpasync'"}},
        // The persistent ping-pong kernel: a whole tile per consumer warp group.
        Row{"sm90_pingpong", FPROP_BF16 ".with_types(bf16).with_schedule(pingpong).with_tile(128, 128, 64)", {}},
        Row{"sm90_tile_k_bytes", FPROP_BF16 ".with_types(bf16).with_schedule(pingpong).with_tile(128, 64, 48)",
            {"1:130: an sm90a convolution's tile K spans a power-of-two number of bytes (its shared-memory swizzle "
             "atom); tile K = 48 bf16 is 96 bytes"}},
        Row{"sm90_pingpong_tile_m", FPROP_BF16 ".with_types(bf16).with_schedule(pingpong).with_tile(256, 64, 64)",
            {"1:130: the 'pingpong' conv schedule gives each consumer warp group a whole tile, so it takes tile M = "
             "64 or 128, not 256"}},
        Row{"sm90_pingpong_accumulators", FPROP_BF16 ".with_types(bf16).with_schedule(pingpong)"
                                          ".with_tile(128, 256, 64)",
            {"1:130: tile 128x256 gives each of the 128 threads of a tile 256 accumulators; the 'pingpong' conv "
             "kernel holds at most 128"}},
        // The persistent cooperative kernel (codegen/runtime/persistent_conv_sm90.hpp).
        Row{"sm90_persistent", FPROP_BF16 ".with_types(bf16).with_schedule(cooperative).with_tile(256, 128, 64)", {}},
        Row{"sm90_persistent_tf32_residual", FPROP_BF16 ".with_types(f32).with_schedule(cooperative)"
                                             ".with_epilogue(beta(1.0), relu)", {}},
        Row{"sm90_persistent_dgrad", "kernel k = conv2d(dgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, "
                                     "pad = 1).with_types(bf16).with_schedule(cooperative)",
            {"1:119: the persistent 'cooperative' conv schedule runs fprop, not dgrad"}},
        Row{"sm90_persistent_tile_m", FPROP_BF16 ".with_types(bf16).with_schedule(cooperative).with_tile(64, 128, 64)",
            {"1:133: the 'cooperative' conv schedule splits tile M between two consumer warp groups, so it takes "
             "tile M = 128 or 256, not 64"}},
        Row{"sm90_persistent_accumulators", FPROP_BF16 ".with_types(bf16).with_schedule(cooperative)"
                                            ".with_tile(256, 256, 64)",
            {"1:133: tile 256x256 gives each of the 256 threads of a tile 256 accumulators; the 'cooperative' conv "
             "kernel holds at most 128"}},
        Row{"sm90_persistent_cluster", FPROP_BF16 ".with_types(bf16).with_schedule(cooperative).with_cluster(2, 1, 1)",
            {"1:133: the persistent 'cooperative' conv kernel runs 1x1x1 clusters, not 2x1x1"}},
        Row{"sm90_3d_pad", "kernel k = conv3d(fprop, n = 1, d = 64, h = 16, w = 16, c = 16, k = 16, t = 3, r = 3, "
                           "s = 3, pad = (20, 1, 1)).with_types(bf16)",
            {"1:100: TMA im2col takes padding up to 16 for conv3d, not 20"}},
        Row{"sm90_filter_reach", "kernel k = conv3d(fprop, n = 1, d = 64, h = 64, w = 64, c = 16, k = 16, t = 3, "
                                 "r = 3, s = 3, dilation = 16).with_types(bf16)",
            {"1:77: TMA im2col addresses filter offsets below 31 for conv3d; dilation * (t - 1) = 32"}},
        Row{"sm90_tile_m", FPROP_BF16 ".with_types(bf16).with_tile(256, 128, 64)",
            {"1:106: the sm90a conv schedule 'warpspecialized' (one consumer warp group) takes tile M = 64 or 128, not "
             "256"}},
        // sm80 rules (2.x implicit GEMM).
        Row{"sm80_grouped", "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1, "
                            "groups = 2).with_arch(sm80).with_types(bf16)",
            {}},
        // sm80 depthwise (groups = c = k): CUTLASS's direct convolution (validate_depthwise.h).
        Row{"sm80_depthwise", DW_SM80 ".with_types(f32)", {}},
        Row{"sm80_depthwise_bf16", DW_SM80 ".with_types(bf16).with_epilogue(relu)", {}},
        Row{"sm80_depthwise_f16_dynamic_strided",
            "kernel k = conv2d(fprop, n = dynamic, h = dynamic, w = dynamic, c = 256, k = 256, r = 3, s = 3, "
            "pad = 1, stride = 2, groups = 256).with_arch(sm80).with_types(f16).with_tile(32, 32, 9)"
            ".with_warps(2, 1, 1)",
            {}},
        Row{"sm80_depthwise_5x5_dilated", "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 64, r = 5, "
                                          "s = 5, pad = 4, dilation = 2, groups = 64).with_arch(sm80).with_types(f32)",
            {}},
        Row{"sm80_depthwise_dgrad", "kernel k = conv2d(dgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, "
                                    "pad = 1, groups = 64).with_arch(sm80).with_types(f32)",
            {"1:97: sm80 depthwise convolutions are fprop conv2d only (CUTLASS's direct convolution, "
             "DefaultDepthwiseDirect2dConvFprop), not conv2d dgrad"}},
        Row{"sm80_depthwise_conv1d", "kernel k = conv1d(fprop, n = 8, w = 56, c = 64, k = 64, s = 3, pad = 1, "
                                     "groups = 64).with_arch(sm80).with_types(f32)",
            {"1:82: sm80 depthwise convolutions are fprop conv2d only (CUTLASS's direct convolution, "
             "DefaultDepthwiseDirect2dConvFprop), not conv1d fprop"}},
        Row{"sm80_depthwise_math", DW_SM80 ".with_types(f32).with_math(tf32)", {"1:143: depthwise convolutions run on CUDA cores (CUTLASS's direct convolution is SIMT only), not 'tf32'"}},
        Row{"sm80_depthwise_output_type", DW_SM80 ".with_types(a = f16, d = f32)", {"1:141: the direct convolution writes D in its input type: f16, not f32"}},
        Row{"sm80_depthwise_channels", "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 6, k = 6, r = 3, s = 3, "
                                       "pad = 1, groups = 6).with_arch(sm80).with_types(f32)",
            {"1:53: the direct convolution loads 16-byte vectors of channels: c = 6 f32 channels are 24 bytes per "
             "pixel"}},
        Row{"sm80_depthwise_alignment", DW_SM80 ".with_types(f32).with_alignment(a = 2)", {"1:152: the direct convolution moves 16-byte vectors; alignment a = 2 is 8 bytes"}},
        Row{"sm80_depthwise_tile_k", DW_SM80 ".with_types(f32).with_tile(64, 64, 8)", {"1:133: tile K of a depthwise convolution is the filter's r x s = 9 taps, not 8"}},
        Row{"sm80_depthwise_tile_n", DW_SM80 ".with_types(f32).with_tile(64, 48, 9)", {"1:133: tile N = 48 is the channels per CTA, which one warp spans; the direct convolution's lane layout "
             "takes 16, 32, 64 or 128"}},
        Row{"sm80_depthwise_tile_m", DW_SM80 ".with_types(f32).with_tile(48, 64, 9)", {"1:133: tile M = 48 is the output pixels per CTA tile (out_h x out_w), which must be a power of two in "
             "[4, 256]"}},
        Row{"sm80_depthwise_warps", DW_SM80 ".with_types(f32).with_warps(2, 2, 1)", {"1:133: warps 2x2x1 do not suit the direct convolution: each warp spans all channels and an equal part "
             "of the 64 output pixels"}},
        Row{"sm80_depthwise_thread_tile", DW_SM80 ".with_types(f32).with_tile(128, 64, 9).with_warps(1, 1, 1)",
            {"1:155: a warp of 128 output pixels with 1 lane group along pixels (tile N = 64) has no thread tile in "
             "CUTLASS that divides the 8x16 output tile"}},
        Row{"sm80_depthwise_stages", DW_SM80 ".with_types(f32).with_stages(1)", {"1:145: the direct convolution's pipeline takes 2 to 8 stages, not 1"}},
        Row{"sm80_depthwise_smem", "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 128, k = 128, r = 3, s = 3, "
                                   "pad = 1, groups = 128).with_arch(sm80).with_types(f32).with_tile(256, 128, 9)"
                                   ".with_warps(8, 1, 1).with_stages(2)",
            {"1:191: 2 stages of the 16x16x128 output tile need 344064 bytes of shared memory (activation tiles grow "
             "with stride and dilation), more than 232448"}},
        // The epilogue stages the output tile's accumulators in the activation stage just read; f32
        // accumulators of 16-bit inputs outgrow a stride-1 3x3 stage and overwrite the next tile's
        // activations (NaN on an H200). More warps round the stage up; f16 accumulators always fit.
        Row{"sm80_depthwise_epilogue_staging", DW_SM80 ".with_types(f16).with_tile(256, 64, 9).with_warps(16, 1, 1)",
            {"1:133: the direct convolution's epilogue stages the 16x16x64 output tile's f32 accumulators (65536 "
             "bytes) in the activation stage it has just read (49152 bytes: 18x18 input pixels in whole 16-byte "
             "loads of 512 threads); the excess would overwrite the next output tile's activations"}},
        Row{"sm80_depthwise_epilogue_staging_bf16", DW_SM80 ".with_types(bf16).with_tile(64, 64, 9).with_warps(4, 1, 1)",
            {"1:134: the direct convolution's epilogue stages the 8x8x64 output tile's f32 accumulators (16384 "
             "bytes) in the activation stage it has just read (14336 bytes: 10x10 input pixels in whole 16-byte "
             "loads of 128 threads); the excess would overwrite the next output tile's activations"}},
        Row{"sm80_depthwise_16_warps", DW_SM80 ".with_types(f16).with_tile(64, 64, 9).with_warps(16, 1, 1)", {}},
        Row{"sm80_depthwise_16_warps_acc16", DW_SM80 ".with_types(a = f16, acc = f16).with_tile(256, 64, 9)"
                                             ".with_warps(16, 1, 1)",
            {}},
        Row{"sm80_depthwise_swizzle", DW_SM80 ".with_types(f32).with_raster(swizzle = 2)", {"1:155: the direct convolution's grid is one row of channel tiles, so it takes no swizzle"}},
        Row{"sm80_depthwise_bias", DW_SM80 ".with_types(f32).with_epilogue(bias(col))", {}},
        Row{"sm80_grouped_dgrad", "kernel k = conv2d(dgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, "
                                  "pad = 1, groups = 2).with_arch(sm80).with_types(bf16)",
            {"1:97: sm80 grouped convolutions are fprop conv2d and conv1d only (DefaultConv2dGroupFprop), not conv2d "
             "dgrad"}},
        Row{"sm80_grouped_tile", "kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 96, k = 96, r = 3, s = 3, "
                                 "pad = 1, groups = 2).with_arch(sm80).with_types(bf16).with_tile(128, 128, 32)",
            {"1:133: tile N = 128 neither divides nor is a multiple of the 48 output channels per group"}},
        Row{"sm80_dilated_strided_dgrad", "kernel k = conv2d(dgrad, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, "
                                          "s = 3, pad = 2, stride = 2, dilation = 2).with_arch(sm80).with_types(f16)",
            {"1:111: the sm80 strided dgrad kernel does not take dilation (dilation 2)"}},
        Row{"sm80_3d_channels", "kernel k = conv3d(fprop, n = 1, d = 8, h = 8, w = 8, c = 4, k = 16, t = 3, r = 3, "
                                "s = 3).with_arch(sm80).with_types(f16)",
            {"1:58: sm80 conv3d loads 16-byte vectors: c = 4 f16 channels are 8 bytes per pixel"}}),
    [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

#undef FPROP_BF16
#undef DW_SM80

// A transposed convolution is the dgrad of its forward problem: same canonical text, same kernel.
TEST(ConvProblem, TransposedIsTheForwardDgrad) {
  FrontendResult t = run_frontend("t.dsl", "kernel up = conv_transpose2d(n = 8, h = 32, w = 32, c = 64, k = 32, "
                                           "r = 3, s = 3, pad = 1, stride = 2, output_padding = 1)"
                                           ".with_arch(sm80).with_types(f16)\n");
  FrontendResult d = run_frontend("d.dsl", "kernel up = conv2d(dgrad, n = 8, h = 64, w = 64, c = 32, k = 64, "
                                           "r = 3, s = 3, pad = 1, stride = 2).with_arch(sm80).with_types(f16)\n");
  ASSERT_TRUE(t.ok) << t.diags->render();
  ASSERT_TRUE(d.ok) << d.diags->render();
  EXPECT_EQ(ir::canonical_text(t.program), ir::canonical_text(d.program));
  EXPECT_EQ(t.program.kernels[0].conv->output(1), 32);
}

// Depthwise auto settings: 8x8 x 64 channels x all taps on 4 warps, 3 stages; narrower channel tiles
// for channel counts that 64 does not divide; more warps when the epilogue's accumulators outgrow an
// activation stage; smaller stages and output tiles for wide strides.
// `auto` on sm90a: an fprop runs the persistent ping-pong kernel unless a setting rules it out; dgrad,
// wgrad and such fprops run CUTLASS's non-persistent kernel with its 2x1x1 cluster.
TEST(ConvProblem, Sm90AutoScheduleIsPingpongWhereLegal) {
  const std::string conv = "conv2d(fprop, n = 8, h = 64, w = 64, c = 64, k = 128, r = 3, s = 3, pad = 1).with_types(bf16)";
  FrontendResult r = run_frontend(
      "t.dsl", "kernel a = " + conv + "\n" +
               "kernel b = " + conv + ".with_cluster(2, 1, 1)\n" +
               "kernel c = " + conv + ".with_tile(128, 256, 64)\n" +
               "kernel d = " + conv + ".with_tile(64, 128, 64).with_cluster(1, 1, 1)\n" +
               "kernel e = conv2d(dgrad, n = 8, h = 64, w = 64, c = 64, k = 128, r = 3, s = 3, pad = 1).with_types(bf16)\n" +
               "kernel f = conv3d(fprop, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, pad = 1)"
               ".with_types(f32)\n");
  ASSERT_TRUE(r.ok) << r.diags->render();
  auto schedule = [&](int i) { return std::string(ir::name_of(r.program.kernels[i].schedule.value)); };
  auto cluster = [&](int i) { return r.program.kernels[i].cluster.value; };
  EXPECT_EQ(schedule(0), "pingpong");
  EXPECT_EQ(r.program.kernels[0].tile.value, (ir::Shape3{128, 128, 64}));
  EXPECT_EQ(cluster(0), (ir::Shape3{1, 1, 1}));
  EXPECT_EQ(r.program.kernels[0].epilogue_schedule.value, ir::EpilogueSchedule::tma_warpspecialized);
  EXPECT_EQ(schedule(1), "warpspecialized");  // a 2x1x1 cluster asked for
  EXPECT_EQ(schedule(2), "warpspecialized");  // 128x256 holds 256 accumulators per thread of one group
  EXPECT_EQ(schedule(3), "pingpong");
  EXPECT_EQ(schedule(4), "warpspecialized");
  EXPECT_EQ(cluster(4), (ir::Shape3{2, 1, 1}));
  EXPECT_EQ(schedule(5), "pingpong");
  EXPECT_EQ(r.program.kernels[5].tile.value, (ir::Shape3{128, 64, 32}));
}

TEST(ConvProblem, DepthwiseAutoSettings) {
  FrontendResult r = run_frontend(
      "t.dsl", "kernel a = conv2d(fprop, n = 32, h = 64, w = 64, c = 512, k = 512, r = 3, s = 3, pad = 1, "
               "groups = 512).with_arch(sm80).with_types(f32)\n"
               "kernel b = conv2d(fprop, n = 2, h = 33, w = 31, c = 48, k = 48, r = 3, s = 3, pad = 1, "
               "groups = 48).with_arch(sm80).with_types(f16)\n"
               "kernel c = conv2d(fprop, n = 2, h = 224, w = 224, c = 64, k = 64, r = 3, s = 3, pad = 1, stride = 3, "
               "groups = 64).with_arch(sm80).with_types(f32)\n"
               "kernel d = conv2d(fprop, n = 4, h = 30, w = 50, c = 64, k = 64, r = 3, s = 3, pad = 1, "
               "groups = 64).with_arch(sm80).with_types(f16)\n"
               "kernel e = conv2d(fprop, n = 4, h = 30, w = 50, c = 64, k = 64, r = 3, s = 3, pad = 1, "
               "groups = 64).with_arch(sm80).with_types(bf16).with_tile(32, 64, 9)\n");
  ASSERT_TRUE(r.ok) << r.diags->render();
  const ir::GemmKernel& a = r.program.kernels[0];
  EXPECT_EQ(a.math.value, ir::MathPath::simt);
  EXPECT_EQ(a.tile.value, (ir::Shape3{64, 64, 9}));
  EXPECT_EQ(a.warps.value, (ir::Shape3{4, 1, 1}));
  EXPECT_EQ(a.stages.value, 3);
  EXPECT_EQ(a.align_a.value, 4);
  EXPECT_EQ(a.align_b.value, 4);
  EXPECT_EQ(a.align_c.value, 4);
  const ir::GemmKernel& b = r.program.kernels[1];
  EXPECT_EQ(b.tile.value, (ir::Shape3{64, 16, 9}));
  EXPECT_EQ(b.align_a.value, 8);
  // Stride 3: a 24x24 activation tile per 8x8 output tile fits neither 3 nor 2 times; 12x24 per 4x8 fits 3 times.
  const ir::GemmKernel& c = r.program.kernels[2];
  EXPECT_EQ(c.tile.value, (ir::Shape3{32, 64, 9}));
  EXPECT_EQ(c.warps.value, (ir::Shape3{2, 1, 1}));
  EXPECT_EQ(c.stages.value, 3);
  // f16 with f32 accumulators, 64 channels, stride 1: on 4 warps the 8x8x64 accumulators (16384 bytes)
  // outgrow the 10x10 activation stage (7 loads of 128 threads, 14336 bytes); 8 warps round it up to
  // 4 loads of 256 threads, 16384 bytes.
  const ir::GemmKernel& d = r.program.kernels[3];
  EXPECT_EQ(d.tile.value, (ir::Shape3{64, 64, 9}));
  EXPECT_EQ(d.warps.value, (ir::Shape3{8, 1, 1}));
  EXPECT_EQ(d.stages.value, 3);
  EXPECT_EQ(ir::depthwise_epilogue_bytes(d), 16384);
  EXPECT_EQ(ir::depthwise_activation_stage_bytes(d), 16384);
  // An explicit 4x8 tile keeps its warps of 16 pixels: 8 loads of 64 threads hold its 8192 bytes.
  const ir::GemmKernel& e = r.program.kernels[4];
  EXPECT_EQ(e.warps.value, (ir::Shape3{2, 1, 1}));
  EXPECT_TRUE(ir::depthwise_epilogue_fits(e));
}

TEST(ConvProblem, ImplicitGemmExtents) {
  FrontendResult r = run_frontend(
      "t.dsl", "kernel f = conv2d(fprop, n = 8, h = 512, w = 1024, c = 64, k = 128, r = 3, s = 3, pad = 1)"
               ".with_types(bf16)\n"
               "kernel d = conv2d(dgrad, n = 2, h = 9, w = 9, c = 32, k = 16, r = 3, s = 3, stride = 2)"
               ".with_arch(sm80).with_types(f16)\n"
               "kernel w = conv1d(wgrad, n = 4, w = 100, c = 16, k = 8, s = 5, pad = 2).with_types(bf16)\n");
  ASSERT_TRUE(r.ok) << r.diags->render();
  const ir::GemmKernel& f = r.program.kernels[0];
  EXPECT_EQ(f.m.value, 8 * 512 * 1024);
  EXPECT_EQ(f.n.value, 128);
  EXPECT_EQ(f.k.value, 9 * 64);
  const ir::GemmKernel& d = r.program.kernels[1];
  EXPECT_EQ(d.conv->output(1), 4);  // (9 - 3) / 2 + 1
  EXPECT_EQ(d.m.value, 2 * 9 * 9);
  EXPECT_EQ(d.n.value, 32);
  EXPECT_EQ(d.k.value, 9 * 16);
  const ir::GemmKernel& w = r.program.kernels[2];
  EXPECT_EQ(w.m.value, 8);
  EXPECT_EQ(w.n.value, 5 * 16);
  EXPECT_EQ(w.k.value, 4 * 100);
  EXPECT_NE(ir::canonical_text(r.program).find(
                "conv=conv2d(fprop,n=8,dhw=1,512,1024,c=64,k=128,trs=1,3,3,pad=0,1,1,stride=1,1,1,dilation=1,1,1,"
                "groups=1)"),
            std::string::npos);
}

}  // namespace
}  // namespace ucutlass
