#pragma once
// Tests only: the traced op graph of a suite problem (tests/optimize/graphs/NAME.json).
#include <string>

#include <gtest/gtest.h>

#include "graph/graph_reader.h"

namespace ucutlass::graph::testing {

inline OpGraph suite_graph(const std::string& name) {
  OpGraph g;
  std::string err;
  EXPECT_TRUE(load_op_graph_file(std::string(UCUTLASS_SOURCE_DIR) + "/tests/optimize/graphs/" + name + ".json", &g, &err))
      << err;
  return g;
}

}  // namespace ucutlass::graph::testing
