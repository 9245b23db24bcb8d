#include "store/discredited.h"

#include <gtest/gtest.h>

namespace ucutlass::store {
namespace {

// A result whose trials ran on inputs named by `native` (PyTorch's own error per trial), under rules 3.
std::string result_on(double native) {
  return R"({"correctness_rules": 3, "correctness": {"trials": [)"
         R"({"seed": 42, "distribution": "problem", "native_max_abs_err": [)" +
         std::to_string(native) + R"(]}, {"seed": 43, "distribution": "normal", "native_max_abs_err": [0.0004]}]}})";
}

AttemptRow attempt(const char* hash, const char* config, const std::string& result, const char* verdict = "ok") {
  AttemptRow r;
  r.hash = hash;
  r.config = config;
  r.verdict = verdict;
  r.time_ms = 1;
  r.result_json = result;
  return r;
}

ConfirmationRow confirmation(const char* hash, const char* verdict, const std::string& result) {
  ConfirmationRow c;
  c.hash = hash;
  c.verdict = verdict;
  c.result_json = result;
  return c;
}

constexpr const char* kStacked128 = "sm90a tf32 k-stacked 3x a=row b=col 128x256x32 c2x1x1 cooperative persistent";
constexpr const char* kStacked64 = "sm90a tf32 k-stacked 3x a=row b=col 64x256x32 c2x1x1 pingpong persistent";
constexpr const char* kSm80 = "sm80 tf32x3 a=row b=row 128x64x16 multistage auto stages 3";

TEST(MathPath, StopsAtLayoutsTileOrKernelParameters) {
  EXPECT_EQ(math_path(kStacked128), "sm90a tf32 k-stacked 3x");
  EXPECT_EQ(math_path(kSm80), "sm80 tf32x3");
  EXPECT_EQ(math_path("sm90a tensor_op bf16-operands k-stacked 3x sub-pixel 128x256x64 c1x1x1 cooperative"),
            "sm90a tensor_op bf16-operands k-stacked 3x sub-pixel");
  EXPECT_EQ(math_path("sm90a tf32 a=row b=col 128x128x32 c1x2x1 cooperative persistent; sm90a rows access 4 threads 128 items 16 splits 1"),
            "sm90a tf32; sm90a rows");
  EXPECT_EQ(math_path("sm80 simt gemv access 4 threads_per_row 8 threads 128"), "sm80 simt gemv");
  EXPECT_EQ(math_path("sm90a attention block_q 64 block_k 64 scores bf16"), "sm90a attention scores bf16");
}

TEST(TrialInputsKey, EqualForEqualDrawsEmptyWithoutNativeErrors) {
  EXPECT_EQ(trial_inputs_key(result_on(0.0018)), trial_inputs_key(result_on(0.0018)));
  EXPECT_NE(trial_inputs_key(result_on(0.0018)), trial_inputs_key(result_on(0.0019)));
  EXPECT_EQ(trial_inputs_key(R"({"correctness": {"trials": [{"seed": 42, "atol": [0.001]}]}})"), "");
  EXPECT_EQ(trial_inputs_key("not json"), "");
  // Odd field types are read as stored, never thrown on.
  EXPECT_NE(trial_inputs_key(R"({"correctness": {"trials": [{"seed": "42", "distribution": 3, "native_max_abs_err": [1]}]}})"), "");
}

TEST(Discredited, AToleranceMissTakesTheSamePathJudgedOnOtherInputs) {
  const std::string old_draw = result_on(0.0019), today = result_on(0.0018);
  const std::vector<AttemptRow> rows = {attempt("fast", kStacked128, old_draw), attempt("next", kStacked64, old_draw),
                                        attempt("sm80", kSm80, old_draw), attempt("same_draw", kStacked64, today)};
  const Discredited d = discredited_programs(rows, {confirmation("fast", "incorrect", today)});
  EXPECT_EQ(d.programs, (std::set<std::string>{"fast", "next"}));
  EXPECT_EQ(d.inaccurate, (std::set<std::string>{"fast", "next"}));
}

TEST(Discredited, AProgramThatPassedItsOwnReMeasurementStays) {
  const std::string old_draw = result_on(0.0019), today = result_on(0.0018);
  const std::vector<AttemptRow> rows = {attempt("fast", kStacked128, old_draw), attempt("next", kStacked64, old_draw)};
  const Discredited d =
      discredited_programs(rows, {confirmation("fast", "incorrect", today), confirmation("next", "ok", today)});
  EXPECT_EQ(d.programs, (std::set<std::string>{"fast"}));
}

TEST(Discredited, AFailureOtherThanAToleranceMissTakesOnlyItsProgram) {
  const std::string old_draw = result_on(0.0019);
  const std::vector<AttemptRow> rows = {attempt("fast", kStacked128, old_draw), attempt("next", kStacked64, old_draw)};
  const Discredited d = discredited_programs(rows, {confirmation("fast", "runtime_error", result_on(0.0018))});
  EXPECT_EQ(d.programs, (std::set<std::string>{"fast"}));
  EXPECT_TRUE(d.inaccurate.empty());
}

TEST(Discredited, AMissUnderOlderRulesSaysNothingOfThePath) {
  const std::vector<AttemptRow> rows = {attempt("fast", kStacked128, result_on(0.0019)), attempt("next", kStacked64, result_on(0.0019))};
  const Discredited d = discredited_programs(rows, {confirmation("fast", "incorrect", R"({"correctness": {"trials": [{"seed": 42}]}})")});
  EXPECT_EQ(d.programs, (std::set<std::string>{"fast"}));
  EXPECT_TRUE(d.inaccurate.empty());
}

}  // namespace
}  // namespace ucutlass::store
