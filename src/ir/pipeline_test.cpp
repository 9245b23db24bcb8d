// Pipelines: the data-flow and tensor-type rules, each with its exact
// rendered diagnostic (FILE:LINE:COL, the line, the caret, legal, hint).
#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "ir/canonical.h"

namespace ucutlass {
namespace {

// Two bf16 kernels that chain: up [64, 256] = x [64, 128] . w1, down [64, 128] = h [64, 256] . w2.
const std::string kKernels =
    "kernel up = gemm(m = 64, n = 256, k = 128).with_types(bf16).with_epilogue(bias(col), gelu)\n"
    "kernel down = gemm(m = 64, n = 128, k = 256).with_types(bf16).with_epilogue(bias(col))\n";

std::string diagnostics_of(const std::string& pipeline, const std::string& kernels = kKernels) {
  FrontendResult r = run_frontend("t.dsl", kernels + pipeline);
  return r.diags->render();
}

TEST(Pipeline, MlpIsLegal) {
  FrontendResult r = run_frontend("t.dsl", kKernels +
                                               "pipeline mlp = inputs(x, w1, b1, w2, b2)\n"
                                               "  .up(a = x, b = w1, bias = b1, d = h)\n"
                                               "  .down(a = h, b = w2, bias = b2, d = y)\n"
                                               "  .outputs(y)\n");
  ASSERT_TRUE(r.ok) << r.diags->render();
  ASSERT_EQ(r.program.pipelines.size(), 1u);
  const ir::Pipeline& p = r.program.pipelines[0];
  ASSERT_EQ(p.tensors.size(), 7u);
  EXPECT_EQ(p.tensors[5].name, "h");
  EXPECT_EQ(p.tensors[5].role, ir::PipelineTensor::Role::intermediate);
  EXPECT_EQ(p.tensors[5].producer, 0);
  EXPECT_EQ(p.tensors[6].role, ir::PipelineTensor::Role::output);
  const ir::TensorType h = ir::tensor_type(r.program, p, 5);
  EXPECT_EQ(h.shape_text(), "[64, 256]");
  EXPECT_EQ(h.dtype, ir::DType::bf16);
  EXPECT_NE(ir::canonical_text(r.program).find("pipeline mlp\n  inputs=x,w1,b1,w2,b2\n"
                                               "  step=up,a=x,b=w1,bias=b1,d=h\n"
                                               "  step=down,a=h,b=w2,bias=b2,d=y\n  outputs=y\n"),
            std::string::npos);
}

TEST(Pipeline, UnknownKernel) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w).upp(a = x, b = w, d = y).outputs(y)\n"),
            "t.dsl:3:27: error: unknown kernel 'upp' in pipeline 'p'\n"
            "  pipeline p = inputs(x, w).upp(a = x, b = w, d = y).outputs(y)\n"
            "                            ^~~\n"
            "  legal: a kernel declared in this program: up, down\n"
            "  hint: did you mean 'up'?\n");
}

TEST(Pipeline, UnknownOperandAndUnboundBias) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w)\n  .down(a = x, b = w, d = y, e = x)\n  .outputs(y)\n"),
            "t.dsl:4:30: error: kernel 'down' has no operand 'e'\n"
            "    .down(a = x, b = w, d = y, e = x)\n"
            "                               ^\n"
            "  legal: operands of down: a, b, d, bias\n"
            "  hint: did you mean 'a'?\n"
            "t.dsl:4:4: error: kernel 'down' needs its operand 'bias' bound\n"
            "    .down(a = x, b = w, d = y, e = x)\n"
            "     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
            "  legal: operands of down: a, b, d, bias\n"
            "  hint: add bias = TENSOR to the call\n");
}

TEST(Pipeline, ShapeMismatch) {
  // down reads x [64, 128] as A, but its A is [64, 256] (M x K).
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w1, b1, w2, b2)\n"
                           "  .up(a = x, b = w1, bias = b1, d = h)\n"
                           "  .down(a = x, b = w2, bias = b2, d = y)\n"
                           "  .outputs(h, y)\n"),
            "t.dsl:5:9: error: shape mismatch: 'x' is [64, 128] (A of up, line 4) but A of down is [64, 256]\n"
            "    .down(a = x, b = w2, bias = b2, d = y)\n"
            "          ^~~~~\n"
            "  legal: A of down must be [64, 128] to bind 'x'\n"
            "  hint: change the extents of down or of the kernel that fixes 'x'\n");
}

TEST(Pipeline, BatchMismatch) {
  const std::string kernels =
      "kernel up = gemm(m = 64, n = 256, k = 128, batch = 2).with_types(bf16)\n"
      "kernel down = gemm(m = 64, n = 128, k = 256).with_types(bf16)\n";
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y)"
                           ".outputs(y)\n",
                           kernels),
            "t.dsl:3:62: error: shape mismatch: 'h' is [2, 64, 256] (D of up, line 3) but A of down is [64, 256]\n"
            "  pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y).outputs(y)\n"
            "                                                               ^~~~~\n"
            "  legal: A of down must be [2, 64, 256] to bind 'h'\n"
            "  hint: change the extents of down or of the kernel that fixes 'h'\n");
}

TEST(Pipeline, DtypeMismatch) {
  const std::string kernels =
      "kernel up = gemm(m = 64, n = 256, k = 128).with_types(bf16)\n"
      "kernel down = gemm(m = 64, n = 128, k = 256).with_types(f16)\n";
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y)"
                           ".outputs(y)\n",
                           kernels),
            "t.dsl:3:62: error: element type mismatch: 'h' is bf16 (D of up, line 3) but A of down is f16\n"
            "  pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y).outputs(y)\n"
            "                                                               ^~~~~\n"
            "  legal: A of down must be bf16 to bind 'h'\n"
            "  hint: with_types(a = ...) on down\n");
}

TEST(Pipeline, LayoutMismatch) {
  const std::string kernels =
      "kernel up = gemm(m = 64, n = 256, k = 128).with_types(bf16)\n"
      "kernel down = gemm(m = 64, n = 128, k = 256).with_types(bf16).with_layouts(a = col)\n";
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y)"
                           ".outputs(y)\n",
                           kernels),
            "t.dsl:3:62: error: layout mismatch: 'h' is row-major (D of up, line 3) but A of down is column-major\n"
            "  pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y).outputs(y)\n"
            "                                                               ^~~~~\n"
            "  legal: A of down must be row-major to bind 'h'\n"
            "  hint: with_layouts(a = ...) on down\n");
}

const std::string kPlain =
    "kernel up = gemm(m = 64, n = 64, k = 64).with_types(bf16)\n"
    "kernel down = gemm(m = 64, n = 64, k = 64).with_types(bf16)\n";

TEST(Pipeline, ReadBeforeWritten) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w)\n"
                           "  .down(a = h, b = w, d = y)\n"
                           "  .up(a = x, b = w, d = h)\n"
                           "  .outputs(y)\n",
                           kPlain),
            "t.dsl:4:9: error: tensor 'h' is read by step 1 (down) before step 2 (up) writes it\n"
            "    .down(a = h, b = w, d = y)\n"
            "          ^~~~~\n"
            "  legal: a step reads inputs and tensors earlier steps write\n"
            "  hint: move step 2 (up) before step 1 (down)\n");
}

TEST(Pipeline, Cycle) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(w)\n"
                           "  .up(a = g, b = w, d = h)\n"
                           "  .down(a = h, b = w, d = g)\n"
                           "  .outputs(g)\n",
                           kPlain),
            "t.dsl:4:7: error: cycle: step 1 (up) reads 'g', written by step 2 (down), which depends on step 1 (up)\n"
            "    .up(a = g, b = w, d = h)\n"
            "        ^~~~~\n"
            "  legal: steps whose data flow has no cycle\n");
}

TEST(Pipeline, SelfCycle) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(w).up(a = h, b = w, d = h).outputs(h)\n", kPlain),
            "t.dsl:3:27: error: cycle: step 1 (up) reads 'h', which it writes itself\n"
            "  pipeline p = inputs(w).up(a = h, b = w, d = h).outputs(h)\n"
            "                            ^~~~~\n"
            "  legal: a step reads inputs and tensors earlier steps write\n"
            "  hint: read a different tensor\n");
}

TEST(Pipeline, UnusedIntermediateAndInput) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w, v)\n"
                           "  .up(a = x, b = w, d = h)\n"
                           "  .down(a = x, b = w, d = y)\n"
                           "  .outputs(y)\n",
                           kPlain),
            "t.dsl:3:27: error: input 'v' is never read\n"
            "  pipeline p = inputs(x, w, v)\n"
            "                            ^\n"
            "  legal: inputs that some step binds\n"
            "  hint: bind it to an operand or remove it from inputs(...)\n"
            "t.dsl:4:25: error: tensor 'h' is written by step 1 (up) but never read\n"
            "    .up(a = x, b = w, d = h)\n"
            "                          ^\n"
            "  legal: every written tensor is read by a later step or listed in outputs(...)\n"
            "  hint: add it to outputs(...) or read it in a later step\n");
}

TEST(Pipeline, UnknownTensorWrittenTwiceAndInputWritten) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w)\n"
                           "  .up(a = z, b = w, d = x)\n"
                           "  .down(a = x, b = w, d = y)\n"
                           "  .up(a = x, b = w, d = y)\n"
                           "  .outputs(y)\n",
                           kPlain),
            "t.dsl:4:25: error: step 1 writes 'x', an input of the pipeline\n"
            "    .up(a = z, b = w, d = x)\n"
            "                          ^\n"
            "  legal: inputs are read only\n"
            "  hint: write a new tensor, e.g. x_out\n"
            "t.dsl:6:25: error: tensor 'y' is written twice (first by step 2, down, at line 5)\n"
            "    .up(a = x, b = w, d = y)\n"
            "                          ^\n"
            "  legal: each tensor is written by one step\n"
            "  hint: give this step's output a new name\n");
}

TEST(Pipeline, UnknownTensor) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w).up(a = xx, b = w, d = y).outputs(y)\n", kPlain),
            "t.dsl:3:30: error: unknown tensor 'xx': not an input and not written by any step\n"
            "  pipeline p = inputs(x, w).up(a = xx, b = w, d = y).outputs(y)\n"
            "                               ^~~~~~\n"
            "  legal: an input listed in inputs(...) or a tensor an earlier step writes\n"
            "  hint: did you mean 'x'?\n");
}

TEST(Pipeline, SignatureCalls) {
  EXPECT_EQ(diagnostics_of("pipeline p = up(a = x, b = w, d = y).outputs(y)\n", kPlain),
            "t.dsl:3:14: error: a pipeline starts with inputs(...), found 'up'\n"
            "  pipeline p = up(a = x, b = w, d = y).outputs(y)\n"
            "               ^~\n"
            "  legal: pipeline NAME = inputs(x, w, ...).KERNEL(a = x, b = w, d = h).outputs(h)\n");
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w).up(a = x, b = w, d = y)\n", kPlain),
            "t.dsl:3:27: error: a pipeline ends with outputs(...)\n"
            "  pipeline p = inputs(x, w).up(a = x, b = w, d = y)\n"
            "                            ^~~~~~~~~~~~~~~~~~~~~~~\n"
            "  legal: pipeline NAME = inputs(x, w, ...).KERNEL(a = x, b = w, d = h).outputs(h)\n"
            "  hint: list the tensors the caller gets back: .outputs(y)\n");
  EXPECT_EQ(diagnostics_of("pipeline up = inputs(x, w).down(a = x, b = w, d = y).outputs(y)\n", kPlain),
            "t.dsl:3:10: error: 'up' is already declared (line 1)\n"
            "  pipeline up = inputs(x, w).down(a = x, b = w, d = y).outputs(y)\n"
            "           ^~\n"
            "  legal: a name no other kernel or pipeline has (its C entry is ucutlass_NAME_run)\n");
}

TEST(Pipeline, DynamicExtentsAreRejected) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w).any(a = x, b = w, d = y).outputs(y)\n",
                           "kernel any = gemm(m = dynamic, n = 64, k = 64).with_types(bf16)\n"),
            "t.dsl:2:27: error: kernel 'any' has a dynamic m; a pipeline needs fixed extents\n"
            "  pipeline p = inputs(x, w).any(a = x, b = w, d = y).outputs(y)\n"
            "                            ^~~\n"
            "  legal: gemm(m = ..., n = ..., k = ...) with integers\n"
            "  hint: give m a value in kernel any\n");
}

TEST(Pipeline, ConvolutionsAreRejected) {
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w).c(a = x, b = w, d = y).outputs(y)\n",
                           "kernel c = conv2d(fprop, n = 1, h = 8, w = 8, c = 64, k = 64, r = 1, s = 1)"
                           ".with_types(bf16)\n"),
            "t.dsl:2:27: error: kernel 'c' is a convolution; pipelines run GEMM kernels only\n"
            "  pipeline p = inputs(x, w).c(a = x, b = w, d = y).outputs(y)\n"
            "                            ^\n"
            "  legal: a gemm(...) kernel\n");
}

TEST(Pipeline, Sm80KernelsAreLegal) {
  // The pipeline's host entry calls each kernel's NAME_run, whatever its architecture.
  FrontendResult r = run_frontend(
      "t.dsl",
      "kernel up = gemm(m = 128, n = 256, k = 64).with_arch(sm80).with_types(bf16).with_epilogue(gelu)\n"
      "kernel down = gemm(m = 128, n = 64, k = 256).with_arch(sm80).with_types(bf16)\n"
      "pipeline mlp = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y).outputs(y)\n");
  EXPECT_TRUE(r.ok) << r.diags->render();
}

TEST(Pipeline, EpilogueOperandsBindToTensors) {
  // x is read twice (A of expand, residual of project); h is an intermediate and an output.
  FrontendResult r = run_frontend(
      "t.dsl",
      "kernel expand = gemm(m = 256, n = 768, k = 256).with_types(bf16).with_epilogue(bias(col), silu)\n"
      "kernel project = gemm(m = 256, n = 256, k = 768).with_types(bf16).with_epilogue(bias(col), residual)\n"
      "pipeline block = inputs(x, w1, b1, w2, b2)\n"
      "  .expand(a = x, b = w1, bias = b1, d = h)\n"
      "  .project(a = h, b = w2, bias = b2, residual = x, d = y)\n"
      "  .outputs(y, h)\n");
  ASSERT_TRUE(r.ok) << r.diags->render();
  const ir::Pipeline& p = r.program.pipelines.at(0);
  ASSERT_EQ(p.outputs.size(), 2u);
  EXPECT_EQ(p.tensors[p.outputs[1]].name, "h");
  EXPECT_EQ(p.tensors[p.outputs[1]].role, ir::PipelineTensor::Role::output);
  const ir::PipelineBinding& residual = p.steps[1].bindings[3];
  EXPECT_EQ(residual.operand, ir::PipelineBinding::Operand::extra);
  EXPECT_EQ(p.tensors[residual.tensor].name, "x");
}

TEST(Pipeline, AReductionFeedsALaterStep) {
  // A softmax in two steps: exp(scores) with its row sums, then P @ V divided by them.
  // A batched reduction writes one vector per batch, which a shared vector cannot take.
  FrontendResult r = run_frontend(
      "t.dsl",
      "kernel scores = gemm(m = 256, n = 512, k = 128).with_types(bf16).with_epilogue(custom(\"exp(x)\"), row_sum)\n"
      "kernel apply = gemm(m = 256, n = 128, k = 512).with_types(bf16).with_epilogue(div(row(f32)))\n"
      "pipeline attn = inputs(q, k, v)\n"
      "  .scores(a = q, b = k, d = p, row_sum = denom)\n"
      "  .apply(a = p, b = v, div_row = denom, d = o)\n"
      "  .outputs(o, denom)\n");
  ASSERT_TRUE(r.ok) << r.diags->render();
  const ir::Pipeline& p = r.program.pipelines.at(0);
  const ir::PipelineBinding& sum = p.steps[0].bindings[3];
  EXPECT_TRUE(sum.writes);
  EXPECT_EQ(ir::tensor_type(r.program, p, sum.tensor).shape_text(), "[256]");
  ir::GemmKernel batched = r.program.kernels[0];
  batched.batch.value = 4;
  EXPECT_EQ(ir::operand_type(batched, sum).shape_text(), "[4, 256]");
}

TEST(Pipeline, TensorNamesAreNotCppKeywords) {
  // Tensor names become fields of the emitted params structs.
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(new, w).up(a = new, b = w, d = y).outputs(y)\n", kPlain),
            "t.dsl:3:21: error: tensor name 'new' is a C++ keyword\n"
            "  pipeline p = inputs(new, w).up(a = new, b = w, d = y).outputs(y)\n"
            "                      ^~~\n"
            "  legal: a name that is not a C or C++ keyword\n"
            "  hint: call it new_\n"
            "t.dsl:3:36: error: tensor name 'new' is a C++ keyword\n"
            "  pipeline p = inputs(new, w).up(a = new, b = w, d = y).outputs(y)\n"
            "                                     ^~~\n"
            "  legal: a name that is not a C or C++ keyword\n"
            "  hint: call it new_\n");
}

TEST(Pipeline, HugeIntermediatesAreRejected) {
  // Workspace offsets stay exact 64-bit byte counts.
  EXPECT_EQ(diagnostics_of("pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y)"
                           ".outputs(y)\n",
                           "kernel up = gemm(m = 2147483520, n = 2147483520, k = 64).with_types(bf16)\n"
                           "kernel down = gemm(m = 2147483520, n = 64, k = 2147483520).with_types(bf16)\n"),
            "t.dsl:3:54: error: intermediate 'h' [2147483520, 2147483520] would take 9.22e+18 bytes of workspace\n"
            "  pipeline p = inputs(x, w1, w2).up(a = x, b = w1, d = h).down(a = h, b = w2, d = y).outputs(y)\n"
            "                                                       ^\n"
            "  legal: intermediates of at most 2^40 bytes\n"
            "  hint: split the problem, or return the tensor as an output\n");
}

TEST(Pipeline, PipelineIsStillAName) {
  // `pipeline` is a keyword only where a declaration starts.
  FrontendResult r = run_frontend("t.dsl", "kernel pipeline = gemm(m = 64, n = 64, k = 64).with_types(bf16)\n");
  EXPECT_TRUE(r.ok) << r.diags->render();
}

}  // namespace
}  // namespace ucutlass
