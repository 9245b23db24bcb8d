#pragma once
// Runs a child process with captured output and a hard timeout. Every tool
// ucutlass drives (nvcc, the Python worker, a candidate) goes through here, so
// a crash or hang in a child is a result to report, never our own failure.
#include <optional>
#include <string>
#include <vector>

namespace ucutlass {

struct ProcessResult {
  int exit_code = -1;        // valid when exited
  bool exited = false;       // ended by exit() rather than a signal or the timeout
  int signal = 0;            // the signal that ended it, when it was one
  bool timed_out = false;    // killed by us after the timeout
  bool spawn_failed = false; // the program could not be started at all
  std::string out;           // standard output
  std::string err;           // standard error (or why the spawn failed)
  double wall_ms = 0;

  bool ok() const { return exited && exit_code == 0; }
  // "exit code 3", "killed by signal 11 (SIGSEGV)", "timed out after 30 s", ...
  std::string describe() const;
};

struct ProcessOptions {
  std::optional<std::string> stdin_text;  // fed to the child, then closed
  double timeout_s = 0;                   // 0: no limit
  std::string working_dir;                // "" = inherit
  std::vector<std::string> extra_env;     // "NAME=value" entries added to ours
  size_t max_output_bytes = 64u << 20;    // further output is dropped, so a chatty child cannot exhaust memory
};

// argv[0] is looked up on PATH. The child gets its own process group, which is
// killed as a whole on timeout so grandchildren (nvcc's cicc, ptxas) die too.
// It also dies with the thread that started it (PR_SET_PDEATHSIG): its own group
// keeps a kill of ours from reaching it.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

}  // namespace ucutlass
