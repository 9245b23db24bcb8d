// Golden SOL reports: every graph in tests/sol/graphs is priced on the H200
// profile and compared, byte for byte, with tests/sol/golden/<name>.json.
// UCUTLASS_UPDATE_GOLDEN=1 rewrites the golden files instead; review the diff.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "graph/graph_reader.h"
#include "sol/report_render.h"

namespace ucutlass::sol {
namespace {

namespace fs = std::filesystem;

const std::string kRoot = UCUTLASS_SOURCE_DIR;

// The shipped H200 profile only: a measured profile in the user's cache must not leak into goldens.
SelectedProfile h200() {
  setenv("UCUTLASS_PROFILE_DIR", "/nonexistent/ucutlass-profiles", 1);
  SelectedProfile p;
  std::string err;
  EXPECT_TRUE(select_profile({"H200", "", false}, &p, &err)) << err;
  unsetenv("UCUTLASS_PROFILE_DIR");
  return p;
}

std::string render(const std::string& graph_path, const SelectedProfile& profile) {
  graph::OpGraph g;
  std::string err;
  EXPECT_TRUE(graph::load_op_graph_file(graph_path, &g, &err)) << err;
  SolReport r = build_sol_report(g, profile, SolOptions{});
  nlohmann::json j = report_json(r, g, nullptr);
  j["profile"]["file"] = "data/gpus/h200.json";  // machine-independent
  return j.dump(1) + "\n";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "line N: expected ... / actual ..." at the first difference.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "identical";
    if (la != lb || ha != hb)
      return "line " + std::to_string(line) + ":\n  golden: " + (ha ? la : "<end>") + "\n  actual: " + (hb ? lb : "<end>");
  }
}

std::vector<std::string> fixtures() {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(kRoot + "/tests/sol/graphs"))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(SolGolden, ReportsMatchGoldenFiles) {
  const bool update = std::getenv("UCUTLASS_UPDATE_GOLDEN") != nullptr;
  SelectedProfile profile = h200();
  std::vector<std::string> names = fixtures();
  ASSERT_GE(names.size(), 15u);
  fs::create_directories(kRoot + "/tests/sol/golden");
  for (const std::string& name : names) {
    std::string got = render(kRoot + "/tests/sol/graphs/" + name + ".json", profile);
    std::string golden_path = kRoot + "/tests/sol/golden/" + name + ".json";
    if (update) {
      std::ofstream(golden_path) << got;
      continue;
    }
    ASSERT_TRUE(fs::exists(golden_path)) << golden_path << " is missing: run with UCUTLASS_UPDATE_GOLDEN=1";
    std::string want = read_text(golden_path);
    EXPECT_EQ(want, got) << name << ": " << first_difference(want, got);
  }
}

// The acceptance rule: `ucutlass sol GRAPH.json` answers in under 50 ms. The
// in-process path (read, select profile, price, render) must take a fraction of it.
TEST(SolPerformance, LargestFixtureUnderFiftyMilliseconds) {
  SelectedProfile profile = h200();
  double best_ms = 1e9;
  for (int i = 0; i < 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    SelectedProfile p = h200();
    std::string out = render(kRoot + "/tests/sol/graphs/attention_explicit.json", p);
    best_ms = std::min(best_ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  EXPECT_LT(best_ms, 50.0);
}

// Acceptance checks that need no GPU: the SOL of the large bf16 GEMM and of the
// copy sit where gpu.md's measurements would land at 70-95 % of SOL.
TEST(SolAcceptance, MeasuredCeilingsFallInsideTheSeventyToNinetyFiveBand) {
  SelectedProfile profile = h200();
  struct Case {
    const char* graph;
    double measured_ms;  // from gpu.md: 796 TFLOP/s bf16 at 8192^3; 4.24 TB/s copy
  };
  const std::vector<Case> cases = {{"gemm_bf16_8192", 2.0 * 8192.0 * 8192 * 8192 / 796e12 * 1e3},
                                   {"copy", 2.0 * 268435456 * 4 / 4.24e12 * 1e3}};
  for (const Case& c : cases) {
    graph::OpGraph g;
    std::string err;
    ASSERT_TRUE(graph::load_op_graph_file(kRoot + "/tests/sol/graphs/" + c.graph + ".json", &g, &err)) << err;
    SolReport r = build_sol_report(g, profile, SolOptions{});
    double fraction = r.sol_s() * 1e3 / c.measured_ms;
    EXPECT_GE(fraction, 0.70) << c.graph;
    EXPECT_LE(fraction, 0.95) << c.graph;
    MeasuredTime m = measure_against(r, c.measured_ms * 1e-3, std::nullopt, 0.05);
    EXPECT_EQ(m.verdict.verdict, "ok") << c.graph;
  }
}

}  // namespace
}  // namespace ucutlass::sol
