// Table-driven tests of the op-graph matcher over the traced graphs of real
// suite problems (tests/optimize/graphs/, written by
// `python3 -m ucutlass_harness trace PROBLEM --out FILE`).
#include "map/gemm_match.h"

#include <gtest/gtest.h>

#include "graph/graph_reader.h"
#include "map/dsl_writer.h"

namespace ucutlass::map {
namespace {

graph::OpGraph load_fixture(const std::string& name) {
  graph::OpGraph g;
  std::string err;
  const std::string path = std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/" + name + ".json";
  EXPECT_TRUE(graph::load_op_graph_file(path, &g, &err)) << err;
  return g;
}

std::string describe_all(const MatchReport& r) {
  std::string s;
  for (const GemmMatch& m : r.gemms) s += describe(m) + "\n";
  for (const std::string& n : r.notes) s += "note: " + n + "\n";
  return s;
}

struct SuiteCase {
  const char* fixture;
  const char* expected;
};

TEST(GemmMatch, SuiteProblems) {
  const SuiteCase cases[] = {
#include "map/gemm_match_cases.inc"
  };
  for (const SuiteCase& c : cases) {
    SCOPED_TRACE(c.fixture);
    EXPECT_EQ(describe_all(match_gemms(load_fixture(c.fixture))), c.expected);
  }
}

}  // namespace
}  // namespace ucutlass::map
