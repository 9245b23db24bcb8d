#include "report/store_outcomes.h"

#include <algorithm>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "store/discredited.h"
#include "store/superseded.h"

namespace ucutlass::report {

double eager_beside_ms(const store::ConfirmationRow& c) {
  const nlohmann::json r = nlohmann::json::parse(c.result_json, nullptr, false);
  const nlohmann::json::json_pointer at("/timing/eager/median_ms");
  return r.is_object() && r.contains(at) && r[at].is_number() ? r[at].get<double>() : 0;
}

bool remeasured_not_faster(const store::ConfirmationRow& c) {
  const double eager = eager_beside_ms(c);
  return c.verdict == "ok" && c.time_ms > 0 && eager > 0 && c.time_ms >= eager;
}

std::vector<bool> standing_attempts(const std::vector<store::AttemptRow>& rows, const std::set<std::string>& discredited) {
  // A config that ran again later as today's program stands by that program.
  const std::vector<bool> superseded = store::superseded_attempts(rows);
  std::vector<bool> out(rows.size());
  for (size_t k = 0; k < rows.size(); ++k)
    out[k] = rows[k].verdict == "ok" && rows[k].time_ms > 0 && !discredited.count(rows[k].hash) && !superseded[k];
  return out;
}

std::vector<bool> standing_attempts(const store::RunStore& store, const std::string& problem,
                                    const std::vector<store::AttemptRow>& rows) {
  // A program whose re-measurement failed is not the problem's best (optimize writes the next one), nor
  // one of the same math path that passed on other inputs than a re-measurement that missed the tolerance.
  return standing_attempts(rows, store::discredited_programs(store, problem).programs);
}

std::vector<ProblemOutcome> outcomes_from_store(const store::RunStore& store, Reruns reruns) {
  std::vector<ProblemOutcome> out;
  const std::vector<store::ConfirmationRow> confirmations = store.confirmations();
  for (const store::ProblemRow& p : store.problems()) {
    ProblemOutcome o{p.name, p.sol_ms, p.eager_ms, p.compile_ms, {}, std::nullopt};
    // Baselines are measured again by every eval; the problem row may predate them.
    const std::vector<store::AttemptRow> rows = store.attempts(p.name);
    const std::vector<bool> stands_for_solution = standing_attempts(store, p.name, rows);
    std::map<std::string, size_t> latest;  // folded: config -> its last run, the one that stands
    if (reruns == Reruns::folded)
      for (size_t k = 0; k < rows.size(); ++k)
        if (!rows[k].config.empty()) latest[rows[k].config] = k;
    std::set<std::string> placed;  // folded: configs already given their attempt
    const store::AttemptRow* best = nullptr;
    for (size_t k = 0; k < rows.size(); ++k) {
      if (o.eager_ms <= 0) o.eager_ms = rows[k].eager_ms;
      if (o.compile_ms <= 0) o.compile_ms = rows[k].compile_ms;
      size_t stands = k;  // the run whose result this attempt holds
      if (reruns == Reruns::folded && !rows[k].config.empty()) {
        if (!placed.insert(rows[k].config).second) {  // a re-run, folded into the config's first
          ++o.reruns_folded;
          continue;
        }
        stands = latest[rows[k].config];
      }
      const store::AttemptRow& a = rows[stands];
      const bool ok = stands_for_solution[stands];
      o.attempts.push_back(ok ? std::optional<double>(a.time_ms) : std::nullopt);
      if (ok && (!best || a.time_ms < best->time_ms)) best = &a;
    }
    // The fastest attempt's program as a written solution, evaluated again (if it was).
    if (best)
      for (const store::ConfirmationRow& c : confirmations)
        if (c.problem == p.name && c.hash == best->hash)
          o.remeasured = ProblemOutcome::Remeasured{c.verdict == "ok" && c.time_ms > 0, c.time_ms, eager_beside_ms(c)};
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace ucutlass::report
