#include "exec/correctness_rules.h"

namespace ucutlass {

int correctness_rules(const nlohmann::json& result) {
  if (!result.is_object()) return 1;
  if (auto it = result.find("correctness_rules"); it != result.end() && it->is_number_integer()) return it->get<int>();
  auto c = result.find("correctness");
  if (c == result.end() || !c->is_object()) return 1;
  auto trials = c->find("trials");
  if (trials == c->end() || !trials->is_array()) return 1;
  for (const nlohmann::json& t : *trials)
    if (t.is_object() && t.contains("atol")) return 2;
  return 1;
}

bool missed_tolerance_now(const std::string& verdict, const std::string& result_json) {
  if (verdict != "incorrect") return false;
  return correctness_rules(nlohmann::json::parse(result_json, nullptr, false)) >= kTrialRulesSince;
}

bool gamed_only_by_older_checks(const std::string& verdict, const std::string& signals_json, const std::string& result_json) {
  if (verdict.rfind("gamed:", 0) != 0) return false;
  if (correctness_rules(nlohmann::json::parse(result_json, nullptr, false)) >= kIntegrityRulesSince) return false;
  const nlohmann::json signals = nlohmann::json::parse(signals_json, nullptr, false);
  if (!signals.is_array()) return false;
  bool any = false;
  for (const nlohmann::json& s : signals) {
    if (!s.is_object() || !s.value("fired", false) || s.value("kind", "") != "gaming") continue;
    const std::string name = s.value("name", "");
    if (name != "result_reuse" && name != "timed_audit") return false;
    any = true;
  }
  return any;
}

}  // namespace ucutlass
