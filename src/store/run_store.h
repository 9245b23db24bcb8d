#pragma once
// The run store of one optimization campaign: one SQLite file holding every
// problem's SOL figures and every evaluated attempt (DSL, hash, compile log,
// verdict, timings, signals, the full eval-result JSON).
//
// Resumability: an attempt is written in one transaction when it is finished,
// keyed UNIQUE(problem, hash). The search regenerates its candidates
// deterministically, asks has_attempt() before spending anything, and so a
// campaign killed at any point (kill -9 included: SQLite's journal rolls back
// a half-written transaction) resumes without losing or repeating a finished
// attempt.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace ucutlass::store {

struct ProblemRow {
  std::string name;
  std::string file;
  double sol_ms = 0;
  double eager_ms = 0;    // 0 = not measured
  double compile_ms = 0;  // torch.compile, 0 = not measured
  std::string status;     // "open", "stopped:<reason>", "skipped:<why>"
};

struct AttemptRow {
  int64_t id = 0;
  std::string problem;
  int seq = 0;  // 1, 2, ... within the problem, in the order attempts finished
  std::string hash, dsl, config;
  double estimate_ms = 0;
  std::string verdict;  // the eval verdict, or compile_error from the build
  double time_ms = 0;   // candidate median; 0 unless the verdict is ok
  double eager_ms = 0, compile_ms = 0;
  std::string compile_log, signals, result_json;
  double wall_s = 0;
};

// A written solution evaluated again (docs/optimize.md, "Re-measured solutions"): the program in a
// problem's modelnew.py, timed once more in the harness's own window after the search chose it. The
// fastest of many one-shot measurements is biased low, and attempts are timed in a shorter window than
// a user's `ucutlass eval` (2026-12-01: half b's written solutions ran 6.6 % slower than their
// recorded bests). Not an attempt: it spends no budget and steers no search.
struct ConfirmationRow {
  int64_t id = 0;
  std::string problem, hash;  // the problem, and the program hash of the solution evaluated
  std::string verdict;        // the eval verdict
  double time_ms = 0;         // candidate median; 0 unless the verdict is ok
  double timing_min_ms = 0;   // the timed window it asked for
  std::string result_json;
  double wall_s = 0;
};

class RunStore {
 public:
  // Opens or creates the file; "" and `err` on failure.
  static std::unique_ptr<RunStore> open(const std::string& path, std::string* err);
  // Opens an existing store for reading only (replay): the file is left byte for byte as it was, so a
  // recorded campaign can be read where it is committed. "" and `err` when missing or not a store.
  static std::unique_ptr<RunStore> open_read_only(const std::string& path, std::string* err);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  // Campaign options (epsilon, window, profile...) as key/value text.
  bool set_option(const std::string& key, const std::string& value);
  std::optional<std::string> option(const std::string& key) const;

  // Inserts or updates a problem. An eager or torch.compile time of 0 ("not measured") keeps the one
  // stored: a campaign killed before its GPU step measured PyTorch again (2026-12-01, a timed-out call)
  // had zeroed the eager times of the problems it started, and with them their speedups.
  bool upsert_problem(const ProblemRow& p);
  std::optional<ProblemRow> problem(const std::string& name) const;
  std::vector<ProblemRow> problems() const;

  bool has_attempt(const std::string& problem, const std::string& hash) const;
  size_t attempt_count() const;  // every problem's
  // Inserts a finished attempt in one transaction; seq is assigned. Returns
  // false (and changes nothing) when (problem, hash) is already there.
  bool record_attempt(AttemptRow& a);
  std::vector<AttemptRow> attempts(const std::string& problem = "") const;  // in seq order per problem
  // Deletes the attempts the harness failed before the candidate ran (a runtime_error in its "setup"
  // phase: the reference model, or the worker's device), which say nothing of the candidate, so that a
  // resumed campaign tries them again; returns how many. (2026-12-01: the harness's float norm failed
  // on argmax's int64 reference, and 12 argmax configs would have stayed tried for good.)
  size_t forget_harness_failures();
  // Deletes one attempt (by id), so that a resumed campaign evaluates its program again; false if none.
  bool forget_attempt(int64_t id);

  // Re-measured written solutions, in the order they were recorded (a store written before they
  // existed has none). One row per (problem, hash): a second is not recorded (false).
  bool record_confirmation(ConfirmationRow& c);
  bool has_confirmation(const std::string& problem, const std::string& hash) const;
  // A re-measurement taken with no build running beside it (its result's concurrent_builds 0 or absent:
  // before overlapped builds none ran) and, when solution_sha256 is given, of that very file (its
  // result's solution.sha256). Those taken beside builds (session 18, before re-measurements waited for
  // their round's builds) are due once more, on an idle host; so is one of a file the writer now writes
  // differently for the same program (the program hash is the DSL's: host code and flags changed since).
  bool has_idle_confirmation(const std::string& problem, const std::string& hash,
                             const std::string& solution_sha256 = "") const;
  // Replaces the (problem, hash) row by `c` (the idle-host re-measurement of one taken beside builds),
  // the old row's verdict, time, window and concurrent_builds kept under "replaces" in its result JSON
  // (c.id and c.result_json are set to the stored row's); false if there is no such row.
  bool replace_confirmation(ConfirmationRow& c);
  std::vector<ConfirmationRow> confirmations(const std::string& problem = "") const;

  const std::string& last_error() const { return error_; }

 private:
  explicit RunStore(sqlite3* db) : db_(db) {}
  // sqlite3_open_v2 with `flags` and the busy timeout; "" and `err` on failure.
  static std::unique_ptr<RunStore> connect(const std::string& path, int flags, std::string* err);
  bool exec(const std::string& sql);
  sqlite3* db_ = nullptr;
  mutable std::string error_;
};

}  // namespace ucutlass::store
