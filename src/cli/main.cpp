// The one ucutlass executable: parses the command line and dispatches to the
// registered subcommands (see command.h).
#include <algorithm>
#include <iostream>
#include <csignal>
#include <map>

#include "cli/command.h"
#include "support/build_info.h"
#include "support/phase_timer.h"

namespace ucutlass::cli {

std::vector<CommandSpec>& command_registry() {
  static std::vector<CommandSpec> registry;
  return registry;
}

}  // namespace ucutlass::cli

int main(int argc, char** argv) {
  // A child that exits before reading its stdin must not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  using namespace ucutlass::cli;
  CLI::App app{"ucutlass: a kernel DSL compiler, Speed-of-Light engine and hardened harness for CUTLASS kernels"};
  app.name("ucutlass");
  app.set_version_flag("--version", "ucutlass " UCUTLASS_VERSION);
  app.require_subcommand(1);
  app.fallthrough();

  GlobalOptions global;
  std::map<CLI::App*, Action> actions;
  auto& specs = command_registry();
  std::sort(specs.begin(), specs.end(), [](const CommandSpec& a, const CommandSpec& b) { return a.name < b.name; });
  for (const CommandSpec& spec : specs) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    sub->add_flag("--json", global.json, "Print machine-readable JSON on stdout");
    sub->add_flag("--stats", global.stats, "Print phase timers (to stderr, or into the JSON)");
    actions[sub] = spec.setup(*sub, global);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every usage mistake exits 2, whatever code CLI11 would choose.
    app.exit(e);
    return kExitUsage;
  }

  ucutlass::enable_phase_stats(global.stats);
  for (CLI::App* sub : app.get_subcommands()) {
    int rc = kExitFailure;
    try {
      rc = actions.at(sub)();
    } catch (const std::exception& e) {
      std::cerr << "ucutlass " << sub->get_name() << ": internal error: " << e.what() << "\n";
      return kExitFailure;
    }
    if (global.stats && !global.json) std::cerr << ucutlass::phase_stats_table();
    return rc;
  }
  return kExitUsage;
}
