// The measured section of report.txt, exactly.
#include "report/problem_report.h"

#include <gtest/gtest.h>

namespace ucutlass::report {
namespace {

store::AttemptRow row(int seq, const std::string& verdict, double ms, const std::string& config) {
  store::AttemptRow r;
  r.seq = seq;
  r.verdict = verdict;
  r.time_ms = ms;
  r.config = config;
  r.eager_ms = 1.718;
  r.compile_ms = 1.2;
  return r;
}

TEST(ProblemReport, AWin) {
  const std::vector<store::AttemptRow> rows = {row(1, "incorrect", 0, "sm90a tf32 128x128x32"),
                                               row(2, "ok", 0.5, "sm80 tf32x3 128x64x16"), row(3, "ok", 0.9, "simt")};
  EXPECT_EQ(measured_section(rows, 0.1),
            "measured on the GPU: 3 attempt(s) (incorrect 1, ok 2)\n"
            "  best: attempt 2, 0.5000 ms  sm80 tf32x3 128x64x16\n"
            "  vs eager 1.7180 ms: 3.44x\n"
            "  vs torch.compile 1.2000 ms: 2.40x\n"
            "  t_SOL 0.1000 ms: t_SOL/t_best 0.200\n");
}

TEST(ProblemReport, SlowerThanEagerIsNeverAWin) {
  const std::vector<store::AttemptRow> rows = {row(1, "ok", 2.0048, "sm90a tf32 128x128x32 c2x1x1 warpspecialized")};
  EXPECT_EQ(measured_section(rows, 0),
            "measured on the GPU: 1 attempt(s) (ok 1)\n"
            "  best: attempt 1, 2.0048 ms  sm90a tf32 128x128x32 c2x1x1 warpspecialized\n"
            "  vs eager 1.7180 ms: 0.86x  (slower: not a win)\n"
            "  vs torch.compile 1.2000 ms: 0.60x  (slower: not a win)\n");
}

TEST(ProblemReport, TheBestsReMeasurementHasItsOwnLine) {
  std::vector<store::AttemptRow> rows = {row(1, "ok", 0.5, "a"), row(2, "ok", 0.9, "b")};
  rows[0].hash = "fast";
  rows[1].hash = "slow";
  const std::vector<store::ConfirmationRow> again = {{0, "p", "slow", "ok", 0.95, 1000, "{}", 1},
                                                     {0, "p", "fast", "ok", 0.55, 1000, "{}", 1}};
  EXPECT_EQ(measured_section(rows, 0, again),
            "measured on the GPU: 2 attempt(s) (ok 2)\n"
            "  best: attempt 1, 0.5000 ms  a\n"
            "  vs eager 1.7180 ms: 3.44x\n"
            "  vs torch.compile 1.2000 ms: 2.40x\n"
            "  re-measured as the written solution (1000 ms window): 0.5500 ms, 1.100 of the attempt's time, 3.12x vs eager\n");
  const std::vector<store::ConfirmationRow> failed = {{0, "p", "fast", "incorrect", 0, 1000, "{}", 1}};
  EXPECT_NE(measured_section(rows, 0, failed).find("  re-measured as the written solution (1000 ms window): incorrect: it failed there\n"),
            std::string::npos);
}

// Session 26's kernelbench level2/025: 1.35x as an attempt, 0.99x re-measured against eager timed beside
// it. The user re-running the solution sees no win, so the report says so.
TEST(ProblemReport, AReMeasurementNoFasterThanEagerBesideItIsNotAWin) {
  std::vector<store::AttemptRow> rows = {row(1, "ok", 0.4062, "a")};
  rows[0].hash = "h";
  rows[0].eager_ms = 0.5486;
  const std::string beside = R"({"timing": {"eager": {"median_ms": 0.626}}})";
  EXPECT_EQ(measured_section(rows, 0, {{0, "p", "h", "ok", 0.6311, 1000, beside, 1}}),
            "measured on the GPU: 1 attempt(s) (ok 1)\n"
            "  best: attempt 1, 0.4062 ms  a\n"
            "  vs eager 0.5486 ms: 1.35x\n"
            "  vs torch.compile 1.2000 ms: 2.95x\n"
            "  re-measured as the written solution (1000 ms window): 0.6311 ms, 1.554 of the attempt's time, "
            "0.99x vs eager timed beside it (0.6260 ms)  (slower: not a win)\n");
}

// The best the report names is the written solution's: not a faster attempt whose config today's code
// writes as another program (level2/011's GEMM-only attempt before its row kernel), nor one discredited.
TEST(ProblemReport, TheBestIsTheFastestAttemptThatStands) {
  const std::vector<store::AttemptRow> rows = {row(1, "ok", 0.5524, "gemm"), row(2, "ok", 0.6432, "gemm + row")};
  const std::string section = measured_section(rows, 0, {}, {false, true});
  EXPECT_NE(section.find("  best: attempt 2, 0.6432 ms  gemm + row\n"), std::string::npos) << section;
  EXPECT_EQ(measured_section(rows, 0, {}, {false, false}),
            "measured on the GPU: 2 attempt(s) (ok 2)\n"
            "  no verified attempt stands (each failed a re-measurement or its config now runs as another program): "
            "modelnew.py is the unmeasured best-ranked solution\n");
}

TEST(ProblemReport, NothingVerified) {
  EXPECT_EQ(measured_section({row(1, "compile_error", 0, "x")}, 1),
            "measured on the GPU: 1 attempt(s) (compile_error 1)\n"
            "  no verified attempt: modelnew.py is the unmeasured best-ranked solution\n");
}

TEST(ProblemReport, NothingVerifiedAndThePickWithdrawnSaysWhy) {
  EXPECT_EQ(measured_section({row(1, "incorrect", 0, "x")}, 1, {}, {}, "modelnew.py and kernel.dsl are not written: why"),
            "measured on the GPU: 1 attempt(s) (incorrect 1)\n"
            "  no verified attempt: modelnew.py and kernel.dsl are not written: why\n");
}

TEST(ProblemReport, SectionIsReplacedNotAppended) {
  const std::string predicted = "problem p\nsolution: program abc, estimated 0.3 ms\n";
  const std::string once = with_measured_section(predicted, "measured on the GPU: 1\n");
  EXPECT_EQ(once, predicted + "measured on the GPU: 1\n");
  EXPECT_EQ(with_measured_section(once, "measured on the GPU: 2\n"), predicted + "measured on the GPU: 2\n");
}

}  // namespace
}  // namespace ucutlass::report
