// Workspace layout of pipeline intermediates: packed at 256-byte offsets, and
// reused once a tensor's last reader has run.
#include <gtest/gtest.h>

#include "codegen/pipeline_host_entry.h"
#include "compiler/frontend.h"

namespace ucutlass::codegen {
namespace {

// Four square bf16 steps: h1 -> h2 -> h3 -> y, each 64 x 64 x 2 bytes = 8192 bytes.
const char* kChain =
    "kernel k = gemm(m = 64, n = 64, k = 64).with_types(bf16)\n"
    "pipeline chain = inputs(x, w)\n"
    "  .k(a = x, b = w, d = h1)\n"
    "  .k(a = h1, b = w, d = h2)\n"
    "  .k(a = h2, b = w, d = h3)\n"
    "  .k(a = h3, b = w, d = y)\n"
    "  .outputs(y)\n";

TEST(PipelineLayout, ReusesMemoryOfDeadIntermediates) {
  FrontendResult r = run_frontend("t.dsl", kChain);
  ASSERT_TRUE(r.ok) << r.diags->render();
  const ir::Pipeline& pipe = r.program.pipelines.at(0);
  const PipelineLayout layout = pipeline_layout(r.program, pipe);
  std::vector<long long> offsets;
  for (size_t t = 0; t < pipe.tensors.size(); ++t)
    if (pipe.tensors[t].role == ir::PipelineTensor::Role::intermediate) offsets.push_back(layout.offset[t]);
  // h1 is dead once step 2 has read it, so h3 (written by step 3) takes its place.
  EXPECT_EQ(offsets, (std::vector<long long>{0, 8192, 0}));
  EXPECT_EQ(layout.bytes, 16384);
}

TEST(PipelineLayout, ATensorReadLaterKeepsItsMemory) {
  // h1 is read again by the last step, so nothing may overwrite it before then.
  FrontendResult r = run_frontend("t.dsl",
                                  "kernel k = gemm(m = 64, n = 64, k = 64).with_types(bf16)\n"
                                  "kernel r = gemm(m = 64, n = 64, k = 64).with_types(bf16).with_epilogue(residual)\n"
                                  "pipeline chain = inputs(x, w)\n"
                                  "  .k(a = x, b = w, d = h1)\n"
                                  "  .k(a = h1, b = w, d = h2)\n"
                                  "  .k(a = h2, b = w, d = h3)\n"
                                  "  .r(a = h3, b = w, residual = h1, d = y)\n"
                                  "  .outputs(y)\n");
  ASSERT_TRUE(r.ok) << r.diags->render();
  const PipelineLayout layout = pipeline_layout(r.program, r.program.pipelines.at(0));
  EXPECT_EQ(layout.bytes, 3 * 8192);
}

}  // namespace
}  // namespace ucutlass::codegen
