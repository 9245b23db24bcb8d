// Solutions written for real suite problems must pass the harness's static
// checker (KernelBench's rules, cutlass backend) and keep the reference's
// constructor; the forward must call one CUTLASS kernel per matched GEMM.
#include "solution/modelnew_writer.h"

#include <filesystem>
#include <functional>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "exec/subprocess.h"
#include "graph/graph_reader.h"
#include "map/row_match.h"
#include "search/config_space.h"
#include "search/conv_space.h"
#include "sol/testing_profile.h"
#include "support/source_file.h"

namespace ucutlass::solution {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

using sol::testing::h200;

// The solution of each GEMM's best-ranked honest (non-speculative) candidate that `keep` accepts, mapped
// as `optimize` maps (`fused_attention`: attention kernels where the tolerance allows them).
SolutionFiles best_solution_mapped(const std::string& fixture, sol::ToleranceProfile tol, graph::OpGraph* g, bool fused_attention,
                                   const std::function<bool(const map::KernelConfig&)>& keep = {}) {
  std::string err;
  EXPECT_TRUE(graph::load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/" + fixture + ".json", g, &err))
      << err;
  map::MatchReport r = map::match_problem(*g, fused_attention);  // as `optimize` matches
  const std::vector<std::vector<search::Candidate>> lists = search::candidate_lists(*g, tol, h200(), r);
  std::vector<map::KernelConfig> configs;
  for (const auto& list : lists)
    for (const search::Candidate& c : list)
      if (!c.speculative && (!keep || keep(c.config))) {
        configs.push_back(c.config);
        break;
      }
  const std::string problem = read_text(std::string(UCUTLASS_SOURCE_DIR) + "/" + g->problem_file);
  return make_solution(problem, *g, r.gemms, configs, "/opt/cutlass");
}

SolutionFiles best_solution(const std::string& fixture, sol::ToleranceProfile tol, graph::OpGraph* g,
                            const std::function<bool(const map::KernelConfig&)>& keep = {}) {
  return best_solution_mapped(fixture, tol, g, search::fused_attention_allowed(tol), keep);
}

// `fp32`: the problem's outputs are f32, so the checker also applies KernelBench's fp32 -> fp16 rule.
nlohmann::json static_check(const std::string& source, bool fp32 = false) {
  const std::string path = std::filesystem::temp_directory_path() / ("ucutlass_modelnew_test_" + std::to_string(::getpid()) + ".py");
  std::ofstream(path) << source;
  ProcessOptions o;
  o.extra_env = {"PYTHONPATH=" + std::string(UCUTLASS_SOURCE_DIR) + "/python"};
  o.timeout_s = 60;
  std::vector<std::string> argv{"python3", "-m", "ucutlass_harness", "static-check", "--backend", "cutlass", "--json", path};
  if (fp32) argv.insert(argv.end() - 1, {"--precision", "fp32"});
  ProcessResult p = run_process(argv, o);
  std::filesystem::remove(path);
  EXPECT_TRUE(p.exited) << p.describe() << p.err;
  return nlohmann::json::parse(p.out, nullptr, false);
}

TEST(ModelNewWriter, SuiteSolutionsPassTheStaticChecker) {
  struct Row {
    const char* fixture;
    sol::ToleranceProfile tol;
    int kernels;
  };
  const Row rows[] = {
      {"level1_001_gemm_square_4096", sol::ToleranceProfile::kernelbench, 1},
      {"level1_004_gemm_llm_decode_small_m", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level1_009_gemm_transposed_b", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level1_012_gemm_batched", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level1_018_matmul_3d_tensor_matrix", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level2_001_gemm_bias_relu", sol::ToleranceProfile::kernelbench, 1},
      {"level2_002_gemm_gelu_scale", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level2_004_gemm_sigmoid_residual", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level2_010_gemm_softmax", sol::ToleranceProfile::kernelbench_v01, 2},  // the GEMM, then a row softmax
      {"level3_001_mlp_3layer", sol::ToleranceProfile::kernelbench_v01, 3},
      {"level3_003_attention_sdpa", sol::ToleranceProfile::kernelbench, 2},  // decomposed (graph/decompose_attention.h)
      {"level3_003_attention_sdpa", sol::ToleranceProfile::kernelbench_v01, 1},  // fused, split scores (q, k inputs)
      {"level3_004_attention_causal_explicit", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level3_005_transformer_block", sol::ToleranceProfile::kernelbench_v01, 5},
      {"level3_008_mlp_bf16_weights", sol::ToleranceProfile::kernelbench, 2},
      {"level1_019_conv2d_3x3", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level1_016_gemv", sol::ToleranceProfile::kernelbench, 1},              // sm80 SIMT Gemv
      {"level1_022_conv2d_depthwise", sol::ToleranceProfile::kernelbench, 1},  // sm80 direct convolution
      {"level1_023_conv2d_grouped", sol::ToleranceProfile::kernelbench, 1},
      {"level1_025_conv_transpose2d", sol::ToleranceProfile::kernelbench, 1},
      {"level1_027_conv1d_long", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level2_022_conv_scale_clamp_residual", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level2_025_conv_transpose_bias_tanh", sol::ToleranceProfile::kernelbench, 1},
      {"level2_026_conv3d_relu_avgpool", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level3_006_conv_net_small", sol::ToleranceProfile::kernelbench_v01, 4},
      {"level1_028_softmax_rows", sol::ToleranceProfile::kernelbench, 1},  // row kernels
      {"level1_030_logsumexp_rows", sol::ToleranceProfile::kernelbench_v01, 1},
      {"level1_034_argmax_rows", sol::ToleranceProfile::kernelbench, 1},
      {"level1_035_group_norm", sol::ToleranceProfile::kernelbench, 1},
      // linear + sum as ones W and a GEMV (graph/collapse_gemm_sum.h), with PyTorch's ones, t, squeeze, sum, add
      {"level2_017_gemm_sum_collapses_to_gemv_degenerate", sol::ToleranceProfile::kernelbench, 2},
      {"level2_017_gemm_sum_collapses_to_gemv_degenerate", sol::ToleranceProfile::kernelbench_v01, 2},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.fixture);
    graph::OpGraph g;
    SolutionFiles s = best_solution(r.fixture, r.tol, &g);
    ASSERT_EQ(s.error, "");
    nlohmann::json report = static_check(s.modelnew, g.tensors[g.outputs.at(0)].dtype == graph::DType::f32);
    ASSERT_TRUE(report.is_object());
    EXPECT_EQ(report.value("errors", nlohmann::json::array()).size(), 0u) << report.dump(2) ;
    // Kernel calls: _ucutlass.NAME( for every name but the binding's layout and split helpers.
    size_t calls = 0;
    static const std::regex call(R"(_ucutlass\.(\w+)\()");
    for (auto it = std::sregex_iterator(s.modelnew.begin(), s.modelnew.end(), call); it != std::sregex_iterator(); ++it)
      calls += (*it)[1] != "contiguous" && (*it)[1] != "channels_last" && (*it)[1] != "tf32_stack3" &&
               (*it)[1] != "bf16_stack3";
    EXPECT_EQ(calls, static_cast<size_t>(r.kernels));
    EXPECT_NE(s.modelnew.find("class ModelNew(nn.Module):"), std::string::npos);
    EXPECT_EQ(s.modelnew.find("class Model("), std::string::npos);
    EXPECT_EQ(s.modelnew.find("def get_inputs"), std::string::npos);
  }
}

TEST(ModelNewWriter, ASequentialsWeightsAreReadByGetParameter) {
  // "features.0.weight" is no attribute path: get_parameter walks it.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level3_006_conv_net_small", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("        t0 = self.get_parameter(\"features.0.weight\")\n"), std::string::npos) << s.modelnew;
  EXPECT_EQ(s.modelnew.find("self.features.0"), std::string::npos);
}

TEST(ModelNewWriter, KeepsTheConstructorAndReadsWeightsByName) {
  graph::OpGraph g;
  SolutionFiles s = best_solution("level2_001_gemm_bias_relu", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("    def __init__(self, in_features, out_features):\n"), std::string::npos);
  EXPECT_NE(s.modelnew.find("self.linear = nn.Linear(in_features, out_features)"), std::string::npos);
  EXPECT_NE(s.modelnew.find("        t0 = self.linear.weight\n        t1 = self.linear.bias\n"), std::string::npos) << s.modelnew;
  // sm90a over operands rounded to bf16 fuses bias and relu: one call, a = x rounded per call, b = W^T
  // rounded once per version of W, nothing else left in PyTorch.
  EXPECT_NE(s.modelnew.find("t4 = _ucutlass.gemm0(a=t2.to(torch.bfloat16), b=_ucutlass_cached(self, \"gemm0.b\", t0, "
                            "lambda: t0.transpose(-1, -2).to(torch.bfloat16)), bias=t1)"),
            std::string::npos)
      << s.modelnew;
  EXPECT_NE(s.modelnew.find(".with_types(a = bf16, b = bf16, c = void, d = f32, acc = f32)"), std::string::npos);
  EXPECT_EQ(s.modelnew.find("torch.ops.aten"), std::string::npos);
  EXPECT_NE(s.modelnew.find("-gencode=arch=compute_90a,code=sm_90a"), std::string::npos);
}

TEST(ModelNewWriter, Sm80FusesALeadingBiasAndOneActivation) {
  // Under 1e-4 sm80's 3xTF32 reads the bias as C with a leading dimension of 0: bias and relu fuse,
  // nothing is left in PyTorch.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level2_001_gemm_bias_relu", sol::ToleranceProfile::kernelbench, &g,
                                  [](const map::KernelConfig& c) { return c.arch == ir::Arch::sm80; });
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("tf32x3"), std::string::npos);
  EXPECT_NE(s.modelnew.find("t4 = _ucutlass.gemm0(a=t2, b=t0.transpose(-1, -2), bias=t1)"), std::string::npos)
      << s.modelnew;
  EXPECT_EQ(s.modelnew.find("torch.ops.aten"), std::string::npos);
}

TEST(ModelNewWriter, AMatrixVectorProductCallsItsGemvKernelOnTheProblemsTensors) {
  // level1/016: A [4096, 32768] @ x [32768, 1] runs as gemv(m, k); the binding takes x as B [K, 1]
  // and returns y [M, 1], so the call is the GEMM one, with no copy of either operand.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level1_016_gemv", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.dsl.find("kernel gemm0 = gemv(m = 4096, k = 32768)"), std::string::npos) << s.dsl;
  EXPECT_NE(s.dsl.find(".with_gemv(access = 8, threads_per_row = 32"), std::string::npos) << s.dsl;
  EXPECT_NE(s.modelnew.find("t2 = _ucutlass.gemm0(a=t0, b=t1)"), std::string::npos) << s.modelnew;
  EXPECT_EQ(s.modelnew.find("torch.ops.aten"), std::string::npos);
}

TEST(ModelNewWriter, KStackedThreeTf32SplitsTheInputAndCachesTheWeightSplit) {
  // Under 1e-4 the best honest nn.Linear path is sm90a TF32 over K-stacked split operands: the
  // kernel's k is 3K, x is split on every call, the weight's split is built once per version.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level2_001_gemm_bias_relu", sol::ToleranceProfile::kernelbench, &g,
                                  [](const map::KernelConfig& c) { return c.math == ir::MathPath::tf32; });
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("kernel gemm0 = gemm(m = 1024, n = 8192, k = 24576)"), std::string::npos) << s.modelnew;
  EXPECT_NE(s.modelnew.find("sm90a tf32 k-stacked 3x"), std::string::npos);
  EXPECT_NE(s.modelnew.find("t4 = _ucutlass.gemm0(a=_ucutlass_stack3(t2, True, -1), b=_ucutlass_stack3_param(self, "
                            "\"gemm0.b\", t0, lambda: t0.transpose(-1, -2), False, -2), bias=t1)"),
            std::string::npos)
      << s.modelnew;
  EXPECT_NE(s.modelnew.find("def _ucutlass_stack3(x, a_side, k_dim=-1, bf16=False, k_out=None):"), std::string::npos);
  EXPECT_NE(s.modelnew.find("def _ucutlass_stack3_param(owner, key, param, operand, a_side, k_dim, bf16=False, k_out=None):"),
            std::string::npos);
  const nlohmann::json r = static_check(s.modelnew);
  EXPECT_TRUE(r.value("passed", false)) << r.dump(1);
  // A solution without a K-stacked kernel carries no helpers.
  SolutionFiles v01 = best_solution("level2_001_gemm_bias_relu", sol::ToleranceProfile::kernelbench_v01, &g);
  EXPECT_EQ(v01.modelnew.find("_ucutlass_stack3"), std::string::npos);
}

TEST(ModelNewWriter, AKWhosePartsAreNotWhole16ByteRowsIsPaddedNotLeftToSm80) {
  // level1/011 (K = 3079): stacked rows of 3 x 3079 bf16 parts are no TMA rows; each part is padded
  // to 3080 (map/stacked_k.h), the kernel runs k = 9240 on sm90a, and both splits pass k_out.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level1_011_gemm_irregular", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("kernel gemm0 = gemm(m = 4093, n = 2051, k = 9240)"), std::string::npos) << s.modelnew;
  EXPECT_NE(s.modelnew.find(".with_arch(sm90a)"), std::string::npos);
  EXPECT_NE(s.modelnew.find("_ucutlass.gemm0(a=_ucutlass_stack3(t0, True, -1, bf16=True, k_out=3080), "
                            "b=_ucutlass_stack3(t1, False, -2, bf16=True, k_out=3080))"),
            std::string::npos)
      << s.modelnew;
  // An aligned K keeps its stack as it was: no k_out.
  SolutionFiles aligned = best_solution("level1_001_gemm_square_4096", sol::ToleranceProfile::kernelbench_v01, &g);
  const size_t call = aligned.modelnew.find("_ucutlass.gemm0(");
  ASSERT_NE(call, std::string::npos);
  const std::string line = aligned.modelnew.substr(call, aligned.modelnew.find('\n', call) - call);
  EXPECT_EQ(line.find("k_out"), std::string::npos) << line;
}

TEST(ModelNewWriter, KStackedThreeBf16SplitsBothInputsInTheirOwnLayouts) {
  // Under 1e-2 a GEMM of two inputs runs 3xBF16: k = 3K over bf16 parts, both inputs split per call
  // by the program's bf16 split, B read in its row-major layout (the split transposes; no copy first).
  graph::OpGraph g;
  SolutionFiles s = best_solution("level1_001_gemm_square_4096", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("kernel gemm0 = gemm(m = 4096, n = 4096, k = 12288)"), std::string::npos) << s.modelnew;
  EXPECT_NE(s.modelnew.find(".with_types(a = bf16, b = bf16, c = void, d = f32, acc = f32)"), std::string::npos);
  EXPECT_NE(s.modelnew.find("sm90a tensor_op bf16-operands k-stacked 3x"), std::string::npos);
  EXPECT_NE(s.modelnew.find("t2 = _ucutlass.gemm0(a=_ucutlass_stack3(t0, True, -1, bf16=True), "
                            "b=_ucutlass_stack3(t1, False, -2, bf16=True))"),
            std::string::npos)
      << s.modelnew;
  const nlohmann::json r = static_check(s.modelnew);
  EXPECT_TRUE(r.value("passed", false)) << r.dump(1);
}

TEST(ModelNewWriter, UnfusedStepsStayInPyTorch) {
  // A max and a min over a GEMM's rows read its output twice: no epilogue step, no row kernel (a row
  // kernel's amax has no index output); they run as ATen ops on the kernel's output.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level2_018_gemm_max_min_chain", sol::ToleranceProfile::kernelbench, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("        t4, t5 = torch.ops.aten.max.dim(t3, 1, True)\n        t6, t7 = torch.ops.aten.min.dim(t3, 1, True)\n"),
            std::string::npos)
      << s.modelnew;
}

TEST(ModelNewWriter, AShorterFusedChainLeavesTheRestToPyTorch) {
  // level2/007 (linear + mish) with only the bias fused (KernelConfig::fuse_steps 1): the kernel's
  // epilogue is the bias alone, mish runs as an ATen op on its output, and the file still passes
  // KernelBench's static rules. The search offers it beside the full chain (config_space.cpp).
  graph::OpGraph g;
  SolutionFiles full = best_solution("level2_007_gemm_mish", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(full.error, "");
  EXPECT_NE(full.dsl.find(".with_epilogue(bias(col), mish)"), std::string::npos) << full.dsl;
  SolutionFiles shorter = best_solution("level2_007_gemm_mish", sol::ToleranceProfile::kernelbench_v01, &g,
                                        [](const map::KernelConfig& c) { return c.fuse_steps == 1; });
  ASSERT_EQ(shorter.error, "");
  EXPECT_NE(shorter.dsl.find(".with_epilogue(bias(col))\n"), std::string::npos) << shorter.dsl;
  EXPECT_EQ(shorter.dsl.find(", mish"), std::string::npos) << shorter.dsl;
  EXPECT_NE(shorter.modelnew.find("torch.ops.aten.mish"), std::string::npos) << shorter.modelnew;
  EXPECT_NE(full.hash, shorter.hash);
  const nlohmann::json check = static_check(shorter.modelnew, true);
  ASSERT_TRUE(check.is_object());
  EXPECT_TRUE(check.value("passed", false)) << check.dump();
  EXPECT_EQ(check.value("errors", nlohmann::json::array()).size(), 0u) << check.dump();
}

TEST(ModelNewWriter, ASecondChannelBiasIsSummedIntoTheFusedOne) {
  // A stride-2 transposed conv (no sm90a dgrad) runs as a K-stacked sub-pixel fprop (map/subpixel.h)
  // fusing its own bias, repeated per phase. The model's per-channel bias after it joins that bias (their
  // sum, every call: either may change), so the tanh fuses too and nothing runs after the pixel shuffle
  // (the v0.1 store's level2/025 ran the add and the tanh as 114 and 63 us kernels).
  graph::OpGraph g;
  SolutionFiles s = best_solution("level2_025_conv_transpose_bias_tanh", sol::ToleranceProfile::kernelbench, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("        _z_conv0 = _ucutlass.conv0(x=_ucutlass_stack3(t3, True, 1, bf16=True), w=_ucutlass_stack3_param("
                            "self, \"conv0.b\", t1, lambda: _ucutlass_subpixel_filter(t1, (2, 2)), False, 1, bf16=True), "
                            "bias=(t2 + t0.reshape(-1)).repeat(4))\n"
                            "        t6 = _ucutlass_pixel_shuffle(_z_conv0, (2, 2), (1, 1), (128, 128))\n"
                            "        return t6\n"),
            std::string::npos)
      << s.modelnew;
  EXPECT_EQ(s.modelnew.find("torch.ops.aten"), std::string::npos) << s.modelnew;
}

TEST(ModelNewWriter, ConvCallsTakePyTorchLayouts) {
  // sm90a TF32 fuses the conv's bias: one call on the NCHW input as it is (the binding copies it to
  // channels-last) and the weight parameter's channels-last copy, made once per version; the header
  // states what the copies cost.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level2_019_conv_bias_relu", sol::ToleranceProfile::kernelbench_v01, &g,
                                  [](const map::KernelConfig& c) { return c.math == ir::MathPath::tf32; });
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("        t4 = _ucutlass.conv0(x=t2, w=_ucutlass_cached(self, \"conv0.w\", t0, lambda: "
                            "_ucutlass.channels_last(t0)), bias=t1)\n"),
            std::string::npos)
      << s.modelnew;
  EXPECT_EQ(s.modelnew.find("torch.ops.aten"), std::string::npos);
  EXPECT_NE(s.modelnew.find("#     layout copies per call (read + write): weight to KRSC cached (once per parameter version), "
                            "activation to channels-last 268.4 MB; total 268.4 MB\n"),
            std::string::npos)
      << s.modelnew;
  EXPECT_NE(s.modelnew.find("    def __init__(self, in_channels, out_channels, kernel_size):\n"), std::string::npos);

  // The best under 1e-2 reads bf16 roundings: the binding's channels-last copy rounds x per call and
  // the weight once per version; the bias and the result stay f32.
  s = best_solution("level2_019_conv_bias_relu", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("        t4 = _ucutlass.conv0(x=_ucutlass.channels_last(t2, True), w=_ucutlass_cached(self, "
                            "\"conv0.w\", t0, lambda: _ucutlass.channels_last(t0, True)), bias=t1)\n"),
            std::string::npos)
      << s.modelnew;
  EXPECT_NE(s.modelnew.find(".with_types(a = bf16, b = bf16, c = void, d = f32, acc = f32)"), std::string::npos);
  // The rounding copy reads 4 bytes and writes 2 per element: 33.6 M elements, 201.3 MB.
  EXPECT_NE(s.modelnew.find("#     layout copies per call (read + write): weight to KRSC (rounded to bf16) cached (once per "
                            "parameter version), activation to channels-last (rounded to bf16) 201.3 MB; total 201.3 MB\n"),
            std::string::npos)
      << s.modelnew;

  // The depthwise conv (sm80 direct convolution) fuses its bias, read as C with stride 0: no PyTorch add
  // over the 268 MB output after it.
  s = best_solution("level1_022_conv2d_depthwise", sol::ToleranceProfile::kernelbench, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find(", bias=t1)"), std::string::npos) << s.modelnew;
  EXPECT_EQ(s.modelnew.find(" + t1.reshape(1, -1, 1, 1)"), std::string::npos) << s.modelnew;
}

TEST(ModelNewWriter, RowKernelsTakeTheProblemsTensorsAndGiveTheOutputsShape) {
  // level1/035: the affine group norm reads x [32, 256, 64, 64] as 1024 rows and writes x's shape; no
  // reshape, positional arguments (host time shows on a 0.1 ms kernel).
  graph::OpGraph g;
  SolutionFiles s = best_solution("level1_035_group_norm", sol::ToleranceProfile::kernelbench, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.dsl.find("kernel row0 = groupnorm(rows = 1024, length = 32768, groups = 32, channel_span = 4096, "
                       "eps = 1.0e-05, affine = on)"),
            std::string::npos)
      << s.dsl;
  EXPECT_NE(s.modelnew.find("        t3 = _ucutlass.row0(t2.contiguous(), t0, t1)\n"), std::string::npos) << s.modelnew;
  EXPECT_NE(s.modelnew.find("1 row kernel(s) (ucutlass's runtime)"), std::string::npos);
  EXPECT_EQ(s.modelnew.find("torch.ops.aten"), std::string::npos);
  EXPECT_EQ(s.modelnew.find("__half"), std::string::npos);  // an fp32 problem's solution holds no fp16 code
  // A reduction with keepdim writes [rows] and views it as the output's [rows, 1].
  graph::OpGraph k;
  std::string err;
  ASSERT_TRUE(graph::load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/level1_030_logsumexp_rows.json", &k, &err)) << err;
  k.nodes[0].args[2] = true;
  k.tensors[k.nodes[0].outputs[0]].shape = {16384, 1};
  map::MatchReport r = map::match_problem(k);
  ASSERT_EQ(r.gemms.size(), 1u);
  const std::vector<search::Candidate> c = search::legal_candidates(r.gemms[0], sol::ToleranceProfile::kernelbench, h200());
  ASSERT_FALSE(c.empty());
  const std::string problem = read_text(std::string(UCUTLASS_SOURCE_DIR) + "/" + k.problem_file);
  SolutionFiles kept = make_solution(problem, k, r.gemms, {c[0].config}, "/opt/cutlass");
  ASSERT_EQ(kept.error, "");
  EXPECT_NE(kept.modelnew.find("t1 = _ucutlass.row0(t0.contiguous()).reshape([16384, 1])"), std::string::npos) << kept.modelnew;
}

TEST(ModelNewWriter, AttentionIsOneCallOverTheProblemsTensors) {
  // level3/005 under 1e-2: its sdpa over the projected q, k, v is one attention kernel call between the
  // QKV and output projections; q, k, v are views, made contiguous for the kernel.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level3_005_transformer_block", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.dsl.find("kernel attn0 = attention(batch = 128, seq_q = 1024, seq_k = 1024, head_dim = 64, scale = 0.125, "
                       "mask = none)"),
            std::string::npos)
      << s.dsl;
  EXPECT_NE(s.modelnew.find("        t33 = _ucutlass.attn0(t30.contiguous(), t31.contiguous(), t32.contiguous())\n"),
            std::string::npos)
      << s.modelnew;
  EXPECT_NE(s.modelnew.find("4 CUTLASS kernel(s), 1 attention kernel(s)."), std::string::npos);
  EXPECT_EQ(s.modelnew.find("torch.ops.aten.scaled_dot_product_attention"), std::string::npos);
  EXPECT_EQ(s.modelnew.find("__half"), std::string::npos);
}

TEST(ModelNewWriter, PythonValues) {
  graph::OpGraph g;
  graph::Tensor t;
  t.id = "t0";
  g.add_tensor(t);
  struct Row {
    nlohmann::json v;
    std::string py;
  };
  const Row rows[] = {{nullptr, "None"},      {true, "True"},          {3, "3"},
                      {0.5, "0.5"},           {2.0, "2.0"},            {"inf", "float(\"inf\")"},
                      {"float32", "torch.float32"}, {"meta", "_device"}, {"torch.strided", "torch.strided"},
                      {"tanh", "\"tanh\""},   {nlohmann::json{{"tensor", "t0"}}, "t0"}, {nlohmann::json::array({1, -1}), "[1, -1]"}};
  for (const Row& r : rows) EXPECT_EQ(python_value(r.v, g), r.py) << r.v.dump();
}

TEST(ModelNewWriter, ChannelSoftmaxOfAConvResultRunsOverTheMovedView) {
  // The conv's result is channels-last in memory: softmax over dim 1 runs as a last-dim softmax over
  // the moved view (channels_last.h). A softmax over a GEMM result's last dim runs as a row kernel.
  graph::OpGraph g;
  SolutionFiles s = best_solution("level2_023_conv_softmax_channels", sol::ToleranceProfile::kernelbench_v01, &g);
  ASSERT_EQ(s.error, "");
  EXPECT_NE(s.modelnew.find("        t4 = torch.ops.aten.softmax.int(t3.movedim(1, -1), -1).movedim(-1, 1)\n"),
            std::string::npos)
      << s.modelnew;
  graph::OpGraph h;
  SolutionFiles gemm = best_solution("level2_010_gemm_softmax", sol::ToleranceProfile::kernelbench_v01, &h);
  ASSERT_EQ(gemm.error, "");
  EXPECT_EQ(gemm.modelnew.find("movedim"), std::string::npos);
  EXPECT_NE(gemm.modelnew.find("        # n1 aten.softmax.int: row kernel row0\n        t4 = _ucutlass.row0(t3.contiguous())\n"),
            std::string::npos)
      << gemm.modelnew;
}

}  // namespace
}  // namespace ucutlass::solution
