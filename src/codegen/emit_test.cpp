// Golden tests: hand-built resolved programs, emitted and compared byte for
// byte with tests/golden/<case>/. UCUTLASS_UPDATE_GOLDEN=1 rewrites them; the
// nvcc compile test (tests/nvcc/run.sh) compiles the same golden files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen/emit.h"
#include "compiler/frontend.h"
#include "ir/canonical.h"

namespace ucutlass::codegen {
namespace {

using namespace ucutlass::ir;

GemmKernel kernel(std::string name, Arch arch, int64_t m, int64_t n, int64_t k) {
  GemmKernel g;
  g.name = std::move(name);
  g.arch.value = arch;
  g.m.value = m;
  g.n.value = n;
  g.k.value = k;
  g.stages.value = 0;
  g.cluster.value = {1, 1, 1};
  g.warps.value = {0, 0, 0};
  g.scheduler.value = TileScheduler::persistent;
  return g;
}

void types(GemmKernel& g, DType a, DType b, DType c, DType d) {
  g.a.value = a;
  g.b.value = b;
  g.c.value = c;
  g.d.value = d;
  g.acc.value = DType::f32;
}

void layouts(GemmKernel& g, Layout a, Layout b, Layout c) {
  g.layout_a.value = a;
  g.layout_b.value = b;
  g.layout_c.value = c;
}

void align(GemmKernel& g, int a, int b, int c) {
  g.align_a.value = a;
  g.align_b.value = b;
  g.align_c.value = c;
}

void schedule(GemmKernel& g, KernelSchedule s, EpilogueSchedule e) {
  g.schedule.value = s;
  g.epilogue_schedule.value = e;
}

EpilogueStep bias(BiasKind kind, DType t = DType::void_) {
  EpilogueStep s;
  s.kind = EpilogueStep::Kind::bias;
  s.bias = kind;
  s.bias_type = t;
  return s;
}

EpilogueStep act(Activation a, double p0 = 0, double p1 = 0) {
  EpilogueStep s;
  s.kind = EpilogueStep::Kind::activation;
  s.act = a;
  s.p0 = p0;
  s.p1 = p1;
  return s;
}

Program sm90_bf16_plain() {
  GemmKernel g = kernel("gemm_bf16", Arch::sm90a, 4096, 4096, 4096);
  types(g, DType::bf16, DType::bf16, DType::bf16, DType::bf16);
  layouts(g, Layout::row, Layout::col, Layout::row);
  g.tile.value = {128, 256, 64};
  g.cluster.value = {2, 1, 1};
  schedule(g, KernelSchedule::cooperative, EpilogueSchedule::tma_cooperative);
  align(g, 8, 8, 8);
  return Program{{g}};
}

Program sm90_tf32_bias_relu() {
  GemmKernel g = kernel("linear_relu", Arch::sm90a, 1024, 8192, 8192);
  types(g, DType::f32, DType::f32, DType::void_, DType::f32);
  layouts(g, Layout::row, Layout::col, Layout::row);
  g.math.value = MathPath::tf32;
  g.tile.value = {128, 128, 32};
  g.cluster.value = {2, 1, 1};
  schedule(g, KernelSchedule::cooperative, EpilogueSchedule::tma);
  align(g, 4, 4, 4);
  g.epilogue = {bias(BiasKind::col), act(Activation::relu)};
  return Program{{g}};
}

Program sm90_fp8_stream_k() {
  GemmKernel g = kernel("fp8_gemm", Arch::sm90a, 0, 0, 0);
  g.batch.value = 1;
  types(g, DType::e4m3, DType::e4m3, DType::void_, DType::bf16);
  layouts(g, Layout::row, Layout::col, Layout::row);
  g.math.value = MathPath::fast_accum;
  g.tile.value = {128, 128, 128};
  g.cluster.value = {1, 2, 1};
  schedule(g, KernelSchedule::cooperative, EpilogueSchedule::tma_cooperative);
  align(g, 16, 16, 8);
  g.scheduler.value = TileScheduler::stream_k;
  return Program{{g}};
}

// Two kernels in one program: a batched pingpong GEMM reading C, and a
// runtime-extent warp-specialized GEMM with the no-smem epilogue.
Program sm90_batched() {
  GemmKernel g = kernel("bmm", Arch::sm90a, 512, 512, 1024);
  g.batch.value = 16;
  types(g, DType::f16, DType::f16, DType::f16, DType::f16);
  layouts(g, Layout::row, Layout::row, Layout::col);
  g.tile.value = {64, 128, 64};
  schedule(g, KernelSchedule::pingpong, EpilogueSchedule::tma_warpspecialized);
  align(g, 8, 8, 8);
  g.raster.value = RasterOrder::along_n;
  g.swizzle.value = 2;
  g.stages.value = 4;
  g.alpha.value = 0.5;
  g.beta.value = 1.0;

  GemmKernel h = kernel("gemm_dynamic", Arch::sm90a, 0, 0, 0);
  types(h, DType::f16, DType::f16, DType::void_, DType::f16);
  layouts(h, Layout::row, Layout::col, Layout::row);
  h.tile.value = {128, 128, 64};
  schedule(h, KernelSchedule::warpspecialized, EpilogueSchedule::nosmem);
  align(h, 8, 8, 8);
  return Program{{g, h}};
}

Program sm80_bf16() {
  GemmKernel g = kernel("ampere_bf16", Arch::sm80, 2048, 2048, 2048);
  types(g, DType::bf16, DType::bf16, DType::bf16, DType::bf16);
  layouts(g, Layout::row, Layout::col, Layout::row);
  g.tile.value = {128, 128, 32};
  g.warps.value = {2, 2, 1};
  g.stages.value = 4;
  schedule(g, KernelSchedule::multistage, EpilogueSchedule::auto_);
  align(g, 8, 8, 8);
  g.swizzle.value = 4;
  g.epilogue = {act(Activation::gelu_tanh)};
  return Program{{g}};
}

Program sm80_tf32x3_split_k() {
  GemmKernel g = kernel("ampere_3xtf32", Arch::sm80, 256, 256, 65536);
  types(g, DType::f32, DType::f32, DType::void_, DType::f32);
  layouts(g, Layout::row, Layout::row, Layout::row);
  g.math.value = MathPath::tf32x3;
  g.tile.value = {128, 128, 16};
  g.warps.value = {2, 2, 1};
  g.stages.value = 4;
  schedule(g, KernelSchedule::multistage, EpilogueSchedule::auto_);
  align(g, 4, 4, 4);
  g.scheduler.value = TileScheduler::split_k;
  g.splits.value = 4;
  return Program{{g}};
}

Program sm90_chain() {
  GemmKernel g = kernel("chain", Arch::sm90a, 0, 4096, 4096);
  types(g, DType::bf16, DType::bf16, DType::bf16, DType::bf16);
  layouts(g, Layout::row, Layout::col, Layout::row);
  g.tile.value = {128, 128, 64};
  g.cluster.value = {1, 2, 1};
  schedule(g, KernelSchedule::cooperative, EpilogueSchedule::tma_cooperative);
  align(g, 8, 8, 8);
  g.scheduler.value = TileScheduler::split_k;
  g.splits.value = 2;
  g.beta.value = 1.0;
  g.epilogue = {bias(BiasKind::row, DType::f32), act(Activation::relu), act(Activation::clamp, -1.5, 6.0),
                act(Activation::leaky_relu, 0.01)};
  return Program{{g}};
}

// Programs taken from examples/: their golden files are exactly what
// `ucutlass build examples/*.dsl` compiles in CI, so the nvcc stage of
// scripts/test compile-tests these golden files too.
Program from_example(const char* name) {
  const std::filesystem::path path = std::filesystem::path(UCUTLASS_SOURCE_DIR) / "examples" / name;
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  FrontendResult r = run_frontend(path.filename().string(), text.str());
  if (!r.ok) throw std::runtime_error(path.string() + " does not pass the front end");
  return r.program;
}

// Every named epilogue step in one sm90a kernel (scalars, vectors, aux load/store).
Program sm90_epilogue_builtins() { return from_example("12_epilogue_builtins.dsl"); }
// custom expressions over x, acc, c and named inputs; batched, column-major C/D.
Program sm90_epilogue_custom() { return from_example("13_epilogue_custom.dsl"); }
// sm80: one element-wise step with our own functor (mish).
Program sm80_epilogue_mish() { return from_example("14_sm80_epilogue.dsl"); }

// Convolutions: sm90a fprop with a fused bias and ReLU, the sm80 implicit GEMM
// (strided dgrad = transposed conv, tf32 wgrad, conv3d), and sm90a dgrad (3D)
// and wgrad (1D) with a scaled epilogue.
Program conv_sm90_fprop_bias_relu() { return from_example("15_conv2d_fprop.dsl"); }
Program conv_sm80() { return from_example("16_conv_sm80.dsl"); }
// A two-GEMM MLP pipeline (up with bias + GELU, down with bias): the pipeline's
// host entry, C entries, torch function and manifest entry beside the kernels'.
Program sm90_mlp_pipeline() { return from_example("17_mlp_pipeline.dsl"); }
// Operand swap: a decode GEMM run as D^T = B^T * A^T on sm90a (bias and per-row scale
// trading axes), and one chosen by `auto`.
Program sm90_operand_swap() { return from_example("19_operand_swap.dsl"); }
// sm80 bias through C with stride 0: GEMM per-column (3xTF32) and per-row (column-major D),
// and an sm80 conv fprop with its per-channel bias.
Program sm80_bias() { return from_example("21_sm80_bias.dsl"); }
// Grouped GEMMs (pointer-array kernels over a GroupProblemShape): the example's MoE
// experts (cooperative, dynamic m and group count, SiLU through the EVT), and a
// pingpong f16 kernel that reads C (beta), with every extent per group.
Program sm90_grouped_gemm() { return from_example("18_grouped_gemm.dsl"); }
// Fused reductions: per-row max and sum (Sm90ColReduction) of a batched softmax tail, per-column
// sum and max (Sm90RowReduction) of a linear layer; outputs in f32 and bf16.
Program sm90_row_reductions() { return from_example("22_gemm_row_reductions.dsl"); }
// f32 data on bf16 tensor cores: a bf16 kernel writing f32, whose C API and binding carry the
// 3xBF16 split (codegen/tf32_split.h) beside the TF32 one's shared kernels.
Program sm90_bf16_split() { return from_example("23_f32_data_on_bf16.dsl"); }
Program sm90_grouped_source() {
  FrontendResult r = run_frontend("sm90_grouped_source.dsl",
                                  "kernel grouped_axpby = gemm(groups = dynamic)\n"
                                  "  .with_types(f16)\n"
                                  "  .with_tile(64, 128, 64)\n"
                                  "  .with_schedule(pingpong)\n"
                                  "  .with_epilogue(beta(1.0))\n");
  if (!r.ok) throw std::runtime_error("sm90_grouped_source does not pass the front end");
  return r.program;
}
Program conv_sm90_dgrad_wgrad() {
  FrontendResult r = run_frontend(
      "conv_sm90_dgrad_wgrad.dsl",
      "kernel grad_input_3d = conv3d(dgrad, n = 2, d = 8, h = 16, w = 16, c = 32, k = 64, t = 3, r = 3, s = 3, pad = 1)\n"
      "  .with_types(bf16)\n"
      "kernel grad_filter_1d = conv1d(wgrad, n = 8, w = 1000, c = 64, k = 128, s = 5, pad = 2)\n"
      "  .with_types(f16)\n"
      "  .with_epilogue(scale(0.5))\n");
  if (!r.ok) throw std::runtime_error("conv_sm90_dgrad_wgrad does not pass the front end");
  return r.program;
}

// sm80 grouped fprop: 64 output channels per group (one group per CTA, optimized iterators) and
// 4 per group (16 groups per 64-wide tile, analytic iterators).
Program conv_sm80_grouped() {
  FrontendResult r = run_frontend(
      "conv_sm80_grouped.dsl",
      "kernel grouped_single = conv2d(fprop, n = 4, h = 56, w = 56, c = 128, k = 128, r = 3, s = 3, pad = 1, groups = 2)\n"
      "  .with_arch(sm80)\n"
      "  .with_types(bf16)\n"
      "kernel grouped_multiple = conv2d(fprop, n = 4, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1, groups = 16)\n"
      "  .with_arch(sm80)\n"
      "  .with_types(f32)\n"
      "  .with_epilogue(relu)\n");
  if (!r.ok) throw std::runtime_error("conv_sm80_grouped does not pass the front end");
  return r.program;
}

// sm80 depthwise (groups = c = k): CUTLASS's direct convolution. The level1/022 shape in f32 with
// auto settings, and f16 with a dynamic batch, stride 2, an explicit 4x8 output tile of 32 channels,
// C read (beta) and ReLU.
Program conv_sm80_depthwise() {
  FrontendResult r = run_frontend(
      "conv_sm80_depthwise.dsl",
      "kernel depthwise = conv2d(fprop, n = 32, h = 64, w = 64, c = 512, k = 512, r = 3, s = 3, pad = 1, groups = 512)\n"
      "  .with_arch(sm80)\n"
      "  .with_types(f32)\n"
      "kernel depthwise_strided = conv2d(fprop, n = dynamic, h = 56, w = 56, c = 256, k = 256, r = 3, s = 3, pad = 1,\n"
      "                                  stride = 2, groups = 256)\n"
      "  .with_arch(sm80)\n"
      "  .with_types(f16)\n"
      "  .with_tile(32, 32, 9)\n"
      "  .with_warps(2, 1, 1)\n"
      "  .with_epilogue(beta(1.0), relu)\n");
  if (!r.ok) throw std::runtime_error("conv_sm80_depthwise does not pass the front end");
  return r.program;
}

// GEMV through CUTLASS's SIMT Gemv: level1/016 on auto levers (32-byte loads, a warp per row), and a
// batched bf16 one with f32 output, alpha and beta (C read), on every lever.
Program sm80_gemv() {
  FrontendResult r = run_frontend("sm80_gemv.dsl",
                                  "kernel gemv_f32 = gemv(m = 4096, k = 32768)\n"
                                  "  .with_types(f32)\n"
                                  "kernel gemv_batched = gemv(m = 2048, k = 4096, batch = 8)\n"
                                  "  .with_types(a = bf16, b = bf16, c = f32, d = f32)\n"
                                  "  .with_gemv(access = 8, threads_per_row = 16, threads = 128)\n"
                                  "  .with_epilogue(alpha(2.0), beta(1.0))\n");
  if (!r.ok) throw std::runtime_error("sm80_gemv does not pass the front end");
  return r.program;
}

// sm80 strided conv3d dgrad: CUTLASS 4.2 has it with analytic iterators only.
Program conv_sm80_dgrad3d_strided() {
  FrontendResult r = run_frontend(
      "conv_sm80_dgrad3d_strided.dsl",
      "kernel grad_input = conv3d(dgrad, n = 2, d = 16, h = 32, w = 32, c = 32, k = 64, t = 3, r = 3, s = 3, pad = 1,\n"
      "                           stride = 2)\n"
      "  .with_arch(sm80)\n"
      "  .with_types(f16)\n");
  if (!r.ok) throw std::runtime_error("conv_sm80_dgrad3d_strided does not pass the front end");
  return r.program;
}

// Row kernels (ucutlass's runtime, not a CUTLASS template): level1/028's softmax on auto levers,
// level1/035's affine group norm, a long-row argmax of bf16 split over CTAs (two launches and a
// workspace), and a bf16 layer norm writing f32 on every lever.
Program sm90_row_kernels() {
  FrontendResult r = run_frontend("sm90_row_kernels.dsl",
                                  "kernel softmax_rows = softmax(rows = 16384, length = 16384)\n"
                                  "  .with_types(f32)\n"
                                  "kernel group_norm = groupnorm(rows = 1024, length = 32768, groups = 32, "
                                  "channel_span = 4096, eps = 1e-5, affine = on)\n"
                                  "  .with_types(f32)\n"
                                  "kernel argmax_long = argmax(rows = 64, length = 1048576)\n"
                                  "  .with_types(bf16)\n"
                                  "kernel layer_norm = layernorm(rows = 4096, length = 4096, eps = 1e-6)\n"
                                  "  .with_types(a = bf16, d = f32)\n"
                                  "  .with_rows(access = 4, threads = 256, items = 4, splits = 1)\n");
  if (!r.ok) throw std::runtime_error("sm90_row_kernels does not pass the front end: " + r.diags->render());
  return r.program;
}

// Fused attention (ucutlass's runtime): level3/003's sdpa on auto levers (split scores), level3/004's
// explicit form with a bool mask tensor on every lever (bf16 scores).
Program sm90_attention() {
  FrontendResult r = run_frontend("sm90_attention.dsl",
                                  "kernel sdpa = attention(batch = 512, seq_q = 1024, seq_k = 1024, head_dim = 128)\n"
                                  "  .with_types(f32)\n"
                                  "kernel causal_explicit = attention(batch = 128, seq_q = 2048, seq_k = 2048, "
                                  "head_dim = 64, scale = 0.125, mask = tensor)\n"
                                  "  .with_types(f32)\n"
                                  "  .with_attention(block_q = 128, block_k = 64, scores = bf16)\n");
  if (!r.ok) throw std::runtime_error("sm90_attention does not pass the front end: " + r.diags->render());
  return r.program;
}

struct GoldenCase {
  const char* name;
  Program (*make)();
};

const GoldenCase kCases[] = {
    {"sm90_bf16_plain", sm90_bf16_plain},   {"sm90_tf32_bias_relu", sm90_tf32_bias_relu},
    {"sm90_fp8_stream_k", sm90_fp8_stream_k}, {"sm90_batched", sm90_batched},
    {"sm80_bf16", sm80_bf16},               {"sm80_tf32x3_split_k", sm80_tf32x3_split_k},
    {"sm90_chain", sm90_chain},
    {"sm90_epilogue_builtins", sm90_epilogue_builtins},
    {"sm90_epilogue_custom", sm90_epilogue_custom},
    {"sm80_epilogue_mish", sm80_epilogue_mish},
    {"conv_sm90_fprop_bias_relu", conv_sm90_fprop_bias_relu},
    {"conv_sm80", conv_sm80},
    {"conv_sm90_dgrad_wgrad", conv_sm90_dgrad_wgrad},
    {"conv_sm80_grouped", conv_sm80_grouped},
    {"conv_sm80_dgrad3d_strided", conv_sm80_dgrad3d_strided},
    {"conv_sm80_depthwise", conv_sm80_depthwise},
    {"sm90_mlp_pipeline", sm90_mlp_pipeline},
    {"sm90_operand_swap", sm90_operand_swap},
    {"sm80_bias", sm80_bias},
    {"sm90_grouped_gemm", sm90_grouped_gemm},
    {"sm90_grouped_source", sm90_grouped_source},
    {"sm90_row_reductions", sm90_row_reductions},
    {"sm90_bf16_split", sm90_bf16_split},
    {"sm80_gemv", sm80_gemv},
    {"sm90_row_kernels", sm90_row_kernels},
    {"sm90_attention", sm90_attention},
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "" when equal, else the first differing line of each.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream w(want), g(got);
  std::string lw, lg;
  for (int line = 1;; ++line) {
    bool hw = static_cast<bool>(std::getline(w, lw));
    bool hg = static_cast<bool>(std::getline(g, lg));
    if (!hw && !hg) return want == got ? "" : "files differ only in the final newline";
    if (!hw || !hg || lw != lg)
      return "line " + std::to_string(line) + ":\n  golden:  " + (hw ? lw : "<end of file>") +
             "\n  emitted: " + (hg ? lg : "<end of file>");
  }
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, MatchesFiles) {
  const GoldenCase& c = GetParam();
  const Program p = c.make();
  const std::vector<EmittedFile> files = emit_program(p, program_hash(p));
  const std::filesystem::path dir = std::filesystem::path(UCUTLASS_SOURCE_DIR) / "tests/golden" / c.name;
  const char* update = std::getenv("UCUTLASS_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const EmittedFile& f : files) std::ofstream(dir / f.name, std::ios::binary) << f.text;
    return;
  }
  ASSERT_EQ(files.size(), 4u);
  for (const EmittedFile& f : files) {
    ASSERT_TRUE(std::filesystem::exists(dir / f.name))
        << dir / f.name << " is missing; run with UCUTLASS_UPDATE_GOLDEN=1 to create it";
    const std::string diff = first_difference(read_file(dir / f.name), f.text);
    EXPECT_EQ(diff, "") << c.name << "/" << f.name << " differs at " << diff
                        << "\n(UCUTLASS_UPDATE_GOLDEN=1 rewrites the golden files)";
  }
}

INSTANTIATE_TEST_SUITE_P(Codegen, Golden, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Codegen, Deterministic) {
  for (const GoldenCase& c : kCases) {
    const Program p = c.make();
    const auto first = emit_program(p, program_hash(p));
    const auto second = emit_program(c.make(), program_hash(c.make()));
    ASSERT_EQ(first.size(), second.size());
    for (size_t i = 0; i < first.size(); ++i) {
      EXPECT_EQ(first[i].name, second[i].name);
      EXPECT_EQ(first[i].text, second[i].text) << c.name << "/" << first[i].name;
    }
  }
}

TEST(Codegen, FileNamesUseTheHash) {
  const Program p = sm90_bf16_plain();
  const std::string hash = program_hash(p);
  const auto files = emit_program(p, hash);
  EXPECT_EQ(files[0].name, "ucutlass_" + hash + ".h");
  EXPECT_EQ(files[1].name, "ucutlass_" + hash + "_capi.cu");
  EXPECT_EQ(files[2].name, "ucutlass_" + hash + "_torch.cpp");
  EXPECT_EQ(files[3].name, "ucutlass_" + hash + ".json");
  EXPECT_NE(files[0].text.find("namespace ucutlass_" + hash + " {"), std::string::npos);
  EXPECT_EQ(files[0].text.find("using namespace cute"), std::string::npos);
}

TEST(Codegen, PerColumnBiasIsARowBroadcast) {
  const Program p = sm90_tf32_bias_relu();
  const std::string h = emit_header(p, program_hash(p));
  EXPECT_NE(h.find("Sm90RowBroadcast"), std::string::npos);
  EXPECT_EQ(h.find("Sm90ColBroadcast"), std::string::npos);
  EXPECT_EQ(h.find("Sm90SrcFetch"), std::string::npos) << "C is void: no source fetch";
}

TEST(Codegen, EpilogueFunctionsOnlyWhenUsed) {
  const Program plain = sm90_bf16_plain();
  EXPECT_EQ(emit_header(plain, program_hash(plain)).find("namespace epilogue_fn"), std::string::npos);
  const Program custom = sm90_epilogue_custom();
  EXPECT_NE(emit_header(custom, program_hash(custom)).find("namespace epilogue_fn"), std::string::npos);
}

TEST(Codegen, AuxStoreArgumentsGoToTheNodeItself) {
  // Sm90EVT<AuxStore, Child> keeps the child in op_0 and the store's own arguments in op_1.
  const Program p = sm90_epilogue_builtins();
  const std::string h = emit_header(p, program_hash(p));
  EXPECT_NE(h.find("fusion.op_0.op_1.ptr_aux = static_cast<cutlass::bfloat16_t*>(p.extra[7]);"), std::string::npos);
}

TEST(Codegen, ReductionsAreNamedByTheVectorTheyWrite) {
  // A per-row result (an M vector) is CUTLASS's column reduction, a per-column one its row reduction.
  FrontendResult r = run_frontend("t.dsl",
                                  "kernel k = gemm(m = 256, n = 512, k = 64).with_types(bf16)"
                                  ".with_epilogue(row_sum, col_max)");
  ASSERT_TRUE(r.ok);
  const std::string h = emit_header(r.program, program_hash(r.program));
  EXPECT_NE(h.find("using EvtReduce_row_sum = cutlass::epilogue::fusion::Sm90EVT<\n"
                   "    cutlass::epilogue::fusion::Sm90ColReduction<\n"
                   "        cutlass::plus, cutlass::plus, cutlass::plus, 0, TileShape, float, ElementCompute,"),
            std::string::npos);
  EXPECT_NE(h.find("cutlass::epilogue::fusion::Sm90RowReduction<\n        cutlass::maximum_with_nan_propagation"),
            std::string::npos);
  EXPECT_NE(h.find("fusion.op_1.reduction_identity = -cutlass::platform::numeric_limits<ElementCompute>::infinity();"),
            std::string::npos);
  EXPECT_NE(h.find("resolved.extra_batch_stride[0] = p.extra_batch_stride[0] != 0 ? p.extra_batch_stride[0] : p.m;"),
            std::string::npos);
  EXPECT_NE(h.find("resolved.extra_batch_stride[1] = p.extra_batch_stride[1] != 0 ? p.extra_batch_stride[1] : p.n;"),
            std::string::npos);
}

TEST(Codegen, SwappedReductionsTradeAxes) {
  // Run as D^T = B^T * A^T, the program's rows are the kernel's columns: row_sum becomes a row reduction.
  FrontendResult r = run_frontend("t.dsl",
                                  "kernel k = gemm(m = 16, n = 4096, k = 4096).with_types(bf16)"
                                  ".with_operand_swap(on).with_tile(128, 16, 128).with_epilogue(row_sum)");
  ASSERT_TRUE(r.ok);
  const std::string h = emit_header(r.program, program_hash(r.program));
  EXPECT_NE(h.find("Sm90RowReduction<"), std::string::npos);
  EXPECT_EQ(h.find("Sm90ColReduction<"), std::string::npos);
  EXPECT_NE(h.find(": p.m;"), std::string::npos) << "the vector's length is still the program's M";
}

TEST(Codegen, Sm80RejectsTwoActivations) {
  Program p = sm80_bf16();
  p.kernels[0].epilogue.push_back(act(Activation::relu));
  EXPECT_THROW(emit_program(p, program_hash(p)), std::invalid_argument);
}

}  // namespace
}  // namespace ucutlass::codegen
