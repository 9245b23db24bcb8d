// `ucutlass replay STORE`: runs a stopping policy over the attempts a
// campaign recorded and compares it with spending every attempt, no GPU needed.
#include <algorithm>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "report/store_outcomes.h"
#include "sched/budget_scheduler.h"
#include "store/run_store.h"

namespace ucutlass::cli {

namespace {

struct ReplayArgs {
  std::string store;
  sched::Policy policy;
};

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
  sched::ReplaySummary s = sched::replay(recorded, a.policy);
  // The suite metrics with every recorded attempt, and with the policy's
  // prefix of each problem's attempts.
  const std::vector<report::ProblemOutcome> all = report::outcomes_from_store(*store);
  std::vector<report::ProblemOutcome> under_policy = all;
  for (report::ProblemOutcome& o : under_policy)
    for (const sched::ReplayProblem& p : s.problems)
      if (p.name == o.name) o.attempts.resize(std::min<size_t>(o.attempts.size(), p.attempts_used));
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
                   return [a, &g] { return run_replay(*a, g); };
                 });

}  // namespace ucutlass::cli
