#include "report/problem_report.h"

#include <map>
#include <sstream>

#include "report/store_outcomes.h"

namespace ucutlass::report {

namespace {

std::string fixed(double v, int digits) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(digits);
  o << v;
  return o.str();
}

std::string versus(const char* what, double base_ms, double best_ms) {
  if (base_ms <= 0) return std::string("  vs ") + what + ": not measured\n";
  const double x = base_ms / best_ms;
  return std::string("  vs ") + what + " " + fixed(base_ms, 4) + " ms: " + fixed(x, 2) + "x" +
         (x > 1 ? "" : "  (slower: not a win)") + "\n";
}

}  // namespace

std::string measured_section(const std::vector<store::AttemptRow>& rows, double sol_ms,
                             const std::vector<store::ConfirmationRow>& remeasured, const std::vector<bool>& standing,
                             const std::string& withdrawn) {
  std::ostringstream o;
  std::map<std::string, int> verdicts;
  const store::AttemptRow* best = nullptr;
  double eager = 0, compile = 0;
  size_t verified = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    const store::AttemptRow& r = rows[k];
    ++verdicts[r.verdict];
    if (r.eager_ms > 0) eager = r.eager_ms;
    if (r.compile_ms > 0) compile = r.compile_ms;
    const bool ok = r.verdict == "ok" && r.time_ms > 0;
    verified += ok;
    if (ok && (standing.empty() || standing[k]) && (!best || r.time_ms < best->time_ms)) best = &r;
  }
  o << kMeasuredHeading << ": " << rows.size() << " attempt(s) (";
  bool first = true;
  for (const auto& [verdict, n] : verdicts) {
    o << (first ? "" : ", ") << verdict << " " << n;
    first = false;
  }
  o << ")\n";
  if (!best) {
    o << (verified ? "  no verified attempt stands (each failed a re-measurement or its config now runs as another program): "
                   : "  no verified attempt: ")
      << (withdrawn.empty() ? "modelnew.py is the unmeasured best-ranked solution" : withdrawn) << "\n";
    return o.str();
  }
  o << "  best: attempt " << best->seq << ", " << fixed(best->time_ms, 4) << " ms  " << best->config << "\n";
  o << versus("eager", eager, best->time_ms);
  o << versus("torch.compile", compile, best->time_ms);
  if (sol_ms > 0) o << "  t_SOL " << fixed(sol_ms, 4) << " ms: t_SOL/t_best " << fixed(sol_ms / best->time_ms, 3) << "\n";
  for (const store::ConfirmationRow& c : remeasured) {
    if (c.hash != best->hash) continue;
    o << "  re-measured as the written solution (" << fixed(c.timing_min_ms, 0) << " ms window): ";
    if (c.verdict == "ok" && c.time_ms > 0) {
      // Eager timed beside the re-measurement (same worker, same inputs) is the ratio of one run.
      const double beside = eager_beside_ms(c), base = beside > 0 ? beside : eager;
      o << fixed(c.time_ms, 4) << " ms, " << fixed(c.time_ms / best->time_ms, 3) << " of the attempt's time";
      if (base > 0)
        o << ", " << fixed(base / c.time_ms, 2) << "x vs eager"
          << (beside > 0 ? " timed beside it (" + fixed(beside, 4) + " ms)" : "")
          << (base / c.time_ms > 1 ? "" : "  (slower: not a win)");
      o << "\n";
    } else
      o << c.verdict << ": it failed there\n";
  }
  return o.str();
}

std::string with_measured_section(const std::string& report, const std::string& section) {
  const size_t at = report.find(std::string("\n") + kMeasuredHeading);
  return (at == std::string::npos ? report : report.substr(0, at + 1)) + section;
}

}  // namespace ucutlass::report
