// The run store: round trips, uniqueness per (problem, hash), and survival of
// kill -9 in the middle of a stream of writes.
#include "store/run_store.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <gtest/gtest.h>

namespace ucutlass::store {
namespace {

std::string temp_store(const std::string& tag) {
  std::string path = std::filesystem::temp_directory_path() / ("ucutlass_store_" + tag + "_" + std::to_string(::getpid()) + ".sqlite");
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  return path;
}

AttemptRow attempt(const std::string& problem, int i) {
  AttemptRow a;
  a.problem = problem;
  a.hash = "h" + std::to_string(i);
  a.dsl = "kernel k = gemm(m = 1, n = 1, k = 1)";
  a.config = "cfg " + std::to_string(i);
  a.verdict = i % 3 ? "ok" : "incorrect";
  a.time_ms = 1.0 + i;
  a.result_json = "{\"verdict\": \"" + a.verdict + "\"}";
  return a;
}

TEST(RunStore, RoundTripAndUniqueness) {
  const std::string path = temp_store("roundtrip");
  std::string err;
  auto s = RunStore::open(path, &err);
  ASSERT_TRUE(s) << err;
  ASSERT_TRUE(s->set_option("epsilon", "2.5"));
  ASSERT_TRUE(s->set_option("epsilon", "0.25"));
  EXPECT_EQ(s->option("epsilon").value_or(""), "0.25");
  ASSERT_TRUE(s->upsert_problem({"p1", "p1.py", 0.3, 1.2, 1.1, "open"}));
  ASSERT_TRUE(s->upsert_problem({"p1", "p1.py", 0.3, 1.2, 1.1, "stopped:sol"}));
  EXPECT_EQ(s->problem("p1")->status, "stopped:sol");
  AttemptRow a = attempt("p1", 1), b = attempt("p1", 2), c = attempt("p2", 1);
  ASSERT_TRUE(s->record_attempt(a));
  ASSERT_TRUE(s->record_attempt(b));
  ASSERT_TRUE(s->record_attempt(c));
  EXPECT_EQ(a.seq, 1);
  EXPECT_EQ(b.seq, 2);
  EXPECT_EQ(c.seq, 1);
  AttemptRow again = attempt("p1", 1);
  EXPECT_FALSE(s->record_attempt(again));  // never repeated
  EXPECT_TRUE(s->has_attempt("p1", "h2"));
  EXPECT_FALSE(s->has_attempt("p2", "h2"));
  std::vector<AttemptRow> all = s->attempts();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(s->attempt_count(), 3u);
  EXPECT_EQ(s->attempts("p1").size(), 2u);
  EXPECT_EQ(all[1].config, "cfg 2");
  EXPECT_DOUBLE_EQ(all[1].time_ms, 3.0);
  s.reset();
  auto reopened = RunStore::open(path, &err);
  ASSERT_TRUE(reopened) << err;
  EXPECT_EQ(reopened->attempts().size(), 3u);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(RunStore, AnUnmeasuredTimeKeepsTheStoredOne) {
  const std::string path = temp_store("upsert");
  std::string err;
  auto store = RunStore::open(path, &err);
  ASSERT_TRUE(store) << err;
  ASSERT_TRUE(store->upsert_problem({"p", "p.py", 0.1, 6.0, 4.0, "open"}));
  ASSERT_TRUE(store->upsert_problem({"p", "p.py", 0.2, 0.0, 0.0, "stopped:near-sol"}));
  std::optional<ProblemRow> row = store->problem("p");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->eager_ms, 6.0);
  EXPECT_EQ(row->compile_ms, 4.0);
  EXPECT_EQ(row->sol_ms, 0.2);
  EXPECT_EQ(row->status, "stopped:near-sol");
  ASSERT_TRUE(store->upsert_problem({"p", "p.py", 0.2, 5.5, 0.0, "open"}));
  EXPECT_EQ(store->problem("p")->eager_ms, 5.5);
  store.reset();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

TEST(RunStore, ForgetsOnlyWhatTheHarnessFailedBeforeTheCandidateRan) {
  const std::string path = temp_store("forget");
  std::string err;
  auto store = RunStore::open(path, &err);
  ASSERT_TRUE(store) << err;
  AttemptRow setup = attempt("p", 1), compile = attempt("p", 2), ok = attempt("p", 4);
  setup.verdict = compile.verdict = "runtime_error";
  setup.result_json = R"({"verdict": "runtime_error", "error": {"kind": "runtime_error", "phase": "setup"}})";
  compile.result_json = R"({"verdict": "runtime_error", "error": {"kind": "runtime_error", "phase": "compile"}})";
  for (AttemptRow* a : {&setup, &compile, &ok}) ASSERT_TRUE(store->record_attempt(*a)) << store->last_error();
  EXPECT_EQ(store->forget_harness_failures(), 1u);
  EXPECT_FALSE(store->has_attempt("p", setup.hash));
  EXPECT_TRUE(store->has_attempt("p", compile.hash));
  EXPECT_TRUE(store->has_attempt("p", ok.hash));
  // Tried again, it takes the next seq: no (problem, seq) repeats.
  AttemptRow again = setup;
  again.verdict = "ok";
  again.result_json = R"({"verdict": "ok"})";
  ASSERT_TRUE(store->record_attempt(again));
  EXPECT_EQ(again.seq, 4);
  EXPECT_EQ(store->forget_harness_failures(), 0u);
  store.reset();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

TEST(RunStore, ForgetsOneAttemptByIdAndTheNextTakesTheNextSeq) {
  const std::string path = temp_store("forget_one");
  std::string err;
  auto s = RunStore::open(path, &err);
  ASSERT_TRUE(s) << err;
  AttemptRow a = attempt("p1", 1), b = attempt("p1", 2);
  ASSERT_TRUE(s->record_attempt(a) && s->record_attempt(b));
  EXPECT_TRUE(s->forget_attempt(b.id));
  EXPECT_FALSE(s->forget_attempt(b.id));
  EXPECT_FALSE(s->has_attempt("p1", b.hash));
  ASSERT_TRUE(s->record_attempt(b));  // evaluated again: recorded as a new attempt
  EXPECT_EQ(b.seq, 2);
  EXPECT_EQ(s->attempt_count(), 2u);
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

TEST(RunStore, ReadOnlyOpenLeavesTheFileAsItWas) {
  // replay reads committed campaign stores: opening one must not rewrite it (the read-write open
  // switches the journal to WAL, which changed a checkpointed store's header bytes).
  const std::string path = temp_store("readonly");
  std::string err;
  {
    auto s = RunStore::open(path, &err);
    ASSERT_TRUE(s) << err;
    AttemptRow a = attempt("p1", 1);
    ASSERT_TRUE(s->record_attempt(a));
  }
  {  // as a committed store is kept: checkpointed, one file
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  const std::string before = file_bytes(path);
  {
    auto r = RunStore::open_read_only(path, &err);
    ASSERT_TRUE(r) << err;
    EXPECT_EQ(r->attempts("p1").size(), 1u);
    AttemptRow b = attempt("p1", 2);
    EXPECT_FALSE(r->record_attempt(b));  // read only
  }
  EXPECT_EQ(file_bytes(path), before);
  EXPECT_FALSE(RunStore::open_read_only(path + ".missing", &err));
  EXPECT_NE(err.find(".missing"), std::string::npos) << err;
}

TEST(RunStore, ConfirmationsRoundTripOncePerProgramAndAnOlderStoreHasNone) {
  const std::string path = temp_store("confirm");
  std::string err;
  {
    auto s = RunStore::open(path, &err);
    ASSERT_TRUE(s) << err;
    EXPECT_TRUE(s->confirmations().empty());
    ConfirmationRow c{0, "p1", "h1", "ok", 0.26, 1000, "{}", 3.5};
    ASSERT_TRUE(s->record_confirmation(c)) << s->last_error();
    EXPECT_GT(c.id, 0);
    ConfirmationRow again{0, "p1", "h1", "ok", 0.25, 1000, "{}", 3.0};
    EXPECT_FALSE(s->record_confirmation(again));  // one per (problem, program)
    ConfirmationRow failed{0, "p1", "h2", "incorrect", 0, 1000, "{}", 2.0};
    ASSERT_TRUE(s->record_confirmation(failed));
    ConfirmationRow other{0, "p2", "h1", "ok", 1.5, 1000, "{}", 2.0};
    ASSERT_TRUE(s->record_confirmation(other));
    EXPECT_TRUE(s->has_confirmation("p1", "h2"));
    EXPECT_FALSE(s->has_confirmation("p2", "h2"));
    // No concurrent_builds in the result: idle (no build ran beside it before overlapped builds).
    EXPECT_TRUE(s->has_idle_confirmation("p1", "h1"));
    ConfirmationRow beside{0, "p3", "h1", "ok", 0.30, 1000, R"({"concurrent_builds": 5})", 2.0};
    ASSERT_TRUE(s->record_confirmation(beside));
    EXPECT_TRUE(s->has_confirmation("p3", "h1"));
    EXPECT_FALSE(s->has_idle_confirmation("p3", "h1"));
    ConfirmationRow idle{0, "p3", "h1", "ok", 0.27, 1000, R"({"concurrent_builds": 0})", 2.0};
    ASSERT_TRUE(s->replace_confirmation(idle)) << s->last_error();
    EXPECT_EQ(idle.id, beside.id);
    // The old figures under "replaces", beside the new result's own.
    EXPECT_EQ(s->confirmations("p3")[0].result_json,
              R"({"concurrent_builds":0,"replaces":{"verdict":"ok","time_ms":0.3,"timing_min_ms":1000.0,"concurrent_builds":5,"solution_sha256":null}})");
    EXPECT_EQ(idle.result_json, s->confirmations("p3")[0].result_json);
    EXPECT_TRUE(s->has_idle_confirmation("p3", "h1"));
    // Of one file: a re-measurement of the same program written another way (other host code) is due again.
    EXPECT_FALSE(s->has_idle_confirmation("p3", "h1", "aa11"));
    ConfirmationRow of_file{0, "p3", "h1", "ok", 0.25, 1000, R"({"concurrent_builds":0,"solution":{"sha256":"aa11"}})", 2.0};
    ASSERT_TRUE(s->replace_confirmation(of_file)) << s->last_error();
    EXPECT_TRUE(s->has_idle_confirmation("p3", "h1", "aa11"));
    EXPECT_TRUE(s->has_idle_confirmation("p3", "h1"));
    EXPECT_FALSE(s->has_idle_confirmation("p3", "h1", "bb22"));
    ConfirmationRow next_file{0, "p3", "h1", "ok", 0.24, 1000, R"({"concurrent_builds":0,"solution":{"sha256":"bb22"}})", 2.0};
    ASSERT_TRUE(s->replace_confirmation(next_file)) << s->last_error();
    EXPECT_NE(s->confirmations("p3")[0].result_json.find(R"("solution_sha256":"aa11")"), std::string::npos)
        << s->confirmations("p3")[0].result_json;
    EXPECT_TRUE(s->has_idle_confirmation("p3", "h1", "bb22"));
    EXPECT_DOUBLE_EQ(s->confirmations("p3")[0].time_ms, 0.24);
    ConfirmationRow none{0, "p4", "h9", "ok", 1.0, 1000, "{}", 1.0};
    EXPECT_FALSE(s->replace_confirmation(none));
    EXPECT_NE(s->last_error().find("no re-measurement of p4 program h9 to replace"), std::string::npos) << s->last_error();
    ASSERT_EQ(s->confirmations("p3").size(), 1u);
    const std::vector<ConfirmationRow> p1 = s->confirmations("p1");
    ASSERT_EQ(p1.size(), 2u);
    EXPECT_EQ(p1[0].hash, "h1");
    EXPECT_DOUBLE_EQ(p1[0].time_ms, 0.26);  // the first kept, not the second
    EXPECT_DOUBLE_EQ(p1[0].timing_min_ms, 1000);
    EXPECT_EQ(p1[1].verdict, "incorrect");
    EXPECT_EQ(s->confirmations().size(), 4u);
    EXPECT_EQ(s->attempt_count(), 0u);  // not attempts
  }
  // A store written before confirmations existed, read where it is committed (read-only): none.
  const std::string old = temp_store("confirm_old");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(old.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "CREATE TABLE problems (name TEXT PRIMARY KEY, file TEXT NOT NULL, sol_ms REAL NOT NULL, "
                           "eager_ms REAL NOT NULL, compile_ms REAL NOT NULL, status TEXT NOT NULL);"
                           "CREATE TABLE attempts (id INTEGER PRIMARY KEY, problem TEXT NOT NULL);",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  auto r = RunStore::open_read_only(old, &err);
  ASSERT_TRUE(r) << err;
  EXPECT_TRUE(r->confirmations().empty());
  EXPECT_FALSE(r->has_confirmation("p1", "h1"));
  for (const std::string& f : {path, old})
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(f + suffix);
}

TEST(RunStore, SurvivesKillNineAndResumesWithoutRepeats) {
  const std::string path = temp_store("kill9");
  std::string err;
  { ASSERT_TRUE(RunStore::open(path, &err)) << err; }
  const int total = 100000;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto s = RunStore::open(path, &err);
    for (int i = 0; s && i < total; ++i) {
      AttemptRow a = attempt("p", i);
      s->record_attempt(a);
    }
    _exit(0);
  }
  // Let it write for a while, then kill it mid-stream.
  auto reader = RunStore::open(path, &err);
  ASSERT_TRUE(reader) << err;
  for (int i = 0; i < 400 && reader->attempts("p").size() < 50; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  reader.reset();

  auto s = RunStore::open(path, &err);
  ASSERT_TRUE(s) << err;
  std::vector<AttemptRow> done = s->attempts("p");
  ASSERT_GE(done.size(), 50u);
  ASSERT_LT(done.size(), static_cast<size_t>(total));
  // Finished attempts are complete and numbered 1..n without gaps.
  for (size_t i = 0; i < done.size(); ++i) {
    EXPECT_EQ(done[i].seq, static_cast<int>(i) + 1);
    EXPECT_EQ(done[i].hash, "h" + std::to_string(i));
    EXPECT_FALSE(done[i].result_json.empty());
  }
  // Resume: the deterministic candidate stream skips what is recorded.
  int repeated = 0, added = 0;
  for (int i = 0; i < static_cast<int>(done.size()) + 10; ++i) {
    if (s->has_attempt("p", "h" + std::to_string(i))) {
      ++repeated;
      continue;
    }
    AttemptRow a = attempt("p", i);
    ASSERT_TRUE(s->record_attempt(a)) << s->last_error();
    ++added;
  }
  EXPECT_EQ(repeated, static_cast<int>(done.size()));
  EXPECT_EQ(added, 10);
  EXPECT_EQ(s->attempts("p").size(), done.size() + 10);
}

}  // namespace
}  // namespace ucutlass::store
