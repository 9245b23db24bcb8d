// What the emitter puts into a row kernel's files beyond the golden case (tests/golden/sm90_row_kernels).
#include "codegen/row_kernels.h"

#include <gtest/gtest.h>

#include "codegen/emit.h"
#include "compiler/frontend.h"

namespace ucutlass::codegen {
namespace {

std::string header_of(const std::string& dsl) {
  FrontendResult r = run_frontend("t.dsl", dsl);
  EXPECT_TRUE(r.ok) << r.diags->render();
  return emit_header(r.program, r.hash);
}

// KernelBench's static checker rejects fp16 text in an fp32 problem's solution, and the solution
// carries the header: f32 and bf16 row kernels emit no half-precision code at all.
TEST(RowKernels, HalfPrecisionCodeOnlyForF16Data) {
  const std::string f32 = header_of("kernel s = softmax(rows = 64, length = 4096).with_types(f32)\n"
                                    "kernel l = layernorm(rows = 64, length = 4096).with_types(a = bf16, d = f32)\n");
  EXPECT_EQ(f32.find("__half"), std::string::npos);
  EXPECT_EQ(f32.find("float2half"), std::string::npos);
  EXPECT_EQ(f32.find("cuda_fp16.h"), std::string::npos);
  const std::string f16 = header_of("kernel s = softmax(rows = 64, length = 4096).with_types(f16)\n");
  EXPECT_NE(f16.find("struct ElementConvert<__half>"), std::string::npos);
  // argmax writes int64 whatever d says; its f16 input still needs the conversion.
  EXPECT_NE(header_of("kernel a = argmax(rows = 64, length = 4096).with_types(f16)\n").find("ElementConvert<__half>"),
            std::string::npos);
}

// The fixed extents and the workspace rule are the host entry's checks; splits > 1 sizes a workspace.
TEST(RowKernels, HostEntryChecksExtentsAndSizesTheWorkspace) {
  const std::string h = header_of("kernel s = softmax(rows = 64, length = 1048576).with_types(f32)\n");
  EXPECT_NE(h.find("constexpr long long kRows = 64, kLength = 1048576;"), std::string::npos);
  EXPECT_NE(h.find("constexpr int kSplits = 32;"), std::string::npos);
  EXPECT_NE(h.find("but the kernel was compiled for %lld rows of %lld"), std::string::npos);
  EXPECT_NE(h.find("ucutlass_rows::RowKernel<ucutlass_rows::RowOp::softmax, float, float, 512, 4, 16>"),
            std::string::npos);
}

}  // namespace
}  // namespace ucutlass::codegen
