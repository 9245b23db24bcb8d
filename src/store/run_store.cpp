#include "store/run_store.h"

#include <sqlite3.h>

namespace ucutlass::store {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS campaign (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS problems (
  name TEXT PRIMARY KEY, file TEXT NOT NULL, sol_ms REAL NOT NULL, eager_ms REAL NOT NULL,
  compile_ms REAL NOT NULL, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
  id INTEGER PRIMARY KEY, problem TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL,
  dsl TEXT NOT NULL, config TEXT NOT NULL, estimate_ms REAL NOT NULL, verdict TEXT NOT NULL,
  time_ms REAL NOT NULL, eager_ms REAL NOT NULL, compile_ms REAL NOT NULL, compile_log TEXT NOT NULL,
  signals TEXT NOT NULL, result_json TEXT NOT NULL, wall_s REAL NOT NULL,
  UNIQUE (problem, hash), UNIQUE (problem, seq));
CREATE TABLE IF NOT EXISTS confirmations (
  id INTEGER PRIMARY KEY, problem TEXT NOT NULL, hash TEXT NOT NULL, verdict TEXT NOT NULL,
  time_ms REAL NOT NULL, timing_min_ms REAL NOT NULL, result_json TEXT NOT NULL, wall_s REAL NOT NULL,
  UNIQUE (problem, hash));
)sql";

// A prepared statement that finalizes itself.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Statement() { sqlite3_finalize(s_); }
  bool ok() const { return s_ != nullptr; }
  Statement& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  Statement& bind_int(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  int step() { return sqlite3_step(s_); }
  std::string text(int i) const {
    const unsigned char* t = sqlite3_column_text(s_, i);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  double real(int i) const { return sqlite3_column_double(s_, i); }
  int64_t integer(int i) const { return sqlite3_column_int64(s_, i); }

 private:
  sqlite3_stmt* s_ = nullptr;
};

ProblemRow read_problem(const Statement& s) {
  return {s.text(0), s.text(1), s.real(2), s.real(3), s.real(4), s.text(5)};
}

}  // namespace

std::unique_ptr<RunStore> RunStore::connect(const std::string& path, int flags, std::string* err) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    *err = path + ": " + (db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_close(db);
    return nullptr;
  }
  sqlite3_busy_timeout(db, 5000);
  return std::unique_ptr<RunStore>(new RunStore(db));
}

std::unique_ptr<RunStore> RunStore::open(const std::string& path, std::string* err) {
  std::unique_ptr<RunStore> store = connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err);
  if (!store) return nullptr;
  // WAL + synchronous=FULL: a committed attempt survives kill -9 and power loss alike.
  if (!store->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;") || !store->exec(kSchema)) {
    *err = path + ": " + store->error_;
    return nullptr;
  }
  return store;
}

std::unique_ptr<RunStore> RunStore::open_read_only(const std::string& path, std::string* err) {
  std::unique_ptr<RunStore> store = connect(path, SQLITE_OPEN_READONLY, err);
  if (!store) return nullptr;
  if (!store->exec("SELECT 1 FROM attempts LIMIT 1; SELECT 1 FROM problems LIMIT 1;")) {
    *err = path + ": not a ucutlass run store (" + store->error_ + ")";
    return nullptr;
  }
  return store;
}

RunStore::~RunStore() { sqlite3_close(db_); }

bool RunStore::exec(const std::string& sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    error_ = msg ? msg : "sqlite error";
    sqlite3_free(msg);
    return false;
  }
  return true;
}

bool RunStore::set_option(const std::string& key, const std::string& value) {
  Statement s(db_, "INSERT INTO campaign(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  return s.ok() && s.bind(1, key).bind(2, value).step() == SQLITE_DONE;
}

std::optional<std::string> RunStore::option(const std::string& key) const {
  Statement s(db_, "SELECT value FROM campaign WHERE key = ?");
  s.bind(1, key);
  if (s.step() == SQLITE_ROW) return s.text(0);
  return std::nullopt;
}

bool RunStore::upsert_problem(const ProblemRow& p) {
  Statement s(db_,
              "INSERT INTO problems(name, file, sol_ms, eager_ms, compile_ms, status) VALUES(?, ?, ?, ?, ?, ?) "
              "ON CONFLICT(name) DO UPDATE SET file = excluded.file, sol_ms = excluded.sol_ms, "
              "eager_ms = CASE WHEN excluded.eager_ms > 0 THEN excluded.eager_ms ELSE problems.eager_ms END, "
              "compile_ms = CASE WHEN excluded.compile_ms > 0 THEN excluded.compile_ms ELSE problems.compile_ms END, "
              "status = excluded.status");
  if (!s.ok()) return false;
  s.bind(1, p.name).bind(2, p.file).bind(3, p.sol_ms).bind(4, p.eager_ms).bind(5, p.compile_ms).bind(6, p.status);
  if (s.step() != SQLITE_DONE) {
    error_ = sqlite3_errmsg(db_);
    return false;
  }
  return true;
}

std::optional<ProblemRow> RunStore::problem(const std::string& name) const {
  Statement s(db_, "SELECT name, file, sol_ms, eager_ms, compile_ms, status FROM problems WHERE name = ?");
  s.bind(1, name);
  if (s.step() == SQLITE_ROW) return read_problem(s);
  return std::nullopt;
}

std::vector<ProblemRow> RunStore::problems() const {
  std::vector<ProblemRow> out;
  Statement s(db_, "SELECT name, file, sol_ms, eager_ms, compile_ms, status FROM problems ORDER BY name");
  while (s.step() == SQLITE_ROW) out.push_back(read_problem(s));
  return out;
}

size_t RunStore::attempt_count() const {
  Statement s(db_, "SELECT COUNT(*) FROM attempts");
  return s.step() == SQLITE_ROW ? static_cast<size_t>(s.integer(0)) : 0;
}

size_t RunStore::forget_harness_failures() {
  if (!exec("DELETE FROM attempts WHERE verdict = 'runtime_error' AND json_valid(result_json) AND "
            "json_extract(result_json, '$.error.phase') = 'setup'"))
    return 0;
  return static_cast<size_t>(sqlite3_changes(db_));
}

bool RunStore::forget_attempt(int64_t id) {
  Statement s(db_, "DELETE FROM attempts WHERE id = ?");
  if (!s.ok()) return false;
  s.bind_int(1, id);
  return s.step() == SQLITE_DONE && sqlite3_changes(db_) == 1;
}

bool RunStore::has_attempt(const std::string& problem, const std::string& hash) const {
  Statement s(db_, "SELECT 1 FROM attempts WHERE problem = ? AND hash = ?");
  s.bind(1, problem).bind(2, hash);
  return s.step() == SQLITE_ROW;
}

bool RunStore::record_attempt(AttemptRow& a) {
  if (!exec("BEGIN IMMEDIATE")) return false;
  Statement s(db_,
              "INSERT INTO attempts(problem, seq, hash, dsl, config, estimate_ms, verdict, time_ms, eager_ms, compile_ms, "
              "compile_log, signals, result_json, wall_s) "
              "SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13 FROM attempts WHERE problem = ?1 "
              "ON CONFLICT(problem, hash) DO NOTHING");
  bool inserted = false;
  if (s.ok()) {
    s.bind(1, a.problem).bind(2, a.hash).bind(3, a.dsl).bind(4, a.config).bind(5, a.estimate_ms).bind(6, a.verdict);
    s.bind(7, a.time_ms).bind(8, a.eager_ms).bind(9, a.compile_ms).bind(10, a.compile_log).bind(11, a.signals);
    s.bind(12, a.result_json).bind(13, a.wall_s);
    inserted = s.step() == SQLITE_DONE && sqlite3_changes(db_) == 1;
  }
  if (!inserted) {
    error_ = sqlite3_errmsg(db_);
    exec("ROLLBACK");
    return false;
  }
  a.id = sqlite3_last_insert_rowid(db_);
  Statement q(db_, "SELECT seq FROM attempts WHERE id = ?");
  q.bind_int(1, a.id);
  if (q.step() == SQLITE_ROW) a.seq = static_cast<int>(q.integer(0));
  return exec("COMMIT");
}

std::vector<AttemptRow> RunStore::attempts(const std::string& problem) const {
  std::vector<AttemptRow> out;
  Statement s(db_,
              "SELECT id, problem, seq, hash, dsl, config, estimate_ms, verdict, time_ms, eager_ms, compile_ms, compile_log, "
              "signals, result_json, wall_s FROM attempts WHERE ?1 = '' OR problem = ?1 ORDER BY problem, seq");
  s.bind(1, problem);
  while (s.step() == SQLITE_ROW) {
    AttemptRow a;
    a.id = s.integer(0);
    a.problem = s.text(1);
    a.seq = static_cast<int>(s.integer(2));
    a.hash = s.text(3);
    a.dsl = s.text(4);
    a.config = s.text(5);
    a.estimate_ms = s.real(6);
    a.verdict = s.text(7);
    a.time_ms = s.real(8);
    a.eager_ms = s.real(9);
    a.compile_ms = s.real(10);
    a.compile_log = s.text(11);
    a.signals = s.text(12);
    a.result_json = s.text(13);
    a.wall_s = s.real(14);
    out.push_back(std::move(a));
  }
  return out;
}

bool RunStore::record_confirmation(ConfirmationRow& c) {
  Statement s(db_,
              "INSERT INTO confirmations(problem, hash, verdict, time_ms, timing_min_ms, result_json, wall_s) "
              "VALUES(?, ?, ?, ?, ?, ?, ?) ON CONFLICT(problem, hash) DO NOTHING");
  if (!s.ok()) {
    error_ = sqlite3_errmsg(db_);
    return false;
  }
  s.bind(1, c.problem).bind(2, c.hash).bind(3, c.verdict).bind(4, c.time_ms).bind(5, c.timing_min_ms);
  s.bind(6, c.result_json).bind(7, c.wall_s);
  if (s.step() != SQLITE_DONE || sqlite3_changes(db_) != 1) {
    error_ = sqlite3_errmsg(db_);
    return false;
  }
  c.id = sqlite3_last_insert_rowid(db_);
  return true;
}

bool RunStore::has_confirmation(const std::string& problem, const std::string& hash) const {
  Statement s(db_, "SELECT 1 FROM confirmations WHERE problem = ? AND hash = ?");
  if (!s.ok()) return false;  // a read-only store from before confirmations existed
  s.bind(1, problem).bind(2, hash);
  return s.step() == SQLITE_ROW;
}

bool RunStore::has_idle_confirmation(const std::string& problem, const std::string& hash,
                                     const std::string& solution_sha256) const {
  Statement s(db_,
              "SELECT 1 FROM confirmations WHERE problem = ?1 AND hash = ?2 AND (NOT json_valid(result_json) OR "
              "COALESCE(json_extract(result_json, '$.concurrent_builds'), 0) = 0) AND (?3 = '' OR "
              "(json_valid(result_json) AND json_extract(result_json, '$.solution.sha256') = ?3))");
  if (!s.ok()) return false;  // a read-only store from before confirmations existed
  s.bind(1, problem).bind(2, hash).bind(3, solution_sha256);
  return s.step() == SQLITE_ROW;
}

bool RunStore::replace_confirmation(ConfirmationRow& c) {
  // The right-hand sides read the row as it was: its figures go under "replaces" in the new result.
  Statement s(db_,
              "UPDATE confirmations SET verdict = ?1, time_ms = ?2, timing_min_ms = ?3, wall_s = ?5, result_json = "
              "CASE WHEN json_valid(?4) THEN json_set(?4, '$.replaces', json_object('verdict', verdict, 'time_ms', time_ms, "
              "'timing_min_ms', timing_min_ms, 'concurrent_builds', "
              "CASE WHEN json_valid(result_json) THEN json_extract(result_json, '$.concurrent_builds') END, "
              "'solution_sha256', CASE WHEN json_valid(result_json) THEN json_extract(result_json, '$.solution.sha256') END)) "
              "ELSE ?4 END "
              "WHERE problem = ?6 AND hash = ?7");
  if (!s.ok()) {
    error_ = sqlite3_errmsg(db_);
    return false;
  }
  s.bind(1, c.verdict).bind(2, c.time_ms).bind(3, c.timing_min_ms).bind(4, c.result_json).bind(5, c.wall_s);
  s.bind(6, c.problem).bind(7, c.hash);
  if (s.step() != SQLITE_DONE || sqlite3_changes(db_) != 1) {
    error_ = sqlite3_changes(db_) == 0 ? "no re-measurement of " + c.problem + " program " + c.hash + " to replace"
                                       : std::string(sqlite3_errmsg(db_));
    return false;
  }
  Statement row(db_, "SELECT id, result_json FROM confirmations WHERE problem = ? AND hash = ?");
  row.bind(1, c.problem).bind(2, c.hash);
  if (row.step() == SQLITE_ROW) {
    c.id = row.integer(0);
    c.result_json = row.text(1);
  }
  return true;
}

std::vector<ConfirmationRow> RunStore::confirmations(const std::string& problem) const {
  std::vector<ConfirmationRow> out;
  Statement s(db_,
              "SELECT id, problem, hash, verdict, time_ms, timing_min_ms, result_json, wall_s FROM confirmations "
              "WHERE ?1 = '' OR problem = ?1 ORDER BY id");
  if (!s.ok()) return out;  // a read-only store from before confirmations existed
  s.bind(1, problem);
  while (s.step() == SQLITE_ROW)
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), s.real(4), s.real(5), s.text(6), s.real(7)});
  return out;
}

}  // namespace ucutlass::store
