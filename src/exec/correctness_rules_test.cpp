#include "exec/correctness_rules.h"

#include <gtest/gtest.h>

namespace ucutlass {
namespace {

TEST(CorrectnessRules, FieldWins) {
  EXPECT_EQ(correctness_rules(nlohmann::json::parse(R"({"correctness_rules": 7, "correctness": {"trials": []}})")), 7);
}

TEST(CorrectnessRules, OlderResultsFromTheirTrials) {
  // Results written before the field: trials that record their atol were judged with the native floor.
  EXPECT_EQ(correctness_rules(nlohmann::json::parse(R"({"correctness": {"trials": [{"passed": true}, {"atol": [1e-4]}]}})")), 2);
  EXPECT_EQ(correctness_rules(nlohmann::json::parse(R"({"correctness": {"trials": [{"passed": false}]}})")), 1);
  EXPECT_EQ(correctness_rules(nlohmann::json::parse(R"({"verdict": "compile_error"})")), 1);
  EXPECT_EQ(correctness_rules(nlohmann::json("not an object")), 1);
}

TEST(CorrectnessRules, OnlyAnIncorrectUnderTodaysRulesIsAMiss) {
  const std::string old_rules = R"({"verdict": "incorrect", "correctness": {"trials": [{"passed": false}]}})";
  const std::string new_rules = R"({"verdict": "incorrect", "correctness": {"trials": [{"passed": false, "atol": [1e-4]}]}})";
  EXPECT_FALSE(missed_tolerance_now("incorrect", old_rules));
  EXPECT_TRUE(missed_tolerance_now("incorrect", new_rules));
  EXPECT_TRUE(missed_tolerance_now("incorrect", R"({"correctness_rules": 2})"));
  EXPECT_FALSE(missed_tolerance_now("ok", new_rules));
  EXPECT_FALSE(missed_tolerance_now("incorrect", "{cut short"));
}

}  // namespace
}  // namespace ucutlass
