// End-to-end tests of the ucutlass executable: exit codes, exact diagnostics,
// byte-identical emission, and the harness-driven subcommands.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "exec/subprocess.h"
#include "store/config_kernels.h"
#include "store/run_store.h"
#include "support/sha256.h"

namespace ucutlass {
namespace {

namespace fs = std::filesystem;

ProcessResult ucutlass(std::vector<std::string> args, double timeout_s = 120) {
  args.insert(args.begin(), UCUTLASS_BINARY);
  ProcessOptions o;
  o.timeout_s = timeout_s;
  o.working_dir = UCUTLASS_SOURCE_DIR;
  return run_process(args, o);
}

std::string temp_file(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("ucutlass_cli_test_" + std::to_string(getpid()) + "_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A store row of one recorded attempt, as an earlier run would have left it.
store::AttemptRow recorded_row(const std::string& problem, const std::string& hash, const std::string& dsl,
                               const std::string& config, const std::string& verdict, double ms, double eager_ms) {
  store::AttemptRow row;
  row.problem = problem;
  row.hash = hash;
  row.dsl = dsl;
  row.config = config;
  row.verdict = verdict;
  row.time_ms = ms;
  row.eager_ms = eager_ms;
  row.signals = "[]";
  row.result_json = "{}";
  return row;
}

TEST(Cli, VersionAndUsage) {
  ProcessResult v = ucutlass({"--version"});
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(v.out.rfind("ucutlass ", 0), 0u) << v.out;
  EXPECT_EQ(ucutlass({}).exit_code, 2);
  EXPECT_EQ(ucutlass({"check", "--no-such-flag", "x.dsl"}).exit_code, 2);
  EXPECT_EQ(ucutlass({"frobnicate"}).exit_code, 2);
  for (const char* sub : {"check", "compile", "build", "trace", "eval", "sol", "calibrate"}) {
    ProcessResult h = ucutlass({sub, "--help"});
    EXPECT_TRUE(h.ok()) << sub;
    EXPECT_NE(h.out.find("--json"), std::string::npos) << sub;
  }
}

TEST(Cli, ExamplesAreLegal) {
  std::vector<std::string> args = {"check"};
  for (const auto& e : fs::directory_iterator(fs::path(UCUTLASS_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".dsl") args.push_back(e.path().string());
  ASSERT_GE(args.size(), 9u);
  ProcessResult r = ucutlass(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(Cli, CheckCountsAndPrintsPipelines) {
  ProcessResult r = ucutlass({"check", "--resolved", "examples/17_mlp_pipeline.dsl"});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("examples/17_mlp_pipeline.dsl: ok (2 kernels, 1 pipeline, hash "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pipeline mlp\n  inputs=x,w1,b1,w2,b2\n"), std::string::npos) << r.out;
}

TEST(Cli, CheckPrintsEveryErrorWithLocationAndExitsOne) {
  std::string f = temp_file("bad.dsl",
                            "kernel k = gemm(m = 64, n = 64, k = 64)\n"
                            "  .with_tile(96, 128, 64)\n"
                            "  .with_cluster(1, 1, 2)\n");
  ProcessResult r = ucutlass({"check", f});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            f + ":2:4: error: tile M = 96 is not a multiple of 64 in [64, 256]\n"
                "    .with_tile(96, 128, 64)\n"
                "     ^~~~~~~~~~~~~~~~~~~~~~\n"
                "  legal: 64, 128, 192, 256\n" +
                f + ":3:4: error: cluster K must be 1, not 2\n"
                    "    .with_cluster(1, 1, 2)\n"
                    "     ^~~~~~~~~~~~~~~~~~~~~\n"
                    "  legal: (M, N, 1)\n"
                    "2 errors in " + f + "\n");
  fs::remove(f);
}

TEST(Cli, BadInputNeverCrashes) {
  std::string garbage;
  for (int i = 0; i < 20000; ++i) garbage.push_back(static_cast<char>((i * 131 + 7) % 256));
  std::vector<std::string> inputs = {"", garbage, "kernel", "kernel k = gemm(", "\"", std::string(100000, '('),
                                     "kernel k = gemm(m = 99999999999999999999999)"};
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string f = temp_file("in" + std::to_string(i) + ".dsl", inputs[i]);
    ProcessResult r = ucutlass({"check", f}, 20);
    EXPECT_TRUE(r.exited) << "input " << i << ": " << r.describe();
    EXPECT_EQ(r.exit_code, 1) << "input " << i;
    fs::remove(f);
  }
  EXPECT_EQ(ucutlass({"check", "/no/such/file.dsl"}).exit_code, 2);
}

TEST(Cli, CompileIsByteIdenticalAcrossRuns) {
  fs::path a = fs::temp_directory_path() / ("ucutlass_cli_a_" + std::to_string(getpid()));
  fs::path b = fs::temp_directory_path() / ("ucutlass_cli_b_" + std::to_string(getpid()));
  ASSERT_TRUE(ucutlass({"compile", "examples/04_linear_bias_relu.dsl", "-o", a.string()}).ok());
  ASSERT_TRUE(ucutlass({"compile", "examples/04_linear_bias_relu.dsl", "-o", b.string()}).ok());
  int files = 0;
  for (const auto& e : fs::directory_iterator(a)) {
    ++files;
    EXPECT_EQ(read(e.path()), read(b / e.path().filename())) << e.path();
    EXPECT_EQ(e.path().filename().string().rfind("ucutlass_", 0), 0u);
  }
  EXPECT_EQ(files, 4);
  fs::remove_all(a);
  fs::remove_all(b);
}

TEST(Cli, EvalReportsMissingFilesAsUsageErrors) {
  ProcessResult r = ucutlass({"eval", "/no/such/problem.py", "/no/such/solution.py"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

TEST(Cli, OptimizeWithoutGpuWritesASolutionAndTakesBaselinesFromAFile) {
  const fs::path out = fs::temp_directory_path() / ("ucutlass_cli_opt_" + std::to_string(getpid()));
  const std::string baselines = temp_file("baselines.json",
                                          R"({"level1": {"014_gemm_bf16_inputs.py": {"mean": 1.5, "median": 1.4}},
                                              "level1_compile": {"014_gemm_bf16_inputs.py": {"mean": 1.6}}})");
  ProcessResult r = ucutlass({"optimize", "tests/optimize/graphs/level1_014_gemm_bf16_inputs.json", "--no-gpu", "--no-compile", "-o",
                              out.string(), "--baselines", baselines, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out / "level1_014_gemm_bf16_inputs" / "modelnew.py"));
  EXPECT_NE(r.out.find("GPU evaluation: --no-gpu given"), std::string::npos) << r.out;
  // The baseline file's median (eager) and mean (compile, no median recorded) reach the store.
  ProcessResult q = run_process({"python3", "-c",
                                 "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("
                                 "'select eager_ms, compile_ms from problems').fetchall())",
                                 (out / "campaign.sqlite").string()});
  EXPECT_EQ(q.out, "[(1.4, 1.6)]\n") << q.err;
  // The ranking model's prediction against that eager time: eager / the written solution's estimate.
  const nlohmann::json summary = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(summary.contains("predicted")) << r.out;
  EXPECT_EQ(summary["predicted"].value("problems_with_baseline", 0), 1);
  std::ifstream report(out / "level1_014_gemm_bf16_inputs" / "report.txt");
  const std::string text{std::istreambuf_iterator<char>(report), std::istreambuf_iterator<char>()};
  const size_t at = text.find(", estimated ");
  ASSERT_NE(at, std::string::npos) << text;
  const double estimate = std::stod(text.substr(at + 12));
  // report.txt prints the estimate to 6 significant digits.
  EXPECT_NEAR(summary["predicted"].value("suite_geomean_vs_eager", 0.0), 1.4 / estimate, 1e-5 * (1.4 / estimate));
  EXPECT_EQ(summary["predicted"].value("below_1x", -1), 1.4 / estimate < 1 ? 1 : 0);
  fs::remove_all(out);
}

TEST(Cli, PlanShowsTheNextRoundOfAResumedCampaign) {
  // The kernelbench campaign of 2026-11-30 as it stood after its fourth call (a fixture: the campaign
  // itself goes on in bench/results), copied: level1/016's best there is a split-K GEMM
  // at 0.30 ms; today's ranking puts a GEMV first, which that campaign never measured. --plan folds the
  // recorded attempts in, calibrates the model on the best one and prints the next round without a GPU.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_plan_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/stores/kbsuite-b-2026-11-30-call4.sqlite", dir / "c.sqlite");
  ProcessResult r = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--store", (dir / "c.sqlite").string(),
                              "-o", (dir / "o").string(), "--plan", "--batch", "1", "--no-round-fill"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("level1_016_gemv: expected gain ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const size_t next = r.out.find("next expected ", at);
  ASSERT_NE(next, std::string::npos) << r.out;
  const double expected_ms = std::stod(r.out.substr(next + 14));
  EXPECT_GT(expected_ms, 0.1) << r.out;  // the GEMV's estimate, calibrated by 0.30 ms measured on the GEMM
  EXPECT_LT(expected_ms, 0.2) << r.out;
  EXPECT_NE(r.out.find("gemv access", next), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GPU evaluation: --plan given"), std::string::npos) << r.out;
  // What the stop rules leave: level1/016 is slower than PyTorch in that store (4 attempts), so the
  // window does not bound it and its budget of 40 does.
  EXPECT_NE(r.out.find("left: 1 problem(s) open, 36 attempt(s) unless a problem improves, at most 36 by the budgets\n"),
            std::string::npos)
      << r.out;
  // The store's three level2/017 attempts flagged gamed:result_reuse by the reuse check's bare 1e-4 (the
  // trials had passed them through the native atol) are forgotten, to be evaluated again.
  EXPECT_NE(r.err.find("store: 3 attempt(s) flagged gamed by the result-reuse or timed-audit check at the bare profile atol "
                       "(correctness rules < 3) are forgotten and tried again"),
            std::string::npos)
      << r.err;
  {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open_read_only((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    for (const store::AttemptRow& a : st->attempts()) EXPECT_NE(a.verdict.rfind("gamed:", 0), 0u) << a.problem << " " << a.seq;
  }
  // The written solution is the recorded best (the split-K GEMM, program 044e03f3cd06f788), which
  // today's code writes as it was measured; not the ranking's untried first pick.
  std::ifstream written(dir / "o" / "level1_016_gemv" / "modelnew.py");
  std::string head;
  std::getline(written, head);
  EXPECT_NE(head.find("program 044e03f3cd06f788"), std::string::npos) << head;
  // Nothing was built or evaluated: no attempt file, and the store holds the campaign's attempts alone.
  EXPECT_FALSE(fs::exists(dir / "o" / "evals"));
  // With --json the round is the summary's "plan", and stdout stays one JSON document.
  ProcessResult j = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--store", (dir / "c.sqlite").string(),
                              "-o", (dir / "o").string(), "--plan", "--batch", "1", "--no-round-fill", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json summary = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_TRUE(summary.contains("plan")) << j.out;
  ASSERT_EQ(summary["plan"].size(), 1u) << j.out;
  EXPECT_EQ(summary["plan"][0].value("problem", ""), "level1_016_gemv");
  EXPECT_EQ(summary["plan_attempts_left"], nlohmann::json({{"open", 1}, {"unless_improved", 36}, {"at_most", 36}})) << j.out;
  EXPECT_NEAR(summary["plan"][0].value("next_expected_ms", 0.0), expected_ms, 1e-5 * expected_ms) << j.out;  // text: 6 digits
  ASSERT_EQ(summary["plan"][0]["configs"].size(), 1u) << j.out;
  EXPECT_NE(summary["plan"][0]["configs"][0].get<std::string>().find("gemv"), std::string::npos) << j.out;
  // Each config's own estimate, as the store will record it with the attempt (estimate_ms).
  ASSERT_EQ(summary["plan"][0]["estimates_ms"].size(), 1u) << j.out;
  EXPECT_GT(summary["plan"][0]["estimates_ms"][0].get<double>(), 0.0) << j.out;
  // One problem open and four build slots: the round fills them (sched/round_fill.h). level1/016 is
  // slower than PyTorch there, so its window does not bound the round.
  ProcessResult filled = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--store", (dir / "c.sqlite").string(),
                                   "-o", (dir / "o").string(), "--plan", "--batch", "1", "-j", "4", "--json"});
  ASSERT_EQ(filled.exit_code, 0) << filled.err;
  const nlohmann::json round = nlohmann::json::parse(filled.out, nullptr, false);
  ASSERT_TRUE(round.contains("plan") && round["plan"].size() == 1u) << filled.out;
  // The same round as --batch 4 (3 configs here: the walk's four picks hold one the store has measured).
  ProcessResult four = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--store", (dir / "c.sqlite").string(),
                                 "-o", (dir / "o").string(), "--plan", "--batch", "4", "--no-round-fill", "--json"});
  ASSERT_EQ(four.exit_code, 0) << four.err;
  const nlohmann::json batch4 = nlohmann::json::parse(four.out, nullptr, false);
  ASSERT_TRUE(batch4.contains("plan") && batch4["plan"].size() == 1u) << four.out;
  EXPECT_GT(round["plan"][0]["configs"].size(), 1u) << filled.out;
  EXPECT_EQ(round["plan"][0]["configs"], batch4["plan"][0]["configs"]) << filled.out;
  fs::remove_all(dir);
}

TEST(Cli, AResumeReMeasuresItsWrittenSolutionOnceBesideTheRound) {
  // The pinned store's level1/016 best (program 044e03f3cd06f788, 0.30 ms) is written on resume; it was
  // never evaluated again as the written solution, so the round re-measures it in the harness's own
  // window (built again: an earlier call built it). Once the store holds that re-measurement, it is not
  // due; --no-remeasure leaves it out.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_remeasure_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/stores/kbsuite-b-2026-11-30-call4.sqlite", dir / "c.sqlite");
  const std::string graph = "tests/optimize/graphs/level1_016_gemv.json";
  auto plan = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                     "--plan", "--batch", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return ucutlass(args);
  };
  ProcessResult r = plan({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("re-measured in the round (1 written solution(s) evaluated again, 1000 ms window):\n"
                       "  level1_016_gemv: program 044e03f3cd06f788, 0.300816 ms as an attempt (built again)\n"),
            std::string::npos)
      << r.out;
  ProcessResult j = plan({"--json", "--remeasure-ms", "2000"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json due = nlohmann::json::parse(j.out, nullptr, false)["plan_remeasures"];
  ASSERT_EQ(due.size(), 1u) << j.out;
  EXPECT_EQ(due[0].value("hash", ""), "044e03f3cd06f788");
  EXPECT_FALSE(due[0].value("built_here", true));
  EXPECT_EQ(plan({"--no-remeasure"}).out.find("re-measured"), std::string::npos);
  {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    // Taken beside 7 builds (as session 18's were): due once more, on an idle host.
    store::ConfirmationRow beside{0, "level1_016_gemv", "044e03f3cd06f788", "ok", 0.36, 1000, R"({"concurrent_builds": 7})", 4};
    ASSERT_TRUE(st->record_confirmation(beside)) << st->last_error();
  }
  r = plan({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  level1_016_gemv: program 044e03f3cd06f788, 0.300816 ms as an attempt (built again)\n"), std::string::npos)
      << r.out;
  // On an idle host but of another file (the host code around the same program has changed since): due
  // again. Of the file written now: done.
  const std::string written_sha = sha256_hex(read(dir / "o" / "level1_016_gemv" / "modelnew.py"));
  ASSERT_EQ(written_sha.size(), 64u);
  for (const std::string& sha : {std::string(64, '0'), written_sha}) {
    {
      std::string err;
      std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
      ASSERT_TRUE(st) << err;
      store::ConfirmationRow c{0, "level1_016_gemv", "044e03f3cd06f788", "ok", 0.31, 1000,
                               R"({"concurrent_builds": 0, "solution": {"sha256": ")" + sha + R"("}})", 4};
      ASSERT_TRUE(st->replace_confirmation(c)) << st->last_error();
    }
    if (sha == written_sha) break;
    r = plan({});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("  level1_016_gemv: program 044e03f3cd06f788, 0.300816 ms as an attempt (built again)\n"),
              std::string::npos)
        << r.out;
  }
  r = plan({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("re-measured in the round"), std::string::npos) << r.out;
  // The suite line reads the re-measurement: level1/016 at 0.31 ms, the store's other bests as they were.
  EXPECT_NE(r.out.find("re-measured (each best's program evaluated again as the written solution): 1 of 30 verified passed again"),
            std::string::npos)
      << r.out;
  fs::remove_all(dir);
}

TEST(Cli, AResumeDoesNotWriteAProgramThatFailedItsReMeasurement) {
  // The pinned store's level1/016 best (044e03f3cd06f788, 0.30 ms) failed when evaluated again: the
  // resume writes the next fastest verified program instead, and re-measures that one.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_failed_remeasure_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/stores/kbsuite-b-2026-11-30-call4.sqlite", dir / "c.sqlite");
  {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    store::ConfirmationRow c{0, "level1_016_gemv", "044e03f3cd06f788", "incorrect", 0, 1000, "{}", 4};
    ASSERT_TRUE(st->record_confirmation(c)) << st->last_error();
  }
  ProcessResult r = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--store", (dir / "c.sqlite").string(),
                              "-o", (dir / "o").string(), "--plan", "--batch", "1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string written = read(dir / "o" / "level1_016_gemv" / "modelnew.py");
  ASSERT_FALSE(written.empty());
  EXPECT_EQ(written.find("044e03f3cd06f788"), std::string::npos) << written.substr(0, 200);
  const nlohmann::json due = nlohmann::json::parse(r.out, nullptr, false)["plan_remeasures"];
  ASSERT_EQ(due.size(), 1u) << r.out;
  EXPECT_NE(due[0].value("hash", ""), "044e03f3cd06f788");
  EXPECT_NE(written.find("program " + due[0].value("hash", "")), std::string::npos) << written.substr(0, 200);
  EXPECT_GT(due[0].value("attempt_ms", 0.0), 0.300816);  // the next fastest, slower than the failed one
  // The scheduler's best is that one's too, not the failed program's time.
  const nlohmann::json picks = nlohmann::json::parse(r.out, nullptr, false)["plan"];
  ASSERT_EQ(picks.size(), 1u) << r.out;
  EXPECT_DOUBLE_EQ(picks[0].value("best_ms", 0.0), due[0].value("attempt_ms", 0.0)) << r.out;
  fs::remove_all(dir);
}

TEST(Cli, AToleranceMissOnOtherInputsDiscreditsItsPathsOtherPasses) {
  // The pinned store's level1/016 best (044e03f3cd06f788, sm80 tf32x3 split-K, 0.30 ms) missed the tolerance
  // when re-measured. On the inputs its attempts ran on, the next sm80 tf32x3 program (fb5821e4fe036e34,
  // stream-K, 0.54 ms) is still written; on other inputs (PyTorch's own error differs in a trial), it is
  // discredited too (store/discredited.h) and the SIMT program (a0eb63447bc0ba6f, 0.60 ms) is written.
  for (const bool other_inputs : {false, true}) {
    const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_discredited_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/stores/kbsuite-b-2026-11-30-call4.sqlite", dir / "c.sqlite");
    {
      std::string err;
      std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
      ASSERT_TRUE(st) << err;
      nlohmann::json result;
      for (const store::AttemptRow& a : st->attempts("level1_016_gemv"))
        if (a.hash == "044e03f3cd06f788") result = nlohmann::json::parse(a.result_json);
      ASSERT_TRUE(result.contains("correctness")) << result.dump().substr(0, 200);
      result["correctness_rules"] = 3;
      if (other_inputs) result["correctness"]["trials"][1]["native_max_abs_err"] = {0.0001};
      store::ConfirmationRow c{0, "level1_016_gemv", "044e03f3cd06f788", "incorrect", 0, 1000, result.dump(), 4};
      ASSERT_TRUE(st->record_confirmation(c)) << st->last_error();
    }
    ProcessResult r = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--store", (dir / "c.sqlite").string(),
                                "-o", (dir / "o").string(), "--plan", "--batch", "1", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json due = nlohmann::json::parse(r.out, nullptr, false)["plan_remeasures"];
    ASSERT_EQ(due.size(), 1u) << r.out;
    EXPECT_EQ(due[0].value("hash", ""), other_inputs ? "a0eb63447bc0ba6f" : "fb5821e4fe036e34") << r.out;
    fs::remove_all(dir);
  }
}

TEST(Cli, ADegenerateProblemIsScheduledOnTheBoundOfWhatTheOptimizerWrites) {
  // level2/015 (y - y: zero whatever the GEMM) has a reduced-problem floor far below any GEMM; the
  // optimizer writes the whole GEMM, so its scheduler bound is the fused one. On the pinned store its
  // 0.42 ms best is within epsilon of that bound and beats PyTorch: it stops, where the reduced floor
  // had it first in the round (expected gain 0.87) ahead of level1/016's GEMV.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_degenerate_" + std::to_string(getpid()));
  fs::create_directories(dir / "graphs");
  for (const char* g : {"level2_015_gemm_minus_self_zero_degenerate.json", "level1_016_gemv.json"})
    fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/graphs" / g, dir / "graphs" / g);
  fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/stores/kbsuite-b-2026-11-30-call4.sqlite", dir / "c.sqlite");
  ProcessResult r = ucutlass({"optimize", (dir / "graphs").string(), "--store", (dir / "c.sqlite").string(), "-o",
                              (dir / "o").string(), "--plan", "--batch", "1", "--batch-problems", "2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json plan = nlohmann::json::parse(r.out, nullptr, false)["plan"];
  ASSERT_EQ(plan.size(), 1u) << r.out;
  EXPECT_EQ(plan[0].value("problem", ""), "level1_016_gemv");
  fs::remove_all(dir);
}

TEST(Cli, AResumeMeasuresAgainABestWhoseProgramTodaysCodeWritesDifferently) {
  // A store whose best level1/016 attempt is the GEMV config today's ranking puts first, recorded under
  // another program hash (the DSL writer changed since): that program was never measured as today's code
  // writes it, so the resume's first round measures it again, and the written solution is not it.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_stale_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string graph = "tests/optimize/graphs/level1_016_gemv.json";
  ProcessResult first = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                  "--plan", "--batch", "1", "--json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const nlohmann::json plan = nlohmann::json::parse(first.out, nullptr, false)["plan"];
  ASSERT_EQ(plan.size(), 1u) << first.out;
  EXPECT_FALSE(plan[0].value("stale_best", true));
  const std::string top = plan[0]["configs"][0].get<std::string>();
  // The program today's code writes for it: the written solution of that first plan (the ranking's lead).
  const std::string first_line = read(dir / "o" / "level1_016_gemv" / "modelnew.py").substr(0, 200);
  const size_t prog = first_line.find("program ");
  ASSERT_NE(prog, std::string::npos) << first_line;
  const std::string todays_hash = first_line.substr(prog + 8, 16);
  {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    store::AttemptRow row = recorded_row("level1_016_gemv", "0123456789abcdef", "(an older writer's program)", top, "ok", 0.12, 0.16);
    ASSERT_TRUE(st->record_attempt(row)) << st->last_error();
  }
  ProcessResult r = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(), "--plan",
                              "--batch", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming: 1 problem(s) whose best recorded program today's code writes differently"), std::string::npos)
      << r.err;
  const size_t at = r.out.find("level1_016_gemv: its best measured again first (today's code writes that program differently)");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("    " + top + "\n", at), r.out.find("\n", at) + 1) << r.out;  // its config first in the round
  // Once per round like any problem: the remeasure must not keep it first for every slot of the round
  // (--batch-problems 4 took it four times, with the walk's same picks each time).
  EXPECT_EQ(r.out.find("level1_016_gemv:", at + 1), std::string::npos) << r.out;
  // Once today's program for that config is in the store (slower: 0.13 ms), it speaks for the config:
  // nothing is stale any more, though the older program's row stays the fastest.
  {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    store::AttemptRow row = recorded_row("level1_016_gemv", todays_hash, "(today's program)", top, "ok", 0.13, 0.16);
    ASSERT_TRUE(st->record_attempt(row)) << st->last_error();
  }
  ProcessResult again = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                  "--plan", "--batch", "1", "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("whose best recorded program today's code writes differently"), std::string::npos) << again.err;
  for (const nlohmann::json& pick : nlohmann::json::parse(again.out, nullptr, false)["plan"])
    EXPECT_FALSE(pick.value("stale_best", true)) << again.out;
  fs::remove_all(dir);
}

TEST(Cli, AResumeWritesNoSolutionTheHarnessFailed) {
  // Where no verified program stands, the ranking's unmeasured pick is written, until the store records
  // the harness failing that very program; then no modelnew.py is left (session 32's v0.1 level2/028
  // held its first incorrect attempt). Another program's failure leaves the untried pick written; a
  // reference that disagrees with itself leaves none whatever was tried.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_failed_pick_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string graph = "tests/optimize/graphs/level1_016_gemv.json", name = "level1_016_gemv";
  const fs::path written = dir / "o" / name / "modelnew.py";
  auto plan = [&] {
    return ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(), "--plan", "--batch", "1",
                     "--json"});
  };
  auto record = [&](const std::string& hash, const std::string& verdict, const std::string& signals) {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    store::AttemptRow row = recorded_row(name, hash, "(a program)", "(its config)", verdict, 0, 0.16);
    row.signals = signals;
    ASSERT_TRUE(st->record_attempt(row)) << st->last_error();
  };
  ProcessResult first = plan();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string head = read(written).substr(0, 200);
  const size_t prog = head.find("program ");
  ASSERT_NE(prog, std::string::npos) << head;
  const std::string pick = head.substr(prog + 8, 16);
  record("0123456789abcdef", "incorrect", "[]");
  ProcessResult other = plan();
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_TRUE(fs::exists(written)) << other.err;
  EXPECT_EQ(nlohmann::json::parse(other.out, nullptr, false).value("solutions_written", -1), 1) << other.out;
  record(pick, "compile_error", "[]");
  ProcessResult failed = plan();
  ASSERT_EQ(failed.exit_code, 0) << failed.err;
  EXPECT_FALSE(fs::exists(written));
  EXPECT_FALSE(fs::exists(dir / "o" / name / "kernel.dsl"));
  EXPECT_EQ(nlohmann::json::parse(failed.out, nullptr, false).value("solutions_written", -1), 0) << failed.out;
  const std::string why = "modelnew.py and kernel.dsl are not written: the harness failed its program " + pick + " (attempt 2: compile_error)";
  EXPECT_NE(failed.err.find(name + ": no verified program, and " + why + "\n"), std::string::npos) << failed.err;
  EXPECT_NE(read(dir / "o" / name / "report.txt").find("  no verified attempt: " + why + "\n"), std::string::npos);
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_EQ(plan().exit_code, 0);
  record("0123456789abcdef", "incorrect", R"([{"name":"nondeterministic_reference","fired":true}])");
  ProcessResult random = plan();
  ASSERT_EQ(random.exit_code, 0) << random.err;
  EXPECT_FALSE(fs::exists(written)) << random.err;
  EXPECT_NE(random.err.find("the reference is nondeterministic"), std::string::npos) << random.err;
  fs::remove_all(dir);
}

TEST(Cli, AResumeMeasuresAgainABestOfAnOlderMappingWithFewerKernels) {
  // Session 30's level2/011: its recorded attempts ran the GEMM alone (the logsumexp in PyTorch), before
  // the row kernel took the logsumexp. No recorded config is a pick of today's two-kernel lists, so the
  // resume wrote the ranking's unmeasured pick and stopped near SOL on the old 0.55 ms best. The fastest
  // such attempt's GEMM config, with the ranking's row kernel, is measured again first instead.
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_older_mapping_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string graph = "tests/optimize/graphs/level2_011_gemm_logsumexp.json";
  ProcessResult first = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                  "--plan", "--batch", "1", "--json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const nlohmann::json plan = nlohmann::json::parse(first.out, nullptr, false)["plan"];
  ASSERT_EQ(plan.size(), 1u) << first.out;
  const std::string top = plan[0]["configs"][0].get<std::string>();
  const std::vector<std::string> kernels = store::config_kernels(top);
  ASSERT_EQ(kernels.size(), 2u) << top;  // the GEMM, then the row kernel
  const std::string first_line = read(dir / "o" / "level2_011_gemm_logsumexp" / "modelnew.py").substr(0, 200);
  const size_t prog = first_line.find("program ");
  ASSERT_NE(prog, std::string::npos) << first_line;
  const std::string todays_hash = first_line.substr(prog + 8, 16);
  auto record = [&](const std::string& hash, const std::string& config, double ms) {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    store::AttemptRow row = recorded_row("level2_011_gemm_logsumexp", hash, "(a program)", config, "ok", ms, 0.16);
    ASSERT_TRUE(st->record_attempt(row)) << st->last_error();
  };
  record("0123456789abcdef", kernels[0], 0.05);  // the older mapping: far under 2x SOL, and faster than eager
  ProcessResult r = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(), "--plan",
                              "--batch", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming: 1 problem(s) whose best recorded program today's code writes differently"), std::string::npos)
      << r.err;
  const size_t at = r.out.find("level2_011_gemm_logsumexp: its best measured again first");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("    " + top + "\n", at), r.out.find("\n", at) + 1) << r.out;  // GEMM config + the lead's row kernel
  // Once today's program of it is recorded (slower, 0.09 ms), the older row is superseded: nothing is
  // stale, and the problem's best is today's program.
  record(todays_hash, top, 0.09);
  ProcessResult again = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                  "--plan", "--batch", "1", "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("whose best recorded program today's code writes differently"), std::string::npos) << again.err;
  for (const nlohmann::json& pick : nlohmann::json::parse(again.out, nullptr, false)["plan"]) {
    EXPECT_FALSE(pick.value("stale_best", true)) << again.out;
    if (!pick["best_ms"].is_null()) EXPECT_DOUBLE_EQ(pick["best_ms"].get<double>(), 0.09) << again.out;
  }
  EXPECT_NE(read(dir / "o" / "level2_011_gemm_logsumexp" / "modelnew.py").find("program " + todays_hash), std::string::npos);
  // v0.1 level2/027's store: the older row's extension ran with another row kernel than today's lead.
  // That row supersedes it as well, so the lead's program of it is owed no measurement: nothing is stale.
  fs::remove_all(dir);
  fs::create_directories(dir);
  // (A row kernel no candidate of today's: were it one, today's program of the row would be owed a
  // measurement in its own right, its hash not being this row's.)
  record("0123456789abcdef", kernels[0], 0.05);
  record("fedcba9876543210", kernels[0] + "; sm90a rows access 2 threads 999 items 1 splits 1", 0.09);
  ProcessResult extended = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                     "--plan", "--batch", "1", "--json"});
  ASSERT_EQ(extended.exit_code, 0) << extended.err;
  EXPECT_EQ(extended.err.find("whose best recorded program today's code writes differently"), std::string::npos) << extended.err;
  for (const nlohmann::json& pick : nlohmann::json::parse(extended.out, nullptr, false)["plan"])
    EXPECT_FALSE(pick.value("stale_best", true)) << extended.out;
  fs::remove_all(dir);
}

// level1/011's store held sm80 3xTF32 attempts alone (no sm90a kernel was legal at K = 3079); the padded
// K stacking made sm90a 3xBF16 the ranking's lead. The spent window judged sm80 configs only, so the
// plan tries the lead first; once the store has an attempt of that path, the window stops it again.
TEST(Cli, AnUntriedLeadPathReopensAProblemTheWindowStopped) {
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_lead_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string graph = "tests/optimize/graphs/level1_011_gemm_irregular.json";
  // The programs today's code writes for these configs (hashes as `ucutlass check` prints them); the
  // mapping signature reads the DSL's kernel kinds, one GEMM here.
  const std::string dsl = "kernel gemm0 = gemm(m = 4093, n = 2051, k = 3079)\n  .with_arch(sm80)\n";
  auto record = [&](const std::string& hash, const std::string& config, double ms) {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    st->set_option("timing_window", "stream_only");  // a current store: its eager times count
    store::AttemptRow row = recorded_row("level1_011_gemm_irregular", hash, dsl, config, "ok", ms, 1.37);
    ASSERT_TRUE(st->record_attempt(row)) << st->last_error();
  };
  record("df4e766fc55100d1", "sm80 tf32x3 a=row b=row 128x64x16 multistage auto stages 3", 0.95);
  record("cada106729984a85", "sm80 tf32x3 a=row b=row 64x64x16 multistage auto stages 3", 1.14);
  auto plan_of = [&] {
    ProcessResult r = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                "--plan", "--batch", "1", "--window", "1", "--json", "--profile", "kernelbench-v0.1"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false)["plan"];
  };
  nlohmann::json plan = plan_of();
  ASSERT_EQ(plan.size(), 1u) << plan.dump();
  EXPECT_TRUE(plan[0].value("untried_lead", false)) << plan.dump();
  const std::string lead = plan[0]["configs"][0].get<std::string>();
  EXPECT_EQ(lead.rfind("sm90a tensor_op bf16-operands k-stacked 3x", 0), 0u) << lead;
  record("86d4337db3894dd0", lead, 0.40);  // tried, and faster
  record("5dd41ab80e0e008b", "sm80 tf32x3 a=row b=row 64x128x16 multistage auto stages 3", 1.02);
  const nlohmann::json after = plan_of();
  EXPECT_TRUE(after.empty()) << after.dump();  // no improvement in the last attempt, and no untried lead: stopped
  fs::remove_all(dir);
}

// level2/007's store holds the full chain only (bias and mish fused): the best's twin with one step
// fewer fused (mish left to PyTorch, KernelConfig::fuse_steps) is owed one attempt and goes first; once
// the store has a shorter-chain attempt, nothing is owed.
TEST(Cli, AShorterFusedChainOfTheBestIsOwedOneAttempt) {
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_chain_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string graph = "tests/optimize/graphs/level2_007_gemm_mish.json";
  auto plan_of = [&] {
    ProcessResult r = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                "--plan", "--batch", "1", "--no-round-fill", "--json", "--profile", "kernelbench-v0.1"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false)["plan"];
  };
  // A fresh store: the first pick is the ranking's best honest config, written as the untried solution.
  const nlohmann::json fresh = plan_of();
  ASSERT_EQ(fresh.size(), 1u) << fresh.dump();
  const std::string best = fresh[0]["configs"][0].get<std::string>();
  EXPECT_EQ(best.find(" fused "), std::string::npos) << best;
  std::ifstream written(dir / "o" / "level2_007_gemm_mish" / "modelnew.py");
  std::string head;
  std::getline(written, head);
  const size_t at = head.find("program ");
  ASSERT_NE(at, std::string::npos) << head;
  const std::string hash = head.substr(at + 8, 16);
  const std::string dsl = "kernel gemm0 = gemm(m = 1024, n = 8192, k = 8192)\n  .with_arch(sm90a)\n";
  auto record = [&](const std::string& h, const std::string& config, double ms) {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    st->set_option("timing_window", "stream_only");
    store::AttemptRow row = recorded_row("level2_007_gemm_mish", h, dsl, config, "ok", ms, 2.83);
    ASSERT_TRUE(st->record_attempt(row)) << st->last_error();
  };
  record(hash, best, 0.60);  // beats PyTorch, far enough from SOL to stay open
  const nlohmann::json owed = plan_of();
  ASSERT_EQ(owed.size(), 1u) << owed.dump();
  EXPECT_TRUE(owed[0].value("untried_lead", false)) << owed.dump();
  EXPECT_EQ(owed[0]["configs"][0].get<std::string>(), best + " fused 1") << owed.dump();
  record("0123456789abcdef", best + " fused 1", 0.55);
  const nlohmann::json after = plan_of();
  ASSERT_EQ(after.size(), 1u) << after.dump();
  EXPECT_FALSE(after[0].value("untried_lead", true)) << after.dump();
  fs::remove_all(dir);
}

// A store whose only correct attempt ran other kernels (a program with an attention kernel) leaves
// today's mapping of the problem unproven: the plan says so, and a spent window does not stop it (an
// incorrect attempt after the correct one spends --window 1; 0.5 ms beats eager's 0.6, far from SOL).
TEST(Cli, PlanMarksAMappingWithNoCorrectAttempt) {
  const fs::path dir = fs::temp_directory_path() / ("ucutlass_cli_mapping_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string graph = "tests/optimize/graphs/level1_016_gemv.json";
  auto plan_of = [&] {
    ProcessResult r = ucutlass({"optimize", graph, "--store", (dir / "c.sqlite").string(), "-o", (dir / "o").string(),
                                "--plan", "--batch", "1", "--window", "1", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false)["plan"];
  };
  const nlohmann::json fresh = plan_of();
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_FALSE(fresh[0].value("new_mapping", true));
  {
    std::string err;
    std::unique_ptr<store::RunStore> st = store::RunStore::open((dir / "c.sqlite").string(), &err);
    ASSERT_TRUE(st) << err;
    for (const char* verdict : {"ok", "incorrect"}) {
      store::AttemptRow row = recorded_row("level1_016_gemv", verdict[0] == 'o' ? "fedcba9876543210" : "fedcba9876543211",
                                           "kernel attn0 = attention(batch = 1, seq_q = 64, seq_k = 64, head_dim = 64)\n",
                                           std::string("another mapping, ") + verdict, verdict, verdict[0] == 'o' ? 0.5 : 0.0, 0.6);
      ASSERT_TRUE(st->record_attempt(row)) << st->last_error();
    }
  }
  const nlohmann::json after = plan_of();
  ASSERT_EQ(after.size(), 1u);
  EXPECT_TRUE(after[0].value("new_mapping", false));
  fs::remove_all(dir);
}

TEST(Cli, ReplaySweepsAPolicyGridOverARecordedCampaign) {
  // A campaign recorded on the H200 (committed), opened read-only: 7 epsilons x 8 windows.
  const std::string store = "bench/results/campaigns/v01-2026-11-30-053241.sqlite";
  ProcessResult r = ucutlass({"replay", store, "--sweep", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.contains("rows")) << r.out;
  ASSERT_EQ(j["rows"].size(), 56u);
  const int best = j.value("best", -1);
  ASSERT_GE(best, 0);
  const nlohmann::json& b = j["rows"][static_cast<size_t>(best)];
  EXPECT_GE(b.value("geomean_kept", 0.0), 0.95);
  for (const nlohmann::json& row : j["rows"]) {
    EXPECT_EQ(row.value("attempts_fixed", 0), b.value("attempts_fixed", -1));
    if (row.value("geomean_kept", 0.0) >= 0.95) EXPECT_GE(row.value("attempts_policy", 0), b.value("attempts_policy", 0));
  }
  ProcessResult bad = ucutlass({"replay", store, "--sweep", "--keep", "2"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("--keep: Value 2 not in range"), std::string::npos) << bad.err;
}

TEST(Cli, OptimizeAndReplayRefuseAPolicyTheStopRulesCannotMean) {
  // A window of 0 would stop every winner at once; a budget of 0 or less used to read as no budget.
  const std::string store = "bench/results/campaigns/v01suite-a-2026-11-30.sqlite";
  struct Case {
    std::vector<std::string> option;
    const char* message;
  };
  for (const Case& c : {Case{{"--window", "0"}, "--window: Value 0 not in range 1 to 100000"},
                        Case{{"--budget", "-3"}, "--budget: Value -3 not in range 1 to 100000"},
                        Case{{"--suite-budget", "-1"}, "--suite-budget: Value -1 not in range 0 to 100000"},
                        Case{{"--epsilon", "-0.5"}, "--epsilon: Value -0.5 not in range 0.000000 to 1000000.000000"}}) {
    for (std::vector<std::string> args : {std::vector<std::string>{"replay", store},
                                          std::vector<std::string>{"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--no-gpu"}}) {
      args.insert(args.end(), c.option.begin(), c.option.end());
      ProcessResult bad = ucutlass(args);
      EXPECT_EQ(bad.exit_code, 2) << args[0] << " " << c.option[0] << ": " << bad.out << bad.err;
      EXPECT_EQ(bad.err, std::string(c.message) + "\nRun with --help for more information.\n") << args[0];
    }
  }
  ProcessResult jobs = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--no-gpu", "-j", "0"});
  EXPECT_EQ(jobs.exit_code, 2) << jobs.err;
  EXPECT_EQ(jobs.err, "--jobs: Value 0 not in range 1 to 1024\nRun with --help for more information.\n");
  ProcessResult wall = ucutlass({"optimize", "tests/optimize/graphs/level1_016_gemv.json", "--no-gpu", "--wall-budget", "-5"});
  EXPECT_EQ(wall.exit_code, 2) << wall.err;
  EXPECT_EQ(wall.err, "--wall-budget: Value -5 not in range 0.000000 to 10000000.000000\nRun with --help for more information.\n");
}

TEST(Cli, ReplayFoldsAConfigsReRunsIntoItsFirstAttemptUnlessAsRecorded) {
  // Half a of the v0.1 policy campaign (committed, search finished): 7 configs ran again in a later
  // session as today's program of them. Folded, each is one attempt; as recorded, each run is one.
  const std::string store = "bench/results/campaigns/v01suite-a-2026-11-30.sqlite";
  ProcessResult folded = ucutlass({"replay", store});
  ASSERT_EQ(folded.exit_code, 0) << folded.err;
  EXPECT_EQ(folded.out.substr(0, folded.out.find('\n')),
            "attempts: each config once, at its first run, with its latest program's result (7 re-run(s) folded; "
            "--as-recorded counts them)");
  ProcessResult recorded = ucutlass({"replay", store, "--as-recorded"});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  EXPECT_EQ(recorded.out.substr(0, recorded.out.find('\n')),
            "attempts: every recorded run, as the scheduler spent them (--as-recorded)");
  auto json_of = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"replay", store, "--json"});
    ProcessResult r = ucutlass(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  };
  const nlohmann::json f = json_of({}), a = json_of({"--as-recorded"});
  EXPECT_EQ(f.value("reruns_folded", -1), 7);
  EXPECT_EQ(a.value("reruns_folded", -1), 0);
  EXPECT_EQ(a.value("attempts_fixed", 0) - f.value("attempts_fixed", 0), 7);
}

TEST(Cli, OptimizeMapsConvolutionsAndSaysWhyOneStaysInPyTorch) {
  const fs::path out = fs::temp_directory_path() / ("ucutlass_cli_conv_" + std::to_string(getpid()));
  const fs::path in = out / "graphs";
  fs::create_directories(in);
  fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/graphs/level1_019_conv2d_3x3.json",
                in / "level1_019_conv2d_3x3.json");
  fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/unplaceable/depthwise_6_channels.json",
                in / "depthwise_6_channels.json");
  ProcessResult r = ucutlass({"optimize", in.string(), "--no-gpu", "--no-compile", "-o", (out / "o").string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json summary = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_EQ(summary.value("problems", 0), 2) << r.out;
  EXPECT_EQ(summary.value("solutions_written", 0), 1) << r.out;
  const fs::path conv = out / "o" / "level1_019_conv2d_3x3";
  for (const char* f : {"modelnew.py", "kernel.dsl", "report.txt"}) EXPECT_TRUE(fs::exists(conv / f)) << f;
  std::ifstream dsl(conv / "kernel.dsl");
  const std::string text{std::istreambuf_iterator<char>(dsl), std::istreambuf_iterator<char>()};
  // Under 1e-4 the conv runs K-stacked (3xBF16 first) on sm90a: the kernel sees 3 x 64 input channels.
  EXPECT_NE(text.find("kernel conv0 = conv2d(fprop, n = 32, h = 128, w = 128, c = 192, k = 128, r = 3, s = 3, pad = 1)\n"),
            std::string::npos)
      << text;
  std::ifstream py(conv / "modelnew.py");
  const std::string model{std::istreambuf_iterator<char>(py), std::istreambuf_iterator<char>()};
  EXPECT_NE(model.find("_ucutlass.conv0(x=_ucutlass_stack3(t2, True, 1, bf16=True), w=_ucutlass_stack3_param(self, "
                       "\"conv0.b\", t0, lambda: t0, False, 1, bf16=True)"),
            std::string::npos)
      << model;
  EXPECT_FALSE(fs::exists(out / "o" / "depthwise_6_channels" / "modelnew.py"));
  EXPECT_NE(r.err.find("skipped: no kernel can be emitted: n0 (conv2d): left to PyTorch: sm80 tf32x3: depthwise "
                       "convolutions run on CUDA cores (CUTLASS's direct convolution is SIMT only), not 'tf32x3'; sm80 "
                       "simt: the direct convolution loads 16-byte vectors of channels: c = 6 f32 channels are 24 bytes"),
            std::string::npos)
      << r.err;
  fs::remove_all(out);
}

TEST(Cli, OptimizeFindsAGraphsProblemFileAboveTheGraphOrSaysItIsMissing) {
  // The graph names its problem by a relative path: found from the working directory (here the
  // repository), else from a folder above the graph file; else the problem is skipped, saying so.
  const fs::path root = fs::temp_directory_path() / ("ucutlass_cli_graph_" + std::to_string(getpid()));
  fs::create_directories(root / "mine");
  fs::create_directories(root / "a" / "b");
  fs::copy_file(fs::path(UCUTLASS_SOURCE_DIR) / "problems/level2/001_gemm_bias_relu.py", root / "mine" / "p.py");
  std::ifstream in(fs::path(UCUTLASS_SOURCE_DIR) / "tests/optimize/graphs/level2_001_gemm_bias_relu.json");
  nlohmann::json graph = nlohmann::json::parse(in);
  graph["problem"]["file"] = "mine/p.py";
  std::ofstream(root / "a" / "b" / "found.json") << graph.dump();
  graph["problem"]["file"] = "mine/absent.py";
  std::ofstream(root / "a" / "b" / "lost.json") << graph.dump();
  ProcessResult r = ucutlass({"optimize", (root / "a" / "b").string(), "--no-gpu", "--no-compile", "-o", (root / "o").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(root / "o" / "found" / "modelnew.py")) << r.err;
  EXPECT_FALSE(fs::exists(root / "o" / "lost" / "modelnew.py"));
  EXPECT_NE(r.err.find("skipped: the problem file 'mine/absent.py' the graph was traced from is not found (relative paths are "
                       "tried from the working directory and from each folder above the graph file); the solution copies "
                       "its Model class"),
            std::string::npos)
      << r.err;
  fs::remove_all(root);
}

TEST(Cli, OptimizeRejectsMissingTargetsEmptyFoldersAndBadBaselines) {
  ProcessResult missing = ucutlass({"optimize", "/no/such/problem.py", "--no-gpu"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "ucutlass optimize: /no/such/problem.py: no such file or directory\n");
  const fs::path empty = fs::temp_directory_path() / ("ucutlass_cli_empty_" + std::to_string(getpid()));
  fs::create_directories(empty);
  ProcessResult none = ucutlass({"optimize", empty.string(), "--no-gpu"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find(": no problem here (a KernelBench problem .py, an op-graph .json, or a folder of them)"), std::string::npos)
      << none.err;
  fs::remove_all(empty);
  const std::string bad = temp_file("bad_baselines.json", "[1, 2]");
  ProcessResult b = ucutlass({"optimize", "tests/optimize/graphs/level1_014_gemm_bf16_inputs.json", "--no-gpu", "--baselines", bad});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("not a KernelBench baseline JSON"), std::string::npos) << b.err;
}

TEST(Cli, TraceAProblem) {
  ProcessResult probe = run_process({"python3", "-c", "import torch"});
  if (!probe.ok()) GTEST_SKIP() << "PyTorch is not installed here; tracing needs it";
  ProcessResult r = ucutlass({"trace", "problems/level2/001_gemm_bias_relu.py"}, 300);
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_NE(r.out.find("1 x aten.linear.default"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("weight   linear.weight            float32    [8192, 8192]"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ucutlass
