"""ucutlass_harness.sanitize: the compute-sanitizer runs of a solution (gaming pattern 14).

This machine has no GPU and no compute-sanitizer, so the end-to-end tests run the child on the CPU under
a stand-in for NVIDIA's tool (stand_in_compute_sanitizer.py): what is tested is ours, the command, the
child, the verdicts, the timeout and the CLI. The GPU run is bench/sanitize_written.py's, on the device (docs/bench.md).
"""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
from ucutlass_harness import sanitize  # noqa: E402

MEMCHECK_ERRORS = textwrap.dedent("""\
    ========= COMPUTE-SANITIZER
    ========= Invalid __global__ write of size 4 bytes
    =========     at void ucutlass_1234::row_kernel<float>(const float *, float *, int)+0x1b0
    =========     by thread (31,0,0) in block (4095,0,0)
    =========     Address 0x7f3a00400000 is out of bounds
    =========
    ========= ERROR SUMMARY: 2 errors
    """)
MEMCHECK_CLEAN = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"
RACECHECK = "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n"


def test_the_report_gives_the_error_count_and_its_first_lines():
    parsed = sanitize.parse_report("some child output\n" + MEMCHECK_ERRORS)
    assert parsed["errors"] == 2
    assert parsed["report"][0] == "Invalid __global__ write of size 4 bytes"  # the tool's banner is not kept
    assert not any("SUMMARY" in line for line in parsed["report"])
    assert sanitize.parse_report(MEMCHECK_CLEAN)["errors"] == 0
    race = sanitize.parse_report(RACECHECK)
    assert (race["errors"], race["warnings"]) == (1, 0)
    assert sanitize.parse_report("Traceback: no summary at all\n")["errors"] is None
    # compute-sanitizer 2025.2.1 on this machine (no CUDA driver) before it gives up: no summary, exit 255.
    no_driver = ("========= COMPUTE-SANITIZER\n"
                 "========= Error: Target application terminated before first instrumented API call\n"
                 "========= Error: couldn't find exit code.\n")
    parsed = sanitize.parse_report(no_driver)
    assert parsed["errors"] is None and parsed["report"][0].startswith("Error: Target application terminated")
    assert sanitize.tool_verdict(255, parsed, False) == "tool_failed"


def test_each_runs_outcome_has_its_own_verdict():
    clean, errors, none = {"errors": 0}, {"errors": 2}, {"errors": None}
    assert sanitize.tool_verdict(0, clean, False) == "clean"
    assert sanitize.tool_verdict(sanitize.ERRORS_EXIT, errors, False) == "errors"
    assert sanitize.tool_verdict(sanitize.ERRORS_EXIT, clean, False) == "errors"  # the tool's exit says so
    assert sanitize.tool_verdict(sanitize.CHILD_FAILED, clean, False) == "candidate_failed"
    assert sanitize.tool_verdict(1, none, False) == "tool_failed"
    # A child that says it failed is the solution's failure even where the tool printed no summary.
    assert sanitize.tool_verdict(255, none, False, child_failed=True) == "candidate_failed"
    assert sanitize.tool_verdict(sanitize.ERRORS_EXIT, errors, False, child_failed=True) == "errors"
    assert sanitize.tool_verdict(-9, none, True) == "timeout"


def test_the_command_runs_this_packages_child_under_the_tool():
    argv = sanitize.command("/cuda/bin/compute-sanitizer", "racecheck", "/p.py", "/s.py", 7)
    assert argv[:3] == ["/cuda/bin/compute-sanitizer", "--tool", "racecheck"]
    assert argv[argv.index("--error-exitcode") + 1] == str(sanitize.ERRORS_EXIT)
    assert argv[-6:] == ["ucutlass_harness", "_sanitize_child", "/p.py", "/s.py", "7", "cuda"]
    with pytest.raises(ValueError):
        sanitize.command("cs", "leakcheck", "/p.py", "/s.py", 7)
    env = sanitize.child_env("/tmp/ext", base={"PYTHONPATH": "/x"})
    assert env["PYTORCH_NO_CUDA_MEMORY_CACHING"] == "1"
    assert env["TORCH_EXTENSIONS_DIR"] == "/tmp/ext"
    assert env["PYTHONPATH"].endswith(os.pathsep + "/x")


PROBLEM = textwrap.dedent("""\
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.w = nn.Parameter(torch.randn(n, n))

        def forward(self, x):
            return x @ self.w

    def get_inputs():
        return [torch.randn(4, 8)]

    def get_init_inputs():
        return [8]
    """)
HONEST = PROBLEM.replace("class Model(", "class ModelNew(")
RAISES = HONEST.replace("return x @ self.w", "raise RuntimeError('extension failed to load')")
HANGS = HONEST.replace("return x @ self.w", "import time; time.sleep(60)")

STAND_IN = pathlib.Path(__file__).resolve().parent / "stand_in_compute_sanitizer.py"


@pytest.fixture
def files(tmp_path):
    torch = pytest.importorskip("torch")  # noqa: F841  the child builds the model with it
    (tmp_path / "problem.py").write_text(PROBLEM)
    for name, text in (("honest", HONEST), ("raises", RAISES), ("hangs", HANGS)):
        (tmp_path / f"{name}.py").write_text(text)
    return tmp_path


def run(files, solution, *extra, env=None):
    cmd = [sys.executable, "-m", "ucutlass_harness", "sanitize", str(files / "problem.py"), str(files / solution),
           "--sanitizer", str(STAND_IN), "--device-type", "cpu", "--json", *extra]
    python_path = str(pathlib.Path(__file__).resolve().parents[2] / "python")
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": python_path, **(env or {})})
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else None, done.stderr


def test_an_honest_solution_is_clean_under_each_tool(files):
    rc, result, err = run(files, "honest.py", "--tool", "memcheck", "--tool", "initcheck")
    assert rc == 0, err
    assert result["verdict"] == "clean"
    assert list(result["tools"]) == ["memcheck", "initcheck"]
    assert all(r["verdict"] == "clean" and r["errors"] == 0 for r in result["tools"].values())


def test_errors_the_tool_reports_make_the_verdict(files):
    rc, result, err = run(files, "honest.py", env={"STAND_IN_ERRORS": "1"})
    assert rc == 0, err
    assert result["verdict"] == "errors"
    memcheck = result["tools"]["memcheck"]
    assert memcheck["errors"] == 1 and memcheck["returncode"] == sanitize.ERRORS_EXIT
    assert "Invalid __global__ read of size 16 bytes" in memcheck["report"]


def test_a_solution_that_raises_is_its_failure_not_the_tools(files):
    rc, result, err = run(files, "raises.py")
    assert rc == 0, err
    assert result["verdict"] == "candidate_failed"
    tail = "\n".join(result["tools"]["memcheck"]["child_output_tail"])
    assert "sanitize child: RuntimeError: extension failed to load" in tail


def test_a_hanging_solution_is_killed_at_its_timeout(files):
    rc, result, err = run(files, "hangs.py", "--timeout", "20")
    assert rc == 0, err
    assert result["verdict"] == "timeout"
    assert result["tools"]["memcheck"]["wall_s"] < 40


def test_no_sanitizer_is_a_usage_error_not_a_verdict(files):
    rc, result, _ = run(files, "honest.py", "--sanitizer", str(files / "no-such-tool"))
    assert rc == 2
    assert result["verdict"] == "usage_error"
    assert result["error"].startswith(f"compute-sanitizer not found (looked at {files / 'no-such-tool'})")


def campaign(tmp_path):
    """A campaign folder as `ucutlass optimize -o` leaves it: a store, and written solutions."""
    import sqlite3
    (tmp_path / "probs").mkdir()
    opt = tmp_path / "opt"
    rows = [("fast", HONEST, 0.2), ("slow", HONEST, 2.0), ("broken", RAISES, 0.5), ("unsolved", None, None)]
    opt.mkdir()
    db = sqlite3.connect(opt / "campaign.sqlite")
    db.execute("CREATE TABLE problems (name TEXT, file TEXT, sol_ms REAL, eager_ms REAL)")
    db.execute("CREATE TABLE attempts (problem TEXT, hash TEXT, time_ms REAL, verdict TEXT)")
    for name, solution, ms in rows:
        (tmp_path / "probs" / f"{name}.py").write_text(PROBLEM)
        db.execute("INSERT INTO problems VALUES (?, ?, 0.0, 1.0)", (name, f"probs/{name}.py"))
        if solution:
            (opt / name).mkdir()
            (opt / name / "modelnew.py").write_text(solution)
            db.execute("INSERT INTO attempts VALUES (?, '0123456789abcdef', ?, 'ok')", (name, ms))
    db.commit()
    db.close()
    return opt


def sanitize_written(tmp_path, opt, *extra, env=None):
    out = tmp_path / "sanitize.json"
    bench = pathlib.Path(__file__).resolve().parents[2] / "bench" / "sanitize_written.py"
    done = subprocess.run([sys.executable, str(bench), str(opt), "--out", str(out), f"--harness-arg=--sanitizer={STAND_IN}",
                           "--harness-arg=--device-type=cpu", *extra],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env={**os.environ, **(env or {})})
    assert out.exists(), done.stdout + done.stderr
    return done.returncode, json.loads(out.read_text())


def test_a_campaigns_written_solutions_run_wins_first_and_a_failure_is_not_clean(files, tmp_path):
    rc, doc = sanitize_written(tmp_path, campaign(tmp_path))
    order = [r["problem"] for r in doc["rows"]]
    assert order == ["fast", "broken", "slow", "unsolved"]  # 5x, 2x, 0.5x in the store; no solution last
    verdicts = {r["problem"]: r["verdict"] for r in doc["rows"]}
    assert verdicts == {"fast": "clean", "broken": "candidate_failed", "slow": "clean", "unsolved": "no_solution_written"}
    assert doc["run"] == 3 and doc["every_run_clean"] is False and rc == 3
    rows = {r["problem"]: r for r in doc["rows"]}
    # Each extension was built ahead of its run, outside the sanitizer (it raises at forward, not import).
    assert all(rows[p]["prebuild"]["status"] == "imported" for p in ("fast", "broken", "slow"))
    assert "prebuild" not in rows["unsolved"]


def test_without_prebuilds_each_run_builds_its_own(files, tmp_path):
    _, doc = sanitize_written(tmp_path, campaign(tmp_path), "--only", "fast", "--prebuild-jobs", "0")
    assert [(r["problem"], r["verdict"]) for r in doc["rows"]] == [("fast", "clean")] and "prebuild" not in doc["rows"][0]


def test_what_the_budget_does_not_reach_is_not_run_never_clean(files, tmp_path):
    rc, doc = sanitize_written(tmp_path, campaign(tmp_path), "--budget-s", "5", "--only", "fast")
    assert [(r["problem"], r["verdict"]) for r in doc["rows"]] == [("fast", "not_run")]
    assert doc["run"] == 0 and doc["every_run_clean"] is False and rc == 3


def test_shards_split_the_order_and_an_earlier_final_verdict_stands(files, tmp_path):
    opt = campaign(tmp_path)
    _, first = sanitize_written(tmp_path, opt, "--shard", "0/2")
    _, second = sanitize_written(tmp_path, opt, "--shard", "1/2")
    assert [r["problem"] for r in first["rows"]] == ["fast", "slow"]  # every 2nd of fast, broken, slow, unsolved
    assert [r["problem"] for r in second["rows"]] == ["broken", "unsolved"]
    record = tmp_path / "first.json"
    record.write_text(json.dumps(first))
    # "fast" stands from the record; "slow" was rewritten since, so its verdict there is not its own.
    (opt / "slow" / "modelnew.py").write_text(HONEST + "\n# rewritten\n")
    rc, doc = sanitize_written(tmp_path, opt, "--only", "fast", "--only", "slow", "--done", str(record),
                               env={"STAND_IN_ERRORS": "1"})
    rows = {r["problem"]: r for r in doc["rows"]}
    assert rows["fast"]["verdict"] == "clean" and rows["fast"]["from_record"] == "first.json"
    assert rows["slow"]["verdict"] == "errors" and "from_record" not in rows["slow"]
    assert doc["every_run_clean"] is False and rc == 3


def test_a_shard_is_written_k_of_n(tmp_path):
    bench = pathlib.Path(__file__).resolve().parents[2] / "bench" / "sanitize_written.py"
    done = subprocess.run([sys.executable, str(bench), str(tmp_path), "--shard", "2/2"], capture_output=True, text=True)
    assert done.returncode == 2 and "'2/2': write K/N with 0 <= K < N, e.g. 0/4" in done.stderr
