// Operand swap: the transposition, what `auto` chooses, the legality of a
// swapped kernel (checked as it runs, with the note that says so) and what the
// host entry hands CUTLASS.
#include <gtest/gtest.h>

#include "codegen/host_entry.h"
#include "compiler/frontend.h"
#include "ir/canonical.h"
#include "ir/operand_swap.h"

namespace ucutlass::ir {
namespace {

const GemmKernel& only_kernel(const FrontendResult& r) {
  EXPECT_TRUE(r.ok) << r.diags->render();
  EXPECT_EQ(r.program.kernels.size(), 1u);
  return r.program.kernels.at(0);
}

constexpr const char* kDecode = "kernel k = gemm(m = 16, n = 8192, k = 4096).with_types(bf16)";

TEST(OperandSwap, TransposedTradesOperandsAxesAndBroadcasts) {
  FrontendResult r = run_frontend(
      "t.dsl", "kernel k = gemm(m = 16, n = 8192, k = 4096)"
               ".with_types(a = e4m3, b = e5m2, d = bf16).with_layouts(a = row, b = col, c = col)"
                   ".with_epilogue(bias(col), mul(row), add(col))");
  GemmKernel k = only_kernel(r);
  GemmKernel t = transposed(k);
  EXPECT_EQ(t.m.value, 8192);
  EXPECT_EQ(t.n.value, 16);
  EXPECT_EQ(t.a.value, DType::e5m2);
  EXPECT_EQ(t.b.value, DType::e4m3);
  // B^T of a column-major (K-major) K x N B is a row-major N x K matrix, K-major still;
  // A^T of a row-major A, as the kernel's B (N, K) = (M, K), is column-major: K-major too.
  EXPECT_EQ(t.layout_a.value, Layout::row);
  EXPECT_EQ(t.layout_b.value, Layout::col);
  EXPECT_EQ(t.layout_c.value, Layout::row);
  EXPECT_EQ(t.align_a.value, k.align_b.value);
  EXPECT_EQ(t.epilogue.at(0).bias, BiasKind::row);
  EXPECT_EQ(t.extras.at(0).kind, ExtraKind::col);
  EXPECT_EQ(t.extras.at(1).kind, ExtraKind::row);
  EXPECT_EQ(t.tile.value, k.tile.value);  // the tile is the kernel's, never transposed
  EXPECT_EQ(canonical_text(transposed(t)), canonical_text(k));
}

TEST(OperandSwap, AutoSwapsOnlySmallMWideNOnSm90) {
  auto swap_of = [](const std::string& program) {
    FrontendResult r = run_frontend("t.dsl", program);
    return only_kernel(r).operand_swap.value;
  };
  EXPECT_EQ(swap_of(std::string(kDecode) + ".with_operand_swap(auto)"), OperandSwap::on);
  EXPECT_EQ(swap_of("kernel k = gemm(m = 64, n = 8192, k = 4096).with_types(bf16).with_operand_swap(auto)"),
            OperandSwap::off);
  EXPECT_EQ(swap_of("kernel k = gemm(m = 16, n = 24, k = 4096).with_types(bf16).with_operand_swap(auto)"),
            OperandSwap::off);
  EXPECT_EQ(swap_of("kernel k = gemm(m = dynamic, n = 8192, k = 4096).with_types(bf16).with_operand_swap(auto)"),
            OperandSwap::off);
  EXPECT_EQ(swap_of(std::string(kDecode) + ".with_arch(sm80).with_operand_swap(auto)"), OperandSwap::off);
  EXPECT_EQ(swap_of(kDecode), OperandSwap::off);  // saying nothing never swaps
}

TEST(OperandSwap, AutoSettingsAreChosenForTheKernelAsRun) {
  FrontendResult r = run_frontend("t.dsl", std::string(kDecode) + ".with_operand_swap(on)");
  const GemmKernel& k = only_kernel(r);
  // As run, M = 8192 and N = 16: a 128-row cooperative tile, 16 wide.
  EXPECT_EQ(k.tile.value, (Shape3{128, 16, 64}));
  EXPECT_EQ(k.schedule.value, KernelSchedule::cooperative);
  EXPECT_NE(canonical_text(k).find("  operand_swap=on\n"), std::string::npos);
  FrontendResult plain = run_frontend("t.dsl", kDecode);
  EXPECT_EQ(canonical_text(only_kernel(plain)).find("operand_swap"), std::string::npos);
  EXPECT_NE(r.hash, plain.hash);
}

TEST(OperandSwap, LegalityIsTheKernelAsRunWithANote) {
  // Unswapped, a 16-row tile M is illegal; swapped, tile (128, 16) is the kernel's and legal.
  EXPECT_TRUE(run_frontend("t.dsl", std::string(kDecode) + ".with_operand_swap(on).with_tile(128, 16, 64)").ok);
  FrontendResult r = run_frontend("t.dsl", std::string(kDecode) + ".with_operand_swap(on).with_tile(16, 128, 64)");
  ASSERT_FALSE(r.ok);
  ASSERT_EQ(r.diags->all().size(), 1u);
  const Diagnostic& d = r.diags->all()[0];
  EXPECT_EQ(d.message, "tile M = 16 is not a multiple of 64 in [64, 256]");
  EXPECT_EQ(d.hint, std::string(kOperandSwapNote));
  EXPECT_EQ(r.diags->render(),
            "t.dsl:1:84: error: tile M = 16 is not a multiple of 64 in [64, 256]\n"
            "  kernel k = gemm(m = 16, n = 8192, k = 4096).with_types(bf16).with_operand_swap(on)"
            ".with_tile(16, 128, 64)\n" +
                std::string(85, ' ') + "^~~~~~~~~~~~~~~~~~~~~~\n"
                "  legal: 64, 128, 192, 256\n"
                "  hint: with_operand_swap(on) runs D^T = B^T * A^T: this kernel's A is the program's B, its M is "
                "the program's N\n");
}

TEST(OperandSwap, ExactDiagnostics) {
  auto messages = [](const std::string& program) {
    FrontendResult r = run_frontend("t.dsl", program);
    std::vector<std::string> out;
    for (const Diagnostic& d : r.diags->all()) out.push_back(d.message + " | " + d.legal);
    return out;
  };
  EXPECT_EQ(messages("kernel k = conv2d(fprop, n = 8, h = 56, w = 56, c = 64, k = 64, r = 3, s = 3, pad = 1)"
                     ".with_types(bf16).with_operand_swap(on)"),
            std::vector<std::string>{"with_operand_swap applies to GEMM kernels, not to a convolution | "
                                     "with_operand_swap(off) (or remove it) for fprop convolutions"});
  EXPECT_EQ(messages("kernel k = gemm(m = dynamic, n = 4096, k = 4096, groups = 8).with_types(bf16)"
                     ".with_operand_swap(on)"),
            std::vector<std::string>{"with_operand_swap is not supported on grouped GEMMs in this version | "
                                     "with_operand_swap(off) (or remove it) for a grouped GEMM"});
  EXPECT_EQ(messages(std::string(kDecode) + ".with_arch(sm80).with_operand_swap(on)"),
            std::vector<std::string>{"sm80 GEMMs cannot be swapped: CUTLASS 2.x runs a column-major output as the "
                                     "transposed problem, which undoes the swap | with_operand_swap(off) on sm80"});
  EXPECT_EQ(messages(std::string(kDecode) + ".with_operand_swap(yes)"),
            std::vector<std::string>{"unknown operand swap 'yes' | off, on, auto"});
  // The swapped kernel's A is the program's B: tf32 needs it K-major, so a row-major B is named as A.
  EXPECT_EQ(messages("kernel k = gemm(m = 16, n = 8192, k = 4096).with_types(f32).with_layouts(b = row)"
                     ".with_operand_swap(on)"),
            std::vector<std::string>{"f32 WGMMA reads both operands K-major; A is column-major (M-major) | "
                                     "with_layouts(a = row, b = col) for f32 on sm90a"});
}

TEST(OperandSwap, HostEntryHandsTheSwappedProblemToCutlass) {
  FrontendResult r = run_frontend("t.dsl", std::string(kDecode) + ".with_operand_swap(on)");
  const std::string args = codegen::emit_make_arguments(only_kernel(r));
  EXPECT_NE(args.find("cute::make_shape(p.n, p.m, p.k, p.batch)"), std::string::npos) << args;
  EXPECT_NE(args.find("ptr_A)>(p.b)"), std::string::npos) << args;
  EXPECT_NE(args.find("ptr_B)>(p.a)"), std::string::npos) << args;
  // The checks keep the program's view; the program's A is checked against the kernel's B alignment.
  EXPECT_NE(args.find("detail::Operand a{\"A\", p.a, true, p.m, p.k, p.lda, p.batch_stride_a, AlignmentB"),
            std::string::npos)
      << args;
  // A row-major D is, as D^T, unit-stride along the kernel's M.
  EXPECT_NE(args.find("args.epilogue.dD = cute::make_stride(cute::Int<1>{}, d.ld, d.batch_stride);"),
            std::string::npos)
      << args;
}

}  // namespace
}  // namespace ucutlass::ir
