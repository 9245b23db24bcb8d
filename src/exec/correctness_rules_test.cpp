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
  EXPECT_TRUE(missed_tolerance_now("incorrect", R"({"correctness_rules": 3})"));  // the trials did not change at 3
  EXPECT_FALSE(missed_tolerance_now("ok", new_rules));
  EXPECT_FALSE(missed_tolerance_now("incorrect", "{cut short"));
}

TEST(CorrectnessRules, AGamedVerdictOfTheOlderReuseOrAuditCheckAloneIsForgotten) {
  const std::string reuse_and_audit = R"([{"name": "result_reuse", "kind": "gaming", "fired": true},
                                          {"name": "timed_audit", "kind": "gaming", "fired": true},
                                          {"name": "static_warnings", "kind": "info", "fired": true},
                                          {"name": "threads", "kind": "gaming", "fired": false}])";
  const std::string rules2 = R"({"correctness_rules": 2})";
  EXPECT_TRUE(gamed_only_by_older_checks("gamed:result_reuse", reuse_and_audit, rules2));
  // Judged by today's checks, another gaming signal beside them, or not gamed at all: kept.
  EXPECT_FALSE(gamed_only_by_older_checks("gamed:result_reuse", reuse_and_audit, R"({"correctness_rules": 3})"));
  EXPECT_FALSE(gamed_only_by_older_checks(
      "gamed:result_reuse", R"([{"name": "result_reuse", "kind": "gaming", "fired": true},
                                {"name": "input_mutation", "kind": "gaming", "fired": true}])", rules2));
  EXPECT_FALSE(gamed_only_by_older_checks("gamed:below_sol", R"([{"name": "below_sol", "kind": "gaming", "fired": true}])", rules2));
  EXPECT_FALSE(gamed_only_by_older_checks("incorrect", reuse_and_audit, rules2));
  EXPECT_FALSE(gamed_only_by_older_checks("gamed:result_reuse", "{cut short", rules2));
}

}  // namespace
}  // namespace ucutlass
