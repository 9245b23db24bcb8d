#include "store/discredited.h"

#include <cctype>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "exec/correctness_rules.h"
#include "store/config_kernels.h"

namespace ucutlass::store {

namespace {

// "128x256x32": a tile shape, where a GEMM's or conv's launch parameters begin.
bool is_shape(const std::string& t) {
  int parts = 1;
  bool digit = false;
  for (char ch : t) {
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      digit = true;
    } else if (ch == 'x' && digit) {
      ++parts;
      digit = false;
    } else {
      return false;
    }
  }
  return digit && parts == 3;
}

// Where a kernel summary's launch parameters begin (map::KernelConfig::summary): layouts, the tile, or a
// row, GEMV or attention kernel's first parameter.
bool starts_parameters(const std::string& t) {
  return t.rfind("a=", 0) == 0 || is_shape(t) || t == "access" || t == "block_q";
}

std::string kernel_path(const std::string& summary) {
  std::istringstream in(summary);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  std::string out;
  size_t k = 0;
  for (; k < tokens.size() && !starts_parameters(tokens[k]); ++k) out += (out.empty() ? "" : " ") + tokens[k];
  for (; k + 1 < tokens.size(); ++k)
    if (tokens[k] == "scores") out += " scores " + tokens[k + 1];  // f32 or bf16 scores: other arithmetic
  return out;
}

}  // namespace

std::string math_path(const std::string& config) {
  std::vector<std::string> paths = config_kernels(config);
  for (std::string& k : paths) k = kernel_path(k);
  return config_text(paths);
}

std::string trial_inputs_key(const std::string& result_json) {
  const nlohmann::json r = nlohmann::json::parse(result_json, nullptr, false);
  const nlohmann::json::json_pointer at("/correctness/trials");
  if (!r.is_object() || !r.contains(at) || !r[at].is_array() || r[at].empty()) return "";
  nlohmann::json key = nlohmann::json::array();
  for (const nlohmann::json& t : r[at]) {
    if (!t.is_object() || !t.contains("native_max_abs_err")) return "";
    // As stored, whatever their types (value() would throw on a seed that is not a number).
    key.push_back({t.contains("seed") ? t["seed"] : nlohmann::json(), t.contains("distribution") ? t["distribution"] : nlohmann::json(),
                   t["native_max_abs_err"]});
  }
  return key.dump();
}

Discredited discredited_programs(const std::vector<AttemptRow>& rows, const std::vector<ConfirmationRow>& confirmations) {
  Discredited out;
  std::set<std::string> passed;  // programs with a re-measurement that passed
  for (const ConfirmationRow& c : confirmations)
    if (c.verdict == "ok") passed.insert(c.hash);
  std::map<std::string, const AttemptRow*> by_hash;
  for (const AttemptRow& r : rows) by_hash.emplace(r.hash, &r);
  for (const ConfirmationRow& c : confirmations) {
    if (c.verdict == "ok") continue;
    out.programs.insert(c.hash);
    if (!missed_tolerance_now(c.verdict, c.result_json)) continue;  // a crash or timeout says nothing of the path
    out.inaccurate.insert(c.hash);
    const auto failed = by_hash.find(c.hash);
    if (failed == by_hash.end() || failed->second->config.empty()) continue;
    const std::string path = math_path(failed->second->config), inputs = trial_inputs_key(c.result_json);
    for (const AttemptRow& r : rows) {
      if (r.verdict != "ok" || r.hash == c.hash || passed.count(r.hash) || r.config.empty()) continue;
      if (math_path(r.config) != path) continue;
      const std::string own = trial_inputs_key(r.result_json);
      if (!own.empty() && own == inputs) continue;  // it passed on these very inputs
      out.programs.insert(r.hash);
      out.inaccurate.insert(r.hash);
    }
  }
  return out;
}

Discredited discredited_programs(const RunStore& store, const std::string& problem) {
  return discredited_programs(store.attempts(problem), store.confirmations(problem));
}

}  // namespace ucutlass::store
