#pragma once
// Which correctness rules of the harness judged a stored result. A campaign resumed by a newer build
// reads verdicts the harness gave under older rules; an "incorrect" given under rules that have since
// been relaxed is no evidence that the math path misses the tolerance now, so it must not steer the
// search away from that path (search/refine.h defers every path no more accurate than a miss).
//
//   1: every trial judged by the profile's atol and rtol.
//   2: each trial's atol is at least NATIVE_ATOL_MARGIN x PyTorch's own fp32 error from the float64
//      reference on that trial's inputs (docs/formats.md, "native atol"); trials record "atol".
//   3: the integrity checks that run the candidate on inputs of their own (result reuse, the timed
//      audit) judge its outputs by that same rule; they had the bare profile atol, and flagged honest
//      kernels that the trials passed through the native atol as gamed (level2/017, 2026-11-30).
//
// The harness writes its rules as the result's "correctness_rules" (python/ucutlass_harness/results.py,
// CORRECTNESS_RULES, which a Python test keeps equal to kCorrectnessRules).
#include <string>

#include <nlohmann/json.hpp>

namespace ucutlass {

inline constexpr int kCorrectnessRules = 3;
// Since which rules the correctness trials are judged as today, and the integrity checks.
inline constexpr int kTrialRulesSince = 2;
inline constexpr int kIntegrityRulesSince = 3;

// The rules that judged `result` (an eval result): its "correctness_rules"; for results written before
// the field, 2 when a trial records its "atol", else 1.
int correctness_rules(const nlohmann::json& result);

// Whether a stored verdict says the attempt's outputs missed the tolerance under today's rules: an
// "incorrect" judged by the current rules (`result_json`, as the store keeps it).
bool missed_tolerance_now(const std::string& verdict, const std::string& result_json);

// Whether a stored "gamed" verdict came from the result-reuse check or the timed audit alone (every
// fired gaming signal among `signals_json` is one of them) under rules older than kIntegrityRulesSince:
// judged at the bare profile atol, it is no evidence against the attempt today, and a resumed campaign
// forgets it and evaluates it again.
bool gamed_only_by_older_checks(const std::string& verdict, const std::string& signals_json, const std::string& result_json);

}  // namespace ucutlass
