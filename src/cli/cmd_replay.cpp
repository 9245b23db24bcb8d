// `ucutlass replay STORE`: runs a stopping policy over the attempts a
// campaign recorded and compares it with spending every attempt, no GPU needed.
#include <algorithm>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "report/store_outcomes.h"
#include "sched/budget_scheduler.h"
#include "sched/policy_sweep.h"
#include "store/run_store.h"

namespace ucutlass::cli {

namespace {

struct ReplayArgs {
  std::string store;
  sched::Policy policy;
  bool sweep = false;  // the grid of epsilon x window instead of one policy
  double keep = 0.95;  // with --sweep: the geomean share a policy must keep
};

int run_sweep(const std::vector<sched::RecordedProblem>& recorded, const ReplayArgs& a, const GlobalOptions& g) {
  const sched::Sweep s = sched::sweep_policies(recorded, a.policy, sched::default_sweep_epsilons(),
                                               sched::default_sweep_windows(), a.keep);
  if (!g.json) {
    std::cout << sched::sweep_text(s);
    return kExitOk;
  }
  nlohmann::json j = {{"keep", s.keep}, {"best", s.best}, {"rows", nlohmann::json::array()}};
  for (const sched::SweepRow& r : s.rows)
    j["rows"].push_back({{"epsilon", r.policy.epsilon}, {"window", r.policy.window},
                         {"attempts_policy", r.summary.attempts_policy}, {"attempts_fixed", r.summary.attempts_fixed},
                         {"attempts_saved", r.summary.attempts_saved}, {"geomean_policy", r.summary.geomean_policy},
                         {"geomean_fixed", r.summary.geomean_fixed}, {"geomean_kept", r.summary.geomean_kept},
                         {"efficiency_gain", r.summary.efficiency_gain}});
  std::cout << j.dump(2) << "\n";
  return kExitOk;
}

int run_replay(const ReplayArgs& a, const GlobalOptions& g) {
  std::string err;
  auto store = store::RunStore::open_read_only(a.store, &err);
  if (!store) {
    std::cerr << "ucutlass replay: " << err << "\n";
    return kExitUsage;
  }
  std::vector<sched::RecordedProblem> recorded;
  for (const store::ProblemRow& p : store->problems()) {
    sched::RecordedProblem r{p.name, p.sol_ms, p.eager_ms, {}};
    for (const store::AttemptRow& at : store->attempts(p.name)) {
      if (r.eager_ms <= 0 && at.eager_ms > 0) r.eager_ms = at.eager_ms;
      r.attempts.push_back({at.verdict == "ok" && at.time_ms > 0 ? std::optional<double>(at.time_ms) : std::nullopt});
    }
    if (!r.attempts.empty()) recorded.push_back(std::move(r));
  }
  if (a.sweep) return run_sweep(recorded, a, g);
  sched::ReplaySummary s = sched::replay(recorded, a.policy);
  // The suite metrics with every recorded attempt, and with the policy's
  // prefix of each problem's attempts.
  const std::vector<report::ProblemOutcome> all = report::outcomes_from_store(*store);
  std::vector<report::ProblemOutcome> under_policy = all;
  // A re-measurement belongs to the whole store's best, not to a policy's prefix of it.
  for (report::ProblemOutcome& o : under_policy) {
    o.remeasured.reset();
    for (const sched::ReplayProblem& p : s.problems)
      if (p.name == o.name) o.attempts.resize(std::min<size_t>(o.attempts.size(), p.attempts_used));
  }
  const report::SuiteSummary suite_all = report::summarize(all), suite_policy = report::summarize(under_policy);
  if (g.json) {
    nlohmann::json j = {{"attempts_policy", s.attempts_policy}, {"attempts_fixed", s.attempts_fixed},
                        {"geomean_policy", s.geomean_policy}, {"geomean_fixed", s.geomean_fixed},
                        {"attempts_saved", s.attempts_saved}, {"geomean_kept", s.geomean_kept},
                        {"efficiency_gain", s.efficiency_gain}, {"problems", nlohmann::json::array()},
                        {"suite_all", report::summary_json(suite_all)}, {"suite_policy", report::summary_json(suite_policy)}};
    for (const sched::ReplayProblem& p : s.problems)
      j["problems"].push_back({{"name", p.name}, {"attempts", p.attempts_used}, {"recorded", p.attempts_recorded},
                               {"speedup", p.speedup_policy}, {"speedup_all", p.speedup_fixed}, {"stop", sched::stop_reason_name(p.reason)}});
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << sched::replay_text(s, a.policy) << "\nevery recorded attempt:\n"
              << report::summary_text(suite_all) << "\nunder the policy:\n"
              << report::summary_text(suite_policy);
  }
  return kExitOk;
}

}  // namespace

UCUTLASS_COMMAND(replay, "Replay a stopping policy over a campaign's recorded attempts (no GPU)",
                 [](CLI::App& app, const GlobalOptions& g) -> Action {
                   auto a = std::make_shared<ReplayArgs>();
                   app.add_option("STORE", a->store, "Run store written by ucutlass optimize")->required()->check(CLI::ExistingFile);
                   app.add_option("--epsilon", a->policy.epsilon, "SOL margin (default 2.5)");
                   app.add_option("--window", a->policy.window, "Attempts without improvement (default 12)");
                   app.add_option("--budget", a->policy.per_problem_budget, "Attempts per problem (default 40)");
                   app.add_option("--suite-budget", a->policy.total_budget, "Attempts across the suite (default: no cap)");
                   app.add_flag("--sweep", a->sweep,
                                "Replay a grid of epsilon (10 %..1000 %) x window (1..16) with these budgets; the best "
                                "saves the most attempts keeping --keep of the geomean");
                   app.add_option("--keep", a->keep, "With --sweep: the share of the fixed geomean a policy keeps (default 0.95)")
                       ->check(CLI::Range(0.0, 1.0));
                   return [a, &g] { return run_replay(*a, g); };
                 });

}  // namespace ucutlass::cli
