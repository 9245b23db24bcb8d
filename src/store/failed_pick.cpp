#include "store/failed_pick.h"

#include <nlohmann/json.hpp>

namespace ucutlass::store {

bool reference_disagrees_with_itself(const nlohmann::json& signals) {
  if (!signals.is_array()) return false;
  for (const nlohmann::json& s : signals)
    if (s.is_object() && s.value("name", "") == "nondeterministic_reference" && s.value("fired", false)) return true;
  return false;
}

bool reference_disagrees_with_itself(const std::string& signals_json) {
  return reference_disagrees_with_itself(nlohmann::json::parse(signals_json, nullptr, false));
}

std::string failed_pick_reason(const std::vector<AttemptRow>& rows, const std::string& hash, const std::set<std::string>& discredited) {
  for (const AttemptRow& r : rows)
    if (reference_disagrees_with_itself(r.signals))
      return "the reference is nondeterministic (two runs of the problem's own model disagree), so no solution can be verified";
  for (const AttemptRow& r : rows)
    if (r.hash == hash && r.verdict != "ok") return "the harness failed its program " + hash + " (attempt " + std::to_string(r.seq) + ": " + r.verdict + ")";
  if (discredited.count(hash)) return "its program " + hash + " failed a re-measurement";
  return "";
}

}  // namespace ucutlass::store
