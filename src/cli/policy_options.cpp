#include "cli/policy_options.h"

namespace ucutlass::cli {

void add_policy_options(CLI::App& app, sched::Policy& policy) {
  // The upper ends only keep the sums of attempts within an int; no campaign comes near them.
  constexpr int kMaxAttempts = 100000;
  app.add_option("--epsilon", policy.epsilon, "Stop at t_best <= (1+epsilon) t_SOL once PyTorch is beaten (default 1.0)")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--window", policy.window, "Stop after this many attempts without improvement once PyTorch is beaten (default 12)")
      ->check(CLI::Range(1, kMaxAttempts));
  app.add_option("--budget", policy.per_problem_budget, "Attempts per problem (default 40)")->check(CLI::Range(1, kMaxAttempts));
  app.add_option("--suite-budget", policy.total_budget, "Attempts across the suite (default 0: no cap)")
      ->check(CLI::Range(0, kMaxAttempts));
}

}  // namespace ucutlass::cli
