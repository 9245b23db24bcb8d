#pragma once
// Which correctness rules of the harness judged a stored result. A campaign resumed by a newer build
// reads verdicts the harness gave under older rules; an "incorrect" given under rules that have since
// been relaxed is no evidence that the math path misses the tolerance now, so it must not steer the
// search away from that path (search/refine.h defers every path no more accurate than a miss).
//
//   1: every trial judged by the profile's atol and rtol.
//   2: each trial's atol is at least NATIVE_ATOL_MARGIN x PyTorch's own fp32 error from the float64
//      reference on that trial's inputs (docs/formats.md, "native atol"); trials record "atol".
//
// The harness writes its rules as the result's "correctness_rules" (python/ucutlass_harness/results.py,
// CORRECTNESS_RULES, which a Python test keeps equal to kCorrectnessRules).
#include <string>

#include <nlohmann/json.hpp>

namespace ucutlass {

inline constexpr int kCorrectnessRules = 2;

// The rules that judged `result` (an eval result): its "correctness_rules"; for results written before
// the field, 2 when a trial records its "atol", else 1.
int correctness_rules(const nlohmann::json& result);

// Whether a stored verdict says the attempt's outputs missed the tolerance under today's rules: an
// "incorrect" judged by the current rules (`result_json`, as the store keeps it).
bool missed_tolerance_now(const std::string& verdict, const std::string& result_json);

}  // namespace ucutlass
