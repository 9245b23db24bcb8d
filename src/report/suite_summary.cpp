#include "report/suite_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "support/printf_string.h"

namespace ucutlass::report {

std::optional<double> ProblemOutcome::best_ms(size_t first_n) const {
  std::optional<double> best;
  for (size_t i = 0; i < attempts.size() && i < first_n; ++i)
    if (attempts[i] && *attempts[i] > 0 && (!best || *attempts[i] < *best)) best = attempts[i];
  return best;
}

std::optional<double> ProblemOutcome::remeasured_best_ms() const {
  if (!remeasured) return best_ms();
  if (!remeasured->ok || remeasured->time_ms <= 0) return std::nullopt;
  return remeasured->time_ms;
}

double ProblemOutcome::remeasured_speedup_eager() const {
  return speedup(remeasured && remeasured->eager_ms > 0 ? remeasured->eager_ms : eager_ms, remeasured_best_ms());
}

double speedup(double baseline_ms, std::optional<double> best_ms) {
  return baseline_ms > 0 && best_ms && *best_ms > 0 ? baseline_ms / *best_ms : 0;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double log_sum = 0;
  for (double x : v) log_sum += std::log(x);
  return std::exp(log_sum / v.size());
}

namespace {

// fast_p over all problems: verified and speedup > p; a problem without a
// verified solution (or without this baseline) has speedup 0 and never counts.
double fast_p(const std::vector<double>& speedups, size_t problems, double p) {
  if (problems == 0) return 0;
  size_t n = 0;
  for (double s : speedups) n += s > 0 && s > p;
  return static_cast<double>(n) / problems;
}

// speedup_of(o): the problem's speedup, <= 0 when unsolved or its baseline is not measured.
template <class SpeedupOf>
SpeedupStats stats_of(const std::vector<ProblemOutcome>& outcomes, SpeedupOf speedup_of) {
  SpeedupStats st;
  std::vector<double> speedups;
  for (const ProblemOutcome& o : outcomes) {
    const double s = speedup_of(o);
    if (s <= 0) continue;
    speedups.push_back(s);
    st.wins += s > 1;
  }
  st.counted = static_cast<int>(speedups.size());
  st.geomean = geomean(speedups);
  // Unsolved problems enter as log(1) = 0: the product of the counted speedups, rooted over all.
  if (!outcomes.empty() && st.counted > 0)
    st.suite_geomean = std::pow(st.geomean, static_cast<double>(st.counted) / static_cast<double>(outcomes.size()));
  st.median = median(speedups);
  for (size_t i = 0; i < kFastPCount; ++i) st.fast_p[i] = fast_p(speedups, outcomes.size(), kFastP[i]);
  return st;
}

}  // namespace

std::vector<double> attempt_fast_p(const std::vector<ProblemOutcome>& outcomes, double p) {
  size_t most = 0;
  for (const ProblemOutcome& o : outcomes) most = std::max(most, o.attempts.size());
  std::vector<double> curve;
  for (size_t n = 1; n <= most; ++n) {
    std::vector<double> speedups;
    for (const ProblemOutcome& o : outcomes) speedups.push_back(speedup(o.eager_ms, o.best_ms(n)));
    curve.push_back(fast_p(speedups, outcomes.size(), p));
  }
  return curve;
}

SuiteSummary summarize(const std::vector<ProblemOutcome>& outcomes) {
  SuiteSummary s;
  s.problems = static_cast<int>(outcomes.size());
  std::vector<double> sol_fractions;
  for (const ProblemOutcome& o : outcomes) {
    s.attempts += static_cast<int>(o.attempts.size());
    const std::optional<double> best = o.best_ms();
    if (!best) continue;
    ++s.verified;
    if (!o.remeasured)
      ++s.remeasure_pending;
    else if (o.remeasured_best_ms()) {
      ++s.remeasured;
      s.remeasured_eager_beside += o.remeasured->eager_ms > 0;
    }
    else
      ++s.remeasured_failed;
    if (o.sol_ms > 0) {
      sol_fractions.push_back(o.sol_ms / *best);
      s.sol_violations += *best < o.sol_ms;
    }
  }
  s.eager = stats_of(outcomes, [](const ProblemOutcome& o) { return speedup(o.eager_ms, o.best_ms()); });
  s.compile = stats_of(outcomes, [](const ProblemOutcome& o) { return speedup(o.compile_ms, o.best_ms()); });
  s.eager_remeasured = stats_of(outcomes, [](const ProblemOutcome& o) { return o.remeasured_speedup_eager(); });
  s.sol_counted = static_cast<int>(sol_fractions.size());
  s.sol_fraction_median = median(sol_fractions);
  s.attempt_fast2 = attempt_fast_p(outcomes, 2);
  return s;
}

namespace {

std::string speedup_line(const char* against, const SpeedupStats& st) {
  if (st.counted == 0)
    return printf_string("speedup vs %-14s no verified solution with this baseline measured\n", against);
  return printf_string(
      "speedup vs %-14s geomean %.3fx  median %.3fx  over %d verified; wins (> 1x) %d; suite geomean %.3fx (unsolved as 1x)\n",
      against, st.geomean, st.median, st.counted, st.wins, st.suite_geomean);
}

std::string fast_p_line(const char* against, const SpeedupStats& st) {
  std::ostringstream o;
  o << printf_string("fast_p vs %-15s", against);
  for (size_t i = 0; i < kFastPCount; ++i) o << printf_string("  p=%-3g %5.1f %%", kFastP[i], st.fast_p[i] * 100);
  return o.str() + "\n";
}

}  // namespace

std::string summary_text(const SuiteSummary& s) {
  std::ostringstream o;
  o << printf_string("suite: %d problem(s), %d with a verified solution, %d attempt(s) (%.1f per problem)\n",
                     s.problems, s.verified, s.attempts, s.problems ? static_cast<double>(s.attempts) / s.problems : 0.0);
  o << speedup_line("eager", s.eager) << speedup_line("torch.compile", s.compile);
  o << fast_p_line("eager", s.eager) << fast_p_line("torch.compile", s.compile);
  if (s.remeasured + s.remeasured_failed > 0) {
    o << printf_string(
        "re-measured (each best's program evaluated again as the written solution): %d of %d verified passed again, "
        "%d failed there, %d not yet; with those times vs eager (timed beside %d of them, else the store's): "
        "geomean %.3fx over %d, suite geomean %.3fx; wins (> 1x) %d\n",
        s.remeasured, s.verified, s.remeasured_failed, s.remeasure_pending, s.remeasured_eager_beside,
        s.eager_remeasured.geomean, s.eager_remeasured.counted, s.eager_remeasured.suite_geomean, s.eager_remeasured.wins);
  }
  if (s.sol_counted > 0) {
    o << printf_string("SOL fraction t_SOL/t_best: median %.3f over %d; %d faster than the bound (violations)\n",
                       s.sol_fraction_median, s.sol_counted, s.sol_violations);
  }
  if (!s.attempt_fast2.empty()) {
    o << "Attempt-Fast-p(2) vs eager:";
    const size_t most = s.attempt_fast2.size();
    std::set<size_t> points = {most};
    for (size_t n : {1, 2, 5, 10, 20, 40})
      if (n < most) points.insert(n);
    for (size_t n : points) o << printf_string("  %.1f %% @%zu", s.attempt_fast2[n - 1] * 100, n);
    o << "\n";
  }
  o << "(fast_p counts every problem, unsolved as speedup 0; geomean and median over verified problems only; the suite geomean over all)\n";
  return o.str();
}

nlohmann::json summary_json(const SuiteSummary& s) {
  auto stats = [](const SpeedupStats& st) {
    nlohmann::json fp = nlohmann::json::object();
    for (size_t i = 0; i < kFastPCount; ++i) {
      char key[16];
      std::snprintf(key, sizeof key, "%g", kFastP[i]);
      fp[key] = st.fast_p[i];
    }
    return nlohmann::json{{"counted", st.counted}, {"geomean", st.geomean}, {"median", st.median}, {"wins", st.wins},
                          {"suite_geomean", st.suite_geomean}, {"fast_p", fp}};
  };
  return {{"problems", s.problems},
          {"verified", s.verified},
          {"attempts", s.attempts},
          {"speedup_eager", stats(s.eager)},
          {"speedup_compile", stats(s.compile)},
          {"sol_fraction", {{"counted", s.sol_counted}, {"median", s.sol_fraction_median}, {"violations", s.sol_violations}}},
          {"remeasured", {{"passed", s.remeasured}, {"failed", s.remeasured_failed}, {"pending", s.remeasure_pending},
                          {"eager_beside", s.remeasured_eager_beside},
                          {"speedup_eager", stats(s.eager_remeasured)}}},
          {"attempt_fast_2", s.attempt_fast2}};
}

}  // namespace ucutlass::report
