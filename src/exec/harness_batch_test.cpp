#include "exec/harness_batch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "exec/subprocess.h"

namespace ucutlass {
namespace {

namespace fs = std::filesystem;

constexpr const char* kProblem = R"PY(import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x * 2.0)


def get_inputs():
    return [torch.randn(64, 32)]


def get_init_inputs():
    return []
)PY";

constexpr const char* kHonest = R"PY(import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.clamp_min(x + x, 0)
)PY";

constexpr const char* kWrong = R"PY(import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x * 3.0)
)PY";

void write(const fs::path& p, const char* text) { std::ofstream(p) << text; }

// A folder holding the problem and the honest and wrong solutions, and CPU-mode options writing under it.
BatchEvalOptions cpu_batch_in(const fs::path& dir) {
  fs::create_directories(dir);
  write(dir / "problem.py", kProblem);
  write(dir / "honest.py", kHonest);
  write(dir / "wrong.py", kWrong);
  BatchEvalOptions o;
  o.backend = "any";
  o.device_type = "cpu";
  o.out_dir = (dir / "out").string();
  return o;
}

// A real harness run on the CPU (its --device-type cpu mode): the order of
// results follows the solutions, each carries the harness's own verdict, and
// a solution file that does not exist is that solution's failure only.
TEST(HarnessBatch, EvaluatesEachSolutionInOrderWithItsOwnVerdict) {
  if (!run_process({"python3", "-c", "import torch"}).ok()) GTEST_SKIP() << "PyTorch is not installed here";
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_batch_test_" + std::to_string(::getpid()));
  BatchEvalOptions o = cpu_batch_in(dir);
  o.correct_trials = 2;
  o.timing_trials = 3;
  o.timing_min_ms = 100;  // reaches the harness: more than 3 timed calls (a CPU call takes microseconds)
  o.prebuild_jobs = 2;
  o.eval_timeout_s = 120;
  const std::string problem = (dir / "problem.py").string();
  const double before = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  // Per-pair settings reach their own evaluation only: the first pair asks for the eager baseline
  // and states a SOL bound no honest run can be under (so `below_sol` must fire for it alone).
  const auto results = evaluate_batch({{problem, (dir / "honest.py").string(), 1e6, "eager"},
                                       {problem, (dir / "wrong.py").string()},
                                       {problem, (dir / "missing.py").string()},
                                       {problem, (dir / "honest.py").string()}},
                                      o);
  ASSERT_EQ(results.size(), 4u);
  auto fired = [](const nlohmann::json& r, const std::string& name) {
    for (const auto& s : r.value("signals", nlohmann::json::array()))
      if (s.value("name", "") == name) return s.value("fired", false);
    return false;
  };
  EXPECT_TRUE(results[0].result["timing"].contains("eager")) << results[0].result.dump();
  EXPECT_TRUE(fired(results[0].result, "below_sol"));
  EXPECT_EQ(results[1].result.value("verdict", ""), "incorrect");
  EXPECT_EQ(results[2].result.value("verdict", ""), "runtime_error");
  EXPECT_EQ(results[3].result.value("verdict", ""), "ok") << results[3].result.dump();
  EXPECT_GT(results[3].result["timing"]["candidate"].value("median_ms", 0.0), 0.0);
  EXPECT_GT(results[3].result["timing"]["candidate"].value("num_trials", 0), 3);
  EXPECT_FALSE(results[3].result["timing"].contains("eager"));  // the batch's default: no baselines
  EXPECT_FALSE(fired(results[3].result, "below_sol"));
  EXPECT_GT(results[0].wall_s, 0.0);
  // When each result was written, in order (one worker evaluates them in turn), within the batch.
  const double after = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_GE(results[0].done_unix_s, before - 1);
  EXPECT_LE(results[0].done_unix_s, results[3].done_unix_s);
  EXPECT_LE(results[3].done_unix_s, after + 1);
  fs::remove_all(dir);
}

TEST(HarnessBatch, NothingStartsAfterTheDeadline) {
  // A deadline already past: no build, no evaluation, no result file; each pair says not_run.
  if (!run_process({"python3", "-c", "import torch"}).ok()) GTEST_SKIP() << "PyTorch is not installed here";
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_batch_deadline_" + std::to_string(::getpid()));
  BatchEvalOptions o = cpu_batch_in(dir);
  o.deadline_unix_s = 1.0;  // 1970
  const std::string problem = (dir / "problem.py").string();
  const auto results = evaluate_batch({{problem, (dir / "honest.py").string()}, {problem, (dir / "wrong.py").string()}}, o);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) {
    EXPECT_EQ(r.result.value("verdict", ""), "not_run") << r.result.dump();
    EXPECT_EQ(r.done_unix_s, 0.0);  // no result file: no time a result came
  }
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir / "out")) files += e.path().extension() == ".json" && e.path().filename() != "pairs.json" &&
                                                                     e.path().filename() != "summary.json";
  EXPECT_EQ(files, 0u);
  fs::remove_all(dir);
}

TEST(HarnessBatch, AHarnessThatCannotStartIsEverySolutionsHarnessError) {
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_batch_fail_" + std::to_string(::getpid()));
  ::setenv("UCUTLASS_PYTHON", "/no/such/python3", 1);
  BatchEvalOptions o;
  o.out_dir = dir.string();
  const auto results = evaluate_batch({{"p.py", "a.py"}, {"p.py", "b.py"}}, o);
  ::unsetenv("UCUTLASS_PYTHON");
  ASSERT_EQ(results.size(), 2u);
  for (const auto& r : results) {
    EXPECT_EQ(r.result.value("verdict", ""), "harness_error");
    EXPECT_NE(r.result["error"].value("message", "").find("harness batch failed"), std::string::npos) << r.result.dump();
  }
  fs::remove_all(dir);
}

TEST(HarnessBatch, TheDevicesOptionReachesTheHarness) {
  // A malformed list is the harness's usage error, so every pair reports it: the option got there.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_batch_devices_" + std::to_string(::getpid()));
  BatchEvalOptions o;
  o.out_dir = dir.string();
  o.device_type = "cpu";
  o.devices = "0,0";
  const auto results = evaluate_batch({{"p.py", "a.py"}}, o);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].result.value("verdict", ""), "harness_error");
  EXPECT_NE(results[0].result.dump().find("--devices"), std::string::npos) << results[0].result.dump();
  fs::remove_all(dir);
}

TEST(HarnessBatch, APairsOwnTimingWindowAndWaitGoIntoThePairsFile) {
  // Only the pair that asks for a window, or to wait for the builds, carries it; the harness reads
  // them there (test_batch_devices.py).
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_batch_window_" + std::to_string(::getpid()));
  BatchEvalOptions o;
  o.out_dir = dir.string();
  o.device_type = "cpu";
  o.devices = "0,0";  // the harness stops at its usage error: only the pairs file matters here
  BatchPair attempt{"p.py", "a.py"}, confirm{"p.py", "c.py"};
  confirm.timing_min_ms = 1000;
  confirm.after_builds = true;
  evaluate_batch({attempt, confirm}, o);
  std::ifstream in(dir / "pairs.json");
  const nlohmann::json pairs = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(pairs.is_array() && pairs.size() == 2) << pairs.dump();
  EXPECT_FALSE(pairs[0].contains("timing_min_ms"));
  EXPECT_EQ(pairs[1].value("timing_min_ms", 0.0), 1000.0);
  EXPECT_FALSE(pairs[0].contains("after_builds"));
  EXPECT_TRUE(pairs[1].value("after_builds", false));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ucutlass
