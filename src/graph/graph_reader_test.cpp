#include "graph/graph_reader.h"

#include <gtest/gtest.h>

#include "graph/node_args.h"

namespace ucutlass::graph {
namespace {

// A valid one-node graph; each error case below breaks one thing in it.
const char* kValid = R"({
  "format": "ucutlass-opgraph", "version": 1, "dialect": "aten",
  "problem": {"name": "p", "file": "p.py", "init_args": []},
  "tensors": [
    {"id": "t0", "name": "x", "shape": [4, 8], "dtype": "float32", "stride": [8, 1], "role": "input"},
    {"id": "t1", "name": "w", "shape": [8, 2], "dtype": "float32", "stride": [2, 1], "role": "weight"},
    {"id": "t2", "name": "mm", "shape": [4, 2], "dtype": "float32", "stride": [2, 1], "role": "output"}
  ],
  "nodes": [{"id": "n0", "op": "aten.mm.default", "inputs": ["t0", "t1"], "outputs": ["t2"],
             "args": [{"tensor": "t0"}, {"tensor": "t1"}], "kwargs": {}}],
  "inputs": ["t0"], "weights": ["t1"], "outputs": ["t2"]
})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(GraphReader, ReadsAValidGraph) {
  OpGraph g;
  std::string err;
  ASSERT_TRUE(read_op_graph(kValid, "g.json", &g, &err)) << err;
  EXPECT_EQ(g.problem_name, "p");
  ASSERT_EQ(g.tensors.size(), 3u);
  EXPECT_EQ(g.tensors[1].bytes(), 8 * 2 * 4);
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].inputs, (std::vector<int>{0, 1}));
  EXPECT_EQ(arg_tensor(g, g.nodes[0], 1, "mat2"), 1);
  EXPECT_EQ(g.outputs, std::vector<int>{2});
}

struct ErrorCase {
  const char* what;
  std::string text;
  std::string message;
};

TEST(GraphReader, ReportsWhereAndWhatIsWrong) {
  const std::vector<ErrorCase> cases = {
      {"not JSON", "{\"format\": }", "g.json:1:12: invalid JSON: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal"},
      {"top level array", "[1]", "g.json: (top level): expected a JSON object, found an array"},
      {"wrong format", replaced(kValid, "\"ucutlass-opgraph\"", "\"onnx\""), "g.json: /format: expected \"ucutlass-opgraph\", found \"onnx\""},
      {"wrong version", replaced(kValid, "\"version\": 1", "\"version\": 2"), "g.json: /version: unsupported version 2 (this ucutlass reads version 1)"},
      {"missing tensors", replaced(kValid, "\"tensors\"", "\"tensorz\""), "g.json: (top level): missing required member \"tensors\""},
      {"bad dtype", replaced(kValid, "\"dtype\": \"float32\", \"stride\": [2, 1], \"role\": \"weight\"", "\"dtype\": \"float33\", \"stride\": [2, 1], \"role\": \"weight\""),
       "g.json: /tensors/1/dtype: unknown dtype \"float33\" (did you mean \"float32\"?); legal: float64, float32, float16, bfloat16, float8_e4m3fn, float8_e5m2, int64, int32, int16, int8, uint8, bool"},
      {"negative dim", replaced(kValid, "[4, 8]", "[4, -8]"), "g.json: /tensors/0/shape/1: a dimension cannot be negative (-8)"},
      {"shape not ints", replaced(kValid, "[4, 8]", "[4, \"8\"]"), "g.json: /tensors/0/shape/1: expected an integer, found a string \"8\""},
      {"stride rank", replaced(kValid, "[8, 1]", "[1]"), "g.json: /tensors/0/stride: has 1 entries but the shape has 2"},
      {"bad role", replaced(kValid, "\"role\": \"input\"", "\"role\": \"activation\""), "g.json: /tensors/0/role: unknown role \"activation\"; legal: input, weight, buffer, constant, intermediate, output"},
      {"duplicate id", replaced(kValid, "{\"id\": \"t1\"", "{\"id\": \"t0\""), "g.json: /tensors/1/id: duplicate tensor id \"t0\" (first defined at /tensors/0)"},
      {"unknown input", replaced(kValid, "\"inputs\": [\"t0\", \"t1\"]", "\"inputs\": [\"t0\", \"t9\"]"), "g.json: /nodes/0/inputs/1: unknown tensor id \"t9\" (did you mean \"t0\"?)"},
      {"unknown arg tensor", replaced(kValid, "{\"tensor\": \"t1\"}", "{\"tensor\": \"w\"}"), "g.json: /nodes/0/args/1/tensor: unknown tensor id \"w\""},
      {"output is an input", replaced(kValid, "\"outputs\": [\"t2\"],\n             \"args\"", "\"outputs\": [\"t0\"],\n             \"args\""),
       "g.json: /nodes/0/outputs/0: tensor \"t0\" is a graph input and cannot be a node output"},
      {"missing op", replaced(kValid, "\"op\": \"aten.mm.default\", ", ""), "g.json: /nodes/0: missing required member \"op\""},
      {"args not array", replaced(kValid, "\"args\": [{\"tensor\": \"t0\"}, {\"tensor\": \"t1\"}]", "\"args\": 3"), "g.json: /nodes/0/args: expected an array, found an integer"},
      {"graph output never produced", replaced(kValid, "\"outputs\": [\"t2\"],\n             \"args\"", "\"outputs\": [],\n             \"args\""),
       "g.json: /outputs/0: output tensor \"t2\" is never produced by any node"},
      {"bad constant value", replaced(kValid, "\"role\": \"weight\"}", "\"role\": \"constant\", \"value\": [1, 2, 3]}"), "g.json: /tensors/1/value: has 3 elements but the shape holds 16"},
  };
  for (const ErrorCase& c : cases) {
    OpGraph g;
    std::string err;
    EXPECT_FALSE(read_op_graph(c.text, "g.json", &g, &err)) << c.what;
    EXPECT_EQ(err, c.message) << c.what;
  }
}

TEST(GraphReader, UseBeforeDefinitionIsAnError) {
  std::string text = replaced(kValid, "\"role\": \"output\"}", "\"role\": \"output\"},\n    {\"id\": \"t3\", \"shape\": [4, 2], \"dtype\": \"float32\", \"role\": \"intermediate\"}");
  text = replaced(text, "\"inputs\": [\"t0\", \"t1\"]", "\"inputs\": [\"t3\", \"t1\"]");
  OpGraph g;
  std::string err;
  EXPECT_FALSE(read_op_graph(text, "g.json", &g, &err));
  EXPECT_EQ(err, "g.json: /nodes/0/inputs/0: tensor \"t3\" is read before any node produces it");
}

TEST(GraphReader, MissingFileIsAnError) {
  OpGraph g;
  std::string err;
  EXPECT_FALSE(load_op_graph_file("/nonexistent/g.json", &g, &err));
  EXPECT_EQ(err, "/nonexistent/g.json: cannot open the graph file");
}

TEST(OpBaseName, StripsNamespaceAndOverload) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"aten.addmm.default", "addmm"},   {"aten::softmax.int", "softmax"}, {"torch.ops.aten.mm.default", "mm"},
      {"aten.sum.dim_IntList", "sum"},   {"getitem", "getitem"},           {"_operator.getitem", "getitem"},
      {"aten.convolution", "convolution"}};
  for (const auto& [op, base] : cases) EXPECT_EQ(op_base_name(op), base) << op;
}

}  // namespace
}  // namespace ucutlass::graph
