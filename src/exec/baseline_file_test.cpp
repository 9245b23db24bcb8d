// Reading PyTorch's times from a baseline JSON: median over mean, and whether the entries were timed
// with the current event window.
#include "exec/baseline_file.h"

#include <gtest/gtest.h>

namespace ucutlass {
namespace {

TEST(BaselineFile, MedianFirstThenMeanAndTheTimingWindow) {
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "level1": {"001_a.py": {"mean": 1.5, "median": 1.4, "timing_window": "stream_only"},
               "002_b.py": {"mean": 2.5}},
    "level1_compile": {"001_a.py": {"mean": 1.6, "timing_window": "stream_only"}}})");
  BaselineTimes a = baseline_times(doc, "problems/level1/001_a.py");
  EXPECT_DOUBLE_EQ(a.eager_ms, 1.4);
  EXPECT_DOUBLE_EQ(a.compile_ms, 1.6);
  EXPECT_TRUE(a.current);
  // An entry written before the harness recorded its window: usable for predictions, not comparisons.
  BaselineTimes b = baseline_times(doc, "problems/level1/002_b.py");
  EXPECT_DOUBLE_EQ(b.eager_ms, 2.5);
  EXPECT_DOUBLE_EQ(b.compile_ms, 0.0);
  EXPECT_FALSE(b.current);
  // Absent problem, absent level, not an object: nothing, and nothing stale either.
  BaselineTimes c = baseline_times(doc, "problems/level2/001_a.py");
  EXPECT_DOUBLE_EQ(c.eager_ms, 0.0);
  EXPECT_TRUE(c.current);
  EXPECT_DOUBLE_EQ(baseline_times(nlohmann::json::array(), "x/level1/001_a.py").eager_ms, 0.0);
}

}  // namespace
}  // namespace ucutlass
