#include "search/next_expectation.h"

#include <gtest/gtest.h>

namespace ucutlass::search {
namespace {

Candidate candidate(double estimate_ms, bool speculative = false) {
  Candidate c;
  c.estimate_s = estimate_ms * 1e-3;
  c.speculative = speculative;
  return c;
}

TEST(ExpectNext, CalibratedOnTheProblemsBestAttempt) {
  // level1/016's case: a GEMV estimated at 0.14 ms; the best attempt so far, a split-K GEMM estimated
  // at 0.32 ms, measured 0.30 ms: the model was 0.9375x pessimistic there, so 0.13125 ms is expected.
  const std::vector<std::vector<Candidate>> ranked = {{candidate(0.14), candidate(0.32), candidate(0.6)}};
  const std::vector<std::vector<Measured>> measured = {{{1, 0.30}, {2, std::nullopt, true}}};
  const std::optional<NextExpectation> e = expect_next(ranked, measured, {0}, 0);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->ms, 0.14 * 0.30 / 0.32, 1e-12);
  EXPECT_FALSE(e->speculative);
}

TEST(ExpectNext, SumsTheKernelsAndTheOpsLeftToPyTorch) {
  // Two GEMMs, one speculative pick; 0.1 ms of unmapped ops. Best attempt: both at index 0, estimated
  // 0.1 + 1 + 2 = 3.1 ms, measured 6.2 ms (2x); the next, 0.1 + 0.5 + 1 = 1.6 ms, expected at 3.2 ms.
  const std::vector<std::vector<Candidate>> ranked = {{candidate(1), candidate(0.5, true)}, {candidate(2), candidate(1)}};
  const std::vector<std::vector<Measured>> measured = {{{0, 6.2}}, {{0, 6.2}}};
  const std::optional<NextExpectation> e = expect_next(ranked, measured, {1, 1}, 0.1);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->ms, 3.2, 1e-12);
  EXPECT_TRUE(e->speculative);
}

TEST(ExpectNext, CalibrationIsBounded) {
  const std::vector<std::vector<Candidate>> ranked = {{candidate(0.01), candidate(1)}};
  const std::vector<std::vector<Measured>> measured = {{{0, 5.0}}};  // 500x the estimate: held at 8x
  EXPECT_NEAR(expect_next(ranked, measured, {1}, 0)->ms, 8.0, 1e-12);
}

TEST(ExpectNext, NothingWithoutACorrectAttemptOrAPick) {
  const std::vector<std::vector<Candidate>> ranked = {{candidate(1), candidate(2)}};
  EXPECT_FALSE(expect_next(ranked, {{{0, std::nullopt, true}}}, {1}, 0));
  EXPECT_FALSE(expect_next(ranked, {{{0, 1.0}}}, {}, 0));
  EXPECT_FALSE(expect_next(ranked, {{{0, 1.0}}}, {7}, 0));  // out of range: no guess
}

}  // namespace
}  // namespace ucutlass::search
