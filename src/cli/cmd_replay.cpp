// `ucutlass replay STORE...`: runs a stopping policy over the attempts a
// campaign recorded and compares it with spending the fixed budget, no GPU
// needed. Several stores are one campaign's parts (a suite run in halves).
#include <algorithm>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/policy_options.h"
#include "report/store_outcomes.h"
#include "sched/budget_scheduler.h"
#include "sched/policy_sweep.h"
#include "store/run_store.h"

namespace ucutlass::cli {

namespace {

struct ReplayArgs {
  std::vector<std::string> stores;
  sched::Policy policy;
  bool sweep = false;  // the grid of epsilon x window instead of one policy
  bool as_recorded = false;  // every recorded run an attempt, re-runs of a config included
  double keep = 0.95;  // with --sweep: the geomean share a policy must keep
};

// What the attempts are, said above every replay: each config once (report::Reruns::folded), or every
// recorded run.
std::string attempts_line(const ReplayArgs& a, int folded) {
  if (a.as_recorded) return "attempts: every recorded run, as the scheduler spent them (--as-recorded)\n";
  return "attempts: each config once, at its first run, with its latest program's result (" + std::to_string(folded) +
         " re-run(s) folded; --as-recorded counts them)\n";
}

int run_sweep(const std::vector<sched::RecordedProblem>& recorded, const ReplayArgs& a, int folded, const GlobalOptions& g) {
  const sched::Sweep s = sched::sweep_policies(recorded, a.policy, sched::default_sweep_epsilons(),
                                               sched::default_sweep_windows(), a.keep);
  if (!g.json) {
    std::cout << attempts_line(a, folded) << sched::sweep_text(s);
    return kExitOk;
  }
  nlohmann::json j = {{"keep", s.keep}, {"best", s.best}, {"reruns_folded", folded}, {"rows", nlohmann::json::array()}};
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
  // Each problem's attempts verified as the summary counts them (report::outcomes_from_store): a program
  // whose re-measurement failed has no result. A config run again is one attempt holding its latest
  // result unless --as-recorded, where each run is one and a superseded run has no result.
  const report::Reruns reruns = a.as_recorded ? report::Reruns::each_counts : report::Reruns::folded;
  int folded = 0;  // recorded runs that are no attempt of their own
  std::vector<report::ProblemOutcome> all;
  std::map<std::string, std::string> store_of;  // problem -> the store that holds it
  for (const std::string& path : a.stores) {
    std::string err;
    auto store = store::RunStore::open_read_only(path, &err);
    if (!store) {
      std::cerr << "ucutlass replay: " << err << "\n";
      return kExitUsage;
    }
    for (report::ProblemOutcome& o : report::outcomes_from_store(*store, reruns)) {
      folded += o.reruns_folded;
      if (auto [it, fresh] = store_of.emplace(o.name, path); !fresh) {
        std::cerr << "ucutlass replay: " << path << ": problem " << o.name << " is in " << it->second
                  << " too; the stores of one replay are parts of one campaign, each problem in one of them\n";
        return kExitUsage;
      }
      all.push_back(std::move(o));
    }
  }
  std::vector<sched::RecordedProblem> recorded;
  for (const report::ProblemOutcome& o : all) {
    sched::RecordedProblem r{o.name, o.sol_ms, o.eager_ms, {}};
    for (const std::optional<double>& t : o.attempts) r.attempts.push_back({t});
    if (!r.attempts.empty()) recorded.push_back(std::move(r));
  }
  if (a.sweep) return run_sweep(recorded, a, folded, g);
  sched::ReplaySummary s = sched::replay(recorded, a.policy);
  // The suite metrics with the fixed budget's prefix of each problem's attempts, and with the policy's.
  std::vector<report::ProblemOutcome> fixed = all, under_policy = all;
  auto cut = [&](std::vector<report::ProblemOutcome>& outcomes, int sched::ReplayProblem::*kept) {
    for (report::ProblemOutcome& o : outcomes)
      for (const sched::ReplayProblem& p : s.problems)
        if (p.name == o.name && static_cast<int>(o.attempts.size()) > p.*kept) {
          o.attempts.resize(static_cast<size_t>(p.*kept));
          o.remeasured.reset();  // a re-measurement belongs to the whole store's best, not to a prefix of it
        }
  };
  cut(fixed, &sched::ReplayProblem::attempts_fixed);
  cut(under_policy, &sched::ReplayProblem::attempts_used);
  const report::SuiteSummary suite_fixed = report::summarize(fixed), suite_policy = report::summarize(under_policy);
  if (g.json) {
    nlohmann::json j = {{"attempts_policy", s.attempts_policy}, {"attempts_fixed", s.attempts_fixed},
                        {"geomean_policy", s.geomean_policy}, {"geomean_fixed", s.geomean_fixed},
                        {"attempts_saved", s.attempts_saved}, {"geomean_kept", s.geomean_kept}, {"reruns_folded", folded},
                        {"efficiency_gain", s.efficiency_gain}, {"problems", nlohmann::json::array()},
                        {"suite_fixed", report::summary_json(suite_fixed)}, {"suite_policy", report::summary_json(suite_policy)}};
    for (const sched::ReplayProblem& p : s.problems)
      j["problems"].push_back({{"name", p.name}, {"attempts", p.attempts_used}, {"fixed", p.attempts_fixed},
                               {"recorded", p.attempts_recorded}, {"store", store_of[p.name]},
                               {"speedup", p.speedup_policy}, {"speedup_fixed", p.speedup_fixed}, {"stop", sched::stop_reason_name(p.reason)}});
    std::cout << j.dump(2) << "\n";
  } else {
    const std::string fixed_side = a.policy.per_problem_budget > 0
                                       ? "each problem's first " + std::to_string(a.policy.per_problem_budget) + " recorded attempts"
                                       : "every recorded attempt";
    std::cout << attempts_line(a, folded) << sched::replay_text(s, a.policy) << "\nthe fixed budget (" << fixed_side << "):\n"
              << report::summary_text(suite_fixed) << "\nunder the policy:\n"
              << report::summary_text(suite_policy);
  }
  return kExitOk;
}

}  // namespace

UCUTLASS_COMMAND(replay, "Replay a stopping policy over a campaign's recorded attempts (no GPU)",
                 [](CLI::App& app, const GlobalOptions& g) -> Action {
                   auto a = std::make_shared<ReplayArgs>();
                   app.add_option("STORE", a->stores, "Run stores written by ucutlass optimize (the parts of one campaign)")
                       ->required()
                       ->check(CLI::ExistingFile);
                   add_policy_options(app, a->policy);
                   app.add_flag("--sweep", a->sweep,
                                "Replay a grid of epsilon (10 %..1000 %) x window (1..16) with these budgets; the best "
                                "saves the most attempts keeping --keep of the geomean");
                   app.add_flag("--as-recorded", a->as_recorded,
                                "Every recorded run is an attempt (as the live scheduler spent them), a config's "
                                "re-runs included; by default each config is one attempt with its latest result");
                   app.add_option("--keep", a->keep, "With --sweep: the share of the fixed geomean a policy keeps (default 0.95)")
                       ->check(CLI::Range(0.0, 1.0));
                   return [a, &g] { return run_replay(*a, g); };
                 });

}  // namespace ucutlass::cli
