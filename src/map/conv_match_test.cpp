// Convolution anchors on small graphs built in code: the window arguments of
// each ATen signature, the channel-axis reading of the chain, the layout
// copies, and the DSL a match becomes (which the front end must accept).
#include "map/conv_match.h"

#include <gtest/gtest.h>

#include "compiler/frontend.h"
#include "map/dsl_writer.h"
#include "sol/testing_graph.h"

namespace ucutlass::map {
namespace {

using sol::testing::TestGraph;

std::string describe_all(const MatchReport& r) {
  std::string s;
  for (const GemmMatch& m : r.gemms) s += describe(m) + "\n";
  for (const std::string& n : r.notes) s += "note: " + n + "\n";
  return s;
}

TEST(ConvMatch, ChannelBiasResidualAndWidthVector) {
  TestGraph t;
  const std::string w = t.weight({32, 16, 3, 3}), x = t.input({2, 16, 8, 8});
  const std::string cb = t.weight({32, 1, 1}), res = t.input({2, 32, 8, 8}), wv = t.weight({8});
  const std::string y = t.tensor({2, 32, 8, 8}), y1 = t.tensor({2, 32, 8, 8}), y2 = t.tensor({2, 32, 8, 8});
  const std::string y3 = t.tensor({2, 32, 8, 8});
  t.node("aten.conv2d.default", {TestGraph::ref(x), TestGraph::ref(w), nullptr, {1, 1}, {1, 1}}, {y});
  t.node("aten.add.Tensor", {TestGraph::ref(y), TestGraph::ref(cb)}, {y1});   // one value per channel: bias(col)
  t.node("aten.add.Tensor", {TestGraph::ref(res), TestGraph::ref(y1)}, {y2});  // same shape: residual
  t.node("aten.add.Tensor", {TestGraph::ref(y2), TestGraph::ref(wv)}, {y3});   // one value per column = width: not a bias
  t.output(y3);
  EXPECT_EQ(describe_all(match_gemms(t.build())),
            "conv0 conv2d(fprop, n = 2, h = 8, w = 8, c = 16, k = 32, r = 3, s = 3, pad = 1) m=128 n=32 k=144 float32 "
            "copies: x w chain: bias(col) residual\n");
}

TEST(ConvMatch, WindowsOfEverySignature) {
  TestGraph t;
  const std::string x1 = t.input({4, 8, 100}), w1 = t.weight({16, 4, 5}), y1 = t.tensor({4, 16, 47});
  t.node("aten.conv1d.default", {TestGraph::ref(x1), TestGraph::ref(w1), nullptr, {2}, {1}, {2}, 2}, {y1});
  const std::string x2 = t.input({1, 8, 9, 9}), w2 = t.weight({8, 4, 4, 4}), y2 = t.tensor({1, 8, 19, 19});
  t.node("aten.conv_transpose2d.input", {TestGraph::ref(x2), TestGraph::ref(w2), nullptr, {2, 2}, {1, 1}, {1, 1}, 2}, {y2});
  const std::string x3 = t.input({1, 8, 6, 6, 6}), w3 = t.weight({8, 8, 3, 3, 3}), y3 = t.tensor({1, 8, 6, 6, 6});
  t.node("aten.conv3d.padding", {TestGraph::ref(x3), TestGraph::ref(w3), nullptr, {1, 1, 1}, "same"}, {y3});
  const std::string x4 = t.input({1, 8, 6, 6}), w4 = t.weight({8, 8, 2, 2}), y4 = t.tensor({1, 8, 6, 6});
  t.node("aten.conv2d.padding", {TestGraph::ref(x4), TestGraph::ref(w4), nullptr, {1, 1}, "same"}, {y4});
  const std::string x5 = t.input({8, 6, 6}), w5 = t.weight({8, 8, 3, 3}), y5 = t.tensor({8, 4, 4});
  t.node("aten.conv2d.default", {TestGraph::ref(x5), TestGraph::ref(w5)}, {y5});
  const std::string x6 = t.input({1, 8, 6, 6}), w6 = t.weight({4, 8, 3, 3}), y6 = t.tensor({1, 4, 4, 4});
  t.node("aten.convolution.default",
         {TestGraph::ref(x6), TestGraph::ref(w6), nullptr, {1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1}, {y6});
  for (const std::string& y : {y1, y2, y3, y4, y5, y6}) t.output(y);
  EXPECT_EQ(describe_all(match_gemms(t.build())),
            "conv0 conv1d(fprop, n = 4, w = 100, c = 8, k = 16, s = 5, pad = 1, stride = 2, dilation = 2, groups = 2) m=188 "
            "n=16 k=20 float32 copies: x w chain: -\n"
            "conv1 conv_transpose2d(n = 1, h = 9, w = 9, c = 8, k = 8, r = 4, s = 4, pad = 1, stride = 2, output_padding = 1, "
            "groups = 2) m=361 n=8 k=64 float32 copies: x w chain: -\n"
            "conv2 conv3d(fprop, n = 1, d = 6, h = 6, w = 6, c = 8, k = 8, t = 3, r = 3, s = 3, pad = 1) m=216 n=8 k=216 "
            "float32 copies: x w chain: -\n"
            "conv3 conv2d(fprop, n = 1, h = 6, w = 6, c = 8, k = 4, r = 3, s = 3) m=16 n=4 k=72 float32 copies: x w chain: -\n"
            "note: n3 (conv2d): left to PyTorch: padding='same' with an even filter reach pads one side more; the DSL's "
            "padding is symmetric\n"
            "note: n4 (conv2d): left to PyTorch: an unbatched input (3-D for a 2-D convolution)\n");
}

TEST(ConvMatch, LayoutCopiesFollowTheGraph) {
  // conv -> relu -> conv -> view: the second conv reads the first's channels-last result (no copy of x);
  // its own result is viewed, which needs contiguous strides, so it is copied back.
  TestGraph t;
  const std::string x = t.input({2, 16, 8, 8}), w0 = t.weight({16, 16, 1, 1}), w1 = t.weight({16, 16, 1, 1});
  const std::string a = t.tensor({2, 16, 8, 8}), b = t.tensor({2, 16, 8, 8}), c = t.tensor({2, 16, 8, 8}), d = t.tensor({2, 1024});
  t.node("aten.conv2d.default", {TestGraph::ref(x), TestGraph::ref(w0)}, {a});
  t.node("aten.max_pool2d.default", {TestGraph::ref(a), {1, 1}}, {b});
  t.node("aten.conv2d.default", {TestGraph::ref(b), TestGraph::ref(w1)}, {c});
  t.node("aten.view.default", {TestGraph::ref(c), {2, -1}}, {d});
  t.output(d);
  const MatchReport r = match_gemms(t.build());
  ASSERT_EQ(r.gemms.size(), 2u);
  EXPECT_TRUE(r.gemms[0].conv->input_copy);
  EXPECT_FALSE(r.gemms[0].conv->output_copy);
  EXPECT_FALSE(r.gemms[1].conv->input_copy);
  EXPECT_TRUE(r.gemms[1].conv->output_copy);
  // x: 2*16*64 f32 elements once read and written; y: 2048 elements back; the weights are parameters,
  // whose copies the solution caches (not per call).
  EXPECT_DOUBLE_EQ(conv_layout_copy_bytes(r.gemms[0]), 2.0 * 2048 * 4);
  EXPECT_DOUBLE_EQ(conv_layout_copy_bytes(r.gemms[1]), 2.0 * 2048 * 4);
}

TEST(ConvMatch, WrittenKernelsPassTheFrontEnd) {
  TestGraph t;
  const std::string x = t.input({8, 64, 32, 32}, "bfloat16"), w = t.weight({128, 64, 3, 3}, "bfloat16");
  const std::string b = t.weight({128}, "bfloat16"), y = t.tensor({8, 128, 32, 32}, "bfloat16"), z = t.tensor({8, 128, 32, 32}, "bfloat16");
  t.node("aten.conv2d.default", {TestGraph::ref(x), TestGraph::ref(w), TestGraph::ref(b), {1, 1}, {1, 1}}, {y});
  t.node("aten.relu.default", {TestGraph::ref(y)}, {z});
  t.output(z);
  const MatchReport r = match_gemms(t.build());
  ASSERT_EQ(r.gemms.size(), 1u);
  KernelConfig c;
  const std::string dsl = kernel_dsl(r.gemms[0], c);
  EXPECT_EQ(dsl,
            "kernel conv0 = conv2d(fprop, n = 8, h = 32, w = 32, c = 64, k = 128, r = 3, s = 3, pad = 1)\n"
            "  .with_arch(sm90a)\n"
            "  .with_types(a = bf16, b = bf16, c = void, d = bf16, acc = f32)\n"
            "  .with_math(tensor_op)\n"
            "  .with_epilogue(bias(col), relu)");
  FrontendResult fe = run_frontend("conv.dsl", dsl + "\n");
  EXPECT_TRUE(fe.ok) << fe.diags->render();
}

}  // namespace
}  // namespace ucutlass::map
