// The round's re-measurements: built-here solutions always, adopted ones capped, nothing twice.
#include "sched/remeasure_queue.h"

#include <gtest/gtest.h>

namespace ucutlass::sched {
namespace {

TEST(RemeasureQueue, BuiltHereFirstThenAdoptedOnesUpToTheCap) {
  const std::vector<WrittenSolution> s = {
      {true, false, false},   // 0: adopted, not re-measured
      {true, false, true},    // 1: built here
      {false, false, false},  // 2: nothing measured written
      {true, true, true},     // 3: re-measured already
      {true, false, false},   // 4: adopted
      {true, false, true},    // 5: built here
      {true, false, false},   // 6: adopted
  };
  EXPECT_EQ(remeasures_due(s, 2), (std::vector<size_t>{1, 5, 0, 4}));
  EXPECT_EQ(remeasures_due(s, 0), (std::vector<size_t>{1, 5}));
  EXPECT_EQ(remeasures_due(s, SIZE_MAX), (std::vector<size_t>{1, 5, 0, 4, 6}));
  EXPECT_TRUE(remeasures_due({{true, true, false}, {false, false, true}}, 4).empty());
}

}  // namespace
}  // namespace ucutlass::sched
