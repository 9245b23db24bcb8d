// The trace cache: a cached graph is used only while its key (the problem's
// bytes and the tracer's sources) still matches; otherwise the problem is traced
// again. The problem files here are not Python, so a real trace fails: a success
// can only have come from the cache.
#include "graph/trace_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace ucutlass::graph {
namespace {
namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class TraceCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ucutlass_trace_cache_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    problem_ = (dir_ / "problem.py").string();
    std::ofstream(problem_) << "this is not python (\n";
    cache_ = (dir_ / "out" / "trace.json").string();
    fs::create_directories(dir_ / "out");
    graph_ = nlohmann::json::parse(slurp(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/graphs/level1_014_gemm_bf16_inputs.json"));
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write_cache(const std::string& key) {
    std::ofstream(cache_) << nlohmann::json{{"format", "ucutlass-trace-cache"}, {"version", 1}, {"key", key}, {"graph", graph_}}.dump();
  }
  fs::path dir_;
  std::string problem_, cache_;
  nlohmann::json graph_;
};

TEST_F(TraceCacheTest, KeyFollowsTheProblemBytes) {
  const std::string before = trace_cache_key(problem_);
  ASSERT_EQ(before.size(), 64u);
  EXPECT_EQ(trace_cache_key(problem_), before);
  std::ofstream(problem_, std::ios::app) << "# one more line\n";
  EXPECT_NE(trace_cache_key(problem_), before);
  EXPECT_EQ(trace_cache_key((dir_ / "missing.py").string()), "");
}

TEST_F(TraceCacheTest, MatchingKeyIsUsedWithoutTracing) {
  write_cache(trace_cache_key(problem_));
  const std::vector<TraceOutcome> got = trace_problems({{problem_, cache_}}, 2, 60);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].ok) << got[0].err;
  EXPECT_TRUE(got[0].from_cache);
  EXPECT_EQ(got[0].graph.nodes.size(), graph_["nodes"].size());
}

TEST_F(TraceCacheTest, StaleKeyTracesAgain) {
  write_cache(trace_cache_key(problem_));
  std::ofstream(problem_, std::ios::app) << "# edited after tracing\n";
  const std::vector<TraceOutcome> got = trace_problems({{problem_, cache_}, {(dir_ / "missing.py").string(), ""}}, 2, 60);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_FALSE(got[0].ok);
  EXPECT_FALSE(got[0].from_cache);
  EXPECT_NE(got[0].err.find("problem.py"), std::string::npos) << got[0].err;
  EXPECT_FALSE(got[1].ok);
  EXPECT_EQ(got[1].err, (dir_ / "missing.py").string() + ": no such problem file");
}

}  // namespace
}  // namespace ucutlass::graph
