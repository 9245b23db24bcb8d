#pragma once
// Subcommand registry. Each cmd_<name>.cpp registers itself from a static
// initializer, so adding a subcommand touches no other file.
//
//   UCUTLASS_COMMAND(check, "Check a DSL program for legality", [](CLI::App& app, const GlobalOptions& g) {
//     auto* file = ...; app.add_option("FILE", ...)->required();
//     return [=, &g] { return run_check(...); };   // runs after parsing; returns the exit code
//   });
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ucutlass::cli {

// Options every subcommand accepts.
struct GlobalOptions {
  bool json = false;   // machine-readable output on stdout
  bool stats = false;  // phase timers to stderr (or into the JSON)
};

// Exit codes shared by every subcommand.
enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

using Action = std::function<int()>;
using Setup = std::function<Action(CLI::App& sub, const GlobalOptions& global)>;

struct CommandSpec {
  std::string name;
  std::string summary;
  Setup setup;
};

std::vector<CommandSpec>& command_registry();

struct CommandRegistrar {
  explicit CommandRegistrar(CommandSpec spec) { command_registry().push_back(std::move(spec)); }
};

// Variadic so that a setup lambda may contain top-level commas.
#define UCUTLASS_COMMAND(NAME, SUMMARY, ...) \
  static ::ucutlass::cli::CommandRegistrar ucutlass_register_##NAME{{#NAME, SUMMARY, __VA_ARGS__}}

}  // namespace ucutlass::cli
