// Suite metrics over hand-built outcomes; every expectation computed by hand
// in the comments.
#include "report/suite_summary.h"

#include <cmath>

#include <gtest/gtest.h>

namespace ucutlass::report {
namespace {

using std::nullopt;

// A: eager 2, compile 1, SOL 0.5, attempts (fail, 1.0, 0.8): best 0.8 -> 2.5x eager, 1.25x compile, SOL 0.625
// B: eager 1, compile 2, SOL 0.25, attempts (0.5): 2x eager, 4x compile, SOL 0.5
// C: eager 1, compile not measured, SOL 1, attempts (2.0): 0.5x eager (a loss), SOL 0.5
// D: eager 3, attempts (fail, fail): unsolved
std::vector<ProblemOutcome> suite() {
  return {{"A", 0.5, 2, 1, {nullopt, 1.0, 0.8}},
          {"B", 0.25, 1, 2, {0.5}},
          {"C", 1, 1, 0, {2.0}},
          {"D", 0.1, 3, 3, {nullopt, nullopt}}};
}

TEST(SuiteSummary, CountsAndSol) {
  const SuiteSummary s = summarize(suite());
  EXPECT_EQ(s.problems, 4);
  EXPECT_EQ(s.verified, 3);
  EXPECT_EQ(s.attempts, 7);  // 3 + 1 + 1 + 2
  EXPECT_EQ(s.sol_counted, 3);
  EXPECT_DOUBLE_EQ(s.sol_fraction_median, 0.5);  // of 0.625, 0.5, 0.5
  EXPECT_EQ(s.sol_violations, 0);
}

TEST(SuiteSummary, SpeedupsAgainstEagerExcludeUnsolvedFromGeomean) {
  const SpeedupStats e = summarize(suite()).eager;
  EXPECT_EQ(e.counted, 3);
  EXPECT_NEAR(e.geomean, std::cbrt(2.5 * 2.0 * 0.5), 1e-12);
  EXPECT_DOUBLE_EQ(e.median, 2.0);
  EXPECT_EQ(e.wins, 2);  // C at 0.5x is not a win
}

TEST(SuiteSummary, SuiteGeomeanCountsUnsolvedProblemsAsPyTorch) {
  // eager: A 2.5, B 2.0, C 0.5 (a measured loss keeps its value), D unsolved as 1: (2.5 * 2 * 0.5 * 1)^(1/4).
  EXPECT_NEAR(summarize(suite()).eager.suite_geomean, std::pow(2.5, 0.25), 1e-12);
  // compile: A 1.25, B 4; C (no baseline) and D (unsolved) as 1: (1.25 * 4)^(1/4).
  EXPECT_NEAR(summarize(suite()).compile.suite_geomean, std::pow(5.0, 0.25), 1e-12);
  EXPECT_EQ(summarize({{"D", 1, 2, 2, {nullopt}}}).eager.suite_geomean, 1);
}

TEST(SuiteSummary, SpeedupsAgainstCompileSkipUnmeasuredBaselines) {
  const SpeedupStats c = summarize(suite()).compile;
  EXPECT_EQ(c.counted, 2);  // C has no torch.compile time
  EXPECT_NEAR(c.geomean, std::sqrt(1.25 * 4.0), 1e-12);
  EXPECT_DOUBLE_EQ(c.median, (1.25 + 4.0) / 2);
  EXPECT_EQ(c.wins, 2);
}

TEST(SuiteSummary, ReMeasuredFiguresReplaceEachBestWithItsReMeasurement) {
  // A's best 0.8 ms ran 1.0 ms again (2x); B's 0.5 ms failed when evaluated again (unsolved there);
  // C's 2.0 ms has no re-measurement (kept, 0.5x); D unsolved. Over the verified: 2 and 0.5, geomean 1;
  // the suite (B and D as 1): (2 * 0.5 * 1 * 1)^(1/4) = 1.
  std::vector<ProblemOutcome> o = suite();
  o[0].remeasured = ProblemOutcome::Remeasured{true, 1.0};
  o[1].remeasured = ProblemOutcome::Remeasured{false, 0};
  const SuiteSummary s = summarize(o);
  EXPECT_EQ(s.remeasured, 1);
  EXPECT_EQ(s.remeasured_failed, 1);
  EXPECT_EQ(s.remeasure_pending, 1);
  EXPECT_EQ(s.eager_remeasured.counted, 2);
  EXPECT_NEAR(s.eager_remeasured.geomean, 1.0, 1e-12);
  EXPECT_NEAR(s.eager_remeasured.suite_geomean, 1.0, 1e-12);
  EXPECT_EQ(s.eager_remeasured.wins, 1);
  // The figures of the attempts themselves do not move.
  EXPECT_NEAR(s.eager.geomean, std::cbrt(2.5 * 2.0 * 0.5), 1e-12);
  EXPECT_NE(summary_text(s).find("re-measured (each best's program evaluated again as the written solution): 1 of 3 verified "
                                 "passed again, 1 failed there, 1 not yet; with those times vs eager (timed beside 0 of them, else the store's): geomean 1.000x over 2, "
                                 "suite geomean 1.000x; wins (> 1x) 1\n"),
            std::string::npos)
      << summary_text(s);
  EXPECT_EQ(summary_json(s)["remeasured"]["failed"], 1);
  // Without any re-measurement the line is not printed.
  EXPECT_EQ(summary_text(summarize(suite())).find("re-measured"), std::string::npos);
}

TEST(SuiteSummary, FastPIsOverAllProblemsAndStrict) {
  const SuiteSummary s = summarize(suite());
  // eager speedups 2.5, 2.0, 0.5, unsolved: p=0 -> 3/4; 0.5 is not > 0.5; 2.0 is not > 2.
  const double eager[kFastPCount] = {0.75, 0.5, 0.5, 0.5, 0.5, 0.25};
  // compile speedups 1.25, 4.0 (C unmeasured, D unsolved).
  const double compile[kFastPCount] = {0.5, 0.5, 0.5, 0.5, 0.25, 0.25};
  for (size_t i = 0; i < kFastPCount; ++i) {
    EXPECT_DOUBLE_EQ(s.eager.fast_p[i], eager[i]) << "p=" << kFastP[i];
    EXPECT_DOUBLE_EQ(s.compile.fast_p[i], compile[i]) << "p=" << kFastP[i];
  }
}

TEST(SuiteSummary, AttemptFastTwoFollowsAttemptOrder) {
  // n=1: A failed, B 2.0x (not > 2); n=2: A 1.0 ms = 2.0x; n=3: A 0.8 ms = 2.5x.
  EXPECT_EQ(summarize(suite()).attempt_fast2, (std::vector<double>{0, 0, 0.25}));
  // p = 1: n=1 B (2x); n=2 adds A (2x); C never wins.
  EXPECT_EQ(attempt_fast_p(suite(), 1), (std::vector<double>{0.25, 0.5, 0.5}));
}

TEST(SuiteSummary, FasterThanTheBoundIsCountedAsViolation) {
  const SuiteSummary s = summarize({{"V", 1.0, 4, 0, {0.9}}});
  EXPECT_EQ(s.sol_violations, 1);
  EXPECT_NEAR(s.sol_fraction_median, 1 / 0.9, 1e-12);
}

TEST(SuiteSummary, EmptyAndUnsolvedSuites) {
  const SuiteSummary none = summarize({});
  EXPECT_EQ(none.problems, 0);
  EXPECT_EQ(none.eager.geomean, 0);
  EXPECT_TRUE(none.attempt_fast2.empty());
  const SuiteSummary unsolved = summarize({{"D", 1, 2, 2, {nullopt}}});
  EXPECT_EQ(unsolved.verified, 0);
  EXPECT_EQ(unsolved.eager.counted, 0);
  EXPECT_EQ(unsolved.eager.fast_p[0], 0);
  EXPECT_NE(summary_text(unsolved).find("no verified solution"), std::string::npos);
}

TEST(SuiteSummary, MedianAndGeomean) {
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_NEAR(geomean({1, 4}), 2, 1e-12);
  EXPECT_EQ(speedup(0, 1.0), 0);
  EXPECT_EQ(speedup(2, nullopt), 0);
}

TEST(SuiteSummary, TextAndJson) {
  const SuiteSummary s = summarize(suite());
  const std::string t = summary_text(s);
  EXPECT_NE(t.find("suite: 4 problem(s), 3 with a verified solution, 7 attempt(s) (1.8 per problem)"), std::string::npos) << t;
  EXPECT_NE(t.find("median 2.000x  over 3 verified; wins (> 1x) 2"), std::string::npos) << t;
  EXPECT_NE(t.find("p=2    25.0 %"), std::string::npos) << t;
  EXPECT_NE(t.find("Attempt-Fast-p(2) vs eager:  0.0 % @1  0.0 % @2  25.0 % @3"), std::string::npos) << t;
  const nlohmann::json j = summary_json(s);
  EXPECT_EQ(j["speedup_eager"]["fast_p"]["0.5"], 0.5);
  EXPECT_EQ(j["speedup_compile"]["counted"], 2);
  EXPECT_EQ(j["attempt_fast_2"].size(), 3u);
}

}  // namespace
}  // namespace ucutlass::report
