#include "exec/unrecorded_evaluations.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ucutlass {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class UnrecordedEvaluations : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("ucutlass_unrecorded_" + std::to_string(::getpid()));
    fs::remove_all(root);
    dir = root / "level1_001";
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(root); }
  fs::path root, dir;
};

TEST_F(UnrecordedEvaluations, MetaRoundTripsAndACutShortOneIsNone) {
  const fs::path sol = dir / "attempt_abc.py";
  EXPECT_EQ(attempt_meta_path(sol), dir / "attempt_abc.meta.json");
  EXPECT_FALSE(read_attempt_meta(sol));
  write_attempt_meta(sol, {"level1_001", "abc", "kernel k = gemm(m = 1)", "sm90a tf32", 0.25});
  const std::optional<AttemptMeta> m = read_attempt_meta(sol);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->problem, "level1_001");
  EXPECT_EQ(m->hash, "abc");
  EXPECT_EQ(m->dsl, "kernel k = gemm(m = 1)");
  EXPECT_EQ(m->config, "sm90a tf32");
  EXPECT_EQ(m->estimate_ms, 0.25);
  const std::string text = read(attempt_meta_path(sol));
  write(attempt_meta_path(sol), text.substr(0, text.size() / 2));  // a kill mid-write of an older format
  EXPECT_FALSE(read_attempt_meta(sol));
}

// A killed run left three evaluations unstored: one finished with its meta (a program the resumed run's
// new ranking may never propose), one cut short, one finished by a run that wrote no meta. Only the
// first can be recorded without evaluating again, once, and it is the problem's fastest.
TEST_F(UnrecordedEvaluations, AFinishedEvaluationWithItsMetaIsRecordedOnce) {
  const fs::path round = root / "evals" / "round_3_99";
  const fs::path a = dir / "attempt_aaa.py", b = dir / "attempt_bbb.py", c = dir / "attempt_ccc.py";
  write(round / "pairs.json", "[{\"problem\": \"p.py\", \"solution\": \"" + a.string() + "\"}, {\"problem\": \"p.py\", \"solution\": \"" +
                                  b.string() + "\"}, {\"problem\": \"p.py\", \"solution\": \"" + c.string() + "\"}]");
  const std::string ok = R"({"verdict": "ok", "timing": {"candidate": {"median_ms": 1.5}, "eager": {"median_ms": 3.0}}, "signals": []})";
  write(round / "000_attempt_aaa.json", ok);
  write(round / "001_attempt_bbb.json", R"({"verdict": "o)");  // cut short by the kill
  write(round / "002_attempt_ccc.json", ok);
  write(a, "# the solution aaa\n");
  write(b, "# the solution bbb\n");
  write(c, "# the solution ccc\n");
  write_attempt_meta(a, {"level1_001", "aaa", "kernel aaa", "config aaa"});
  write_attempt_meta(b, {"level1_001", "bbb", "kernel bbb", "config bbb"});

  std::map<std::string, std::string> unrecorded = evaluation_result_files(root / "evals");
  ASSERT_EQ(unrecorded.size(), 3u);
  EXPECT_EQ(unrecorded.at(a.string()), (round / "000_attempt_aaa.json").string());

  std::string err;
  std::unique_ptr<store::RunStore> s = store::RunStore::open((root / "campaign.sqlite").string(), &err);
  ASSERT_TRUE(s) << err;
  s->upsert_problem({"level1_001", "p.py", 0.1, 3.0, 0, "open"});
  store::AttemptRow earlier;
  earlier.problem = "level1_001";
  earlier.hash = "old";
  earlier.verdict = "ok";
  earlier.time_ms = 2.0;
  s->record_attempt(earlier);
  write(dir / "modelnew.py", "# the old best\n");

  const std::vector<ProblemPlace> places{{"level1_001", dir, 3.0, 0}};
  EXPECT_EQ(record_unrecorded_evaluations(unrecorded, places, *s), 1);
  const std::vector<store::AttemptRow> rows = s->attempts("level1_001");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].hash, "aaa");
  EXPECT_EQ(rows[1].verdict, "ok");
  EXPECT_EQ(rows[1].time_ms, 1.5);
  EXPECT_EQ(rows[1].eager_ms, 3.0);
  EXPECT_EQ(rows[1].config, "config aaa");
  EXPECT_EQ(read(dir / "modelnew.py"), "# the solution aaa\n");
  EXPECT_EQ(read(dir / "kernel.dsl"), "kernel aaa");
  EXPECT_EQ(unrecorded.count(a.string()), 0u);  // the others stay for the run to evaluate or propose again
  EXPECT_EQ(unrecorded.size(), 2u);

  // Resumed again: nothing twice.
  std::map<std::string, std::string> again = evaluation_result_files(root / "evals");
  EXPECT_EQ(record_unrecorded_evaluations(again, places, *s), 0);
  EXPECT_EQ(s->attempts("level1_001").size(), 2u);
}

TEST_F(UnrecordedEvaluations, ADeadlineKeptFromStartingIsNoEvaluation) {
  EXPECT_FALSE(is_finished_evaluation(nlohmann::json::parse(R"({"verdict": "not_run"})")));
  EXPECT_FALSE(is_finished_evaluation(nlohmann::json()));
  EXPECT_TRUE(is_finished_evaluation(nlohmann::json::parse(R"({"verdict": "incorrect"})")));
}

}  // namespace
}  // namespace ucutlass
