#include "report/store_outcomes.h"

#include <algorithm>

namespace ucutlass::report {

std::vector<ProblemOutcome> outcomes_from_store(const store::RunStore& store) {
  std::vector<ProblemOutcome> out;
  for (const store::ProblemRow& p : store.problems()) {
    ProblemOutcome o{p.name, p.sol_ms, p.eager_ms, p.compile_ms, {}};
    // Baselines are measured again by every eval; the problem row may predate them.
    for (const store::AttemptRow& a : store.attempts(p.name)) {
      if (o.eager_ms <= 0) o.eager_ms = a.eager_ms;
      if (o.compile_ms <= 0) o.compile_ms = a.compile_ms;
      o.attempts.push_back(a.verdict == "ok" && a.time_ms > 0 ? std::optional<double>(a.time_ms) : std::nullopt);
    }
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace ucutlass::report
