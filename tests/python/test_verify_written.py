"""bench/verify_written.py: a campaign's written solutions evaluated in one harness batch and set beside
the store's best attempt (CPU mode, torch needed)."""
import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="torch is not installed: evaluation tests need it")

REPO = Path(__file__).resolve().parents[2]
PROBLEM = textwrap.dedent('''
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def forward(self, a, b):
            return a @ b

    def get_inputs():
        return [torch.rand(64, 32), torch.rand(32, 16)]

    def get_init_inputs():
        return []
''')
SOLUTION = textwrap.dedent('''\
    # ucutlass solution for mm: program 0123456789abcdef, 1 CUTLASS kernel(s).
    import torch
    import torch.nn as nn

    class ModelNew(nn.Module):
        def forward(self, a, b):
            return torch.matmul(a, b)
''')


def campaign(tmp_path, problems, attempts):
    """tmp_path/opt: a campaign folder whose store holds `problems` (each with its problem file under
    tmp_path/probs) and `attempts` (problem, hash, time_ms, verdict), and problem mm's written solution."""
    (tmp_path / "probs").mkdir()
    for name in problems:
        (tmp_path / "probs" / f"{name}.py").write_text(PROBLEM)
    opt = tmp_path / "opt"
    (opt / "mm").mkdir(parents=True)
    (opt / "mm" / "modelnew.py").write_text(SOLUTION)
    db = sqlite3.connect(opt / "campaign.sqlite")
    db.execute("CREATE TABLE problems (name TEXT, file TEXT, sol_ms REAL, eager_ms REAL)")
    db.execute("CREATE TABLE attempts (problem TEXT, hash TEXT, time_ms REAL, verdict TEXT)")
    db.executemany("INSERT INTO problems VALUES (?, ?, ?, ?)", [(n, f"probs/{n}.py", 0.0, 1.0) for n in problems])
    db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?)", attempts)
    db.commit()
    db.close()
    return opt


def test_written_solutions_are_evaluated_and_matched_to_the_store(tmp_path):
    opt = campaign(tmp_path, ("mm", "mm_unsolved"),
                   [("mm", "fedcba9876543210", 0.9, "ok"), ("mm", "0123456789abcdef", 0.5, "ok"),
                    ("mm", "1111111111111111", 0.0, "incorrect")])
    out = tmp_path / "verify.json"
    r = subprocess.run([sys.executable, str(REPO / "bench" / "verify_written.py"), str(opt), "--profile", "kernelbench",
                        "--out", str(out), "--harness-arg=--device-type=cpu", "--harness-arg=--backend=any",
                        "--harness-arg=--timing-trials=3", "--harness-arg=--trials=2"],
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.exists(), r.stdout + r.stderr
    doc = json.loads(out.read_text())
    rows = {row["problem"]: row for row in doc["rows"]}
    assert doc["problems"] == 2 and doc["written"] == 1
    assert rows["mm_unsolved"]["verdict"] == "no_solution_written"
    assert rows["mm"]["written_hash"] == "0123456789abcdef" and rows["mm"]["written_is_store_best"] is True
    # Evaluated: a verdict of the harness on the written file, not an error of the plumbing.
    assert rows["mm"]["verdict"] not in (None, "no_solution_written", "runtime_error"), rows["mm"]
    assert doc["every_written_passed"] == (rows["mm"]["verdict"] == "ok")
    assert r.returncode == (0 if doc["every_written_passed"] else 3), r.stderr


def test_a_spent_budget_still_writes_the_record_and_says_it_is_incomplete(tmp_path):
    # --budget-s: what was not started by then is "not_run", no suite geomean, exit 4 (nothing that ran failed).
    opt = campaign(tmp_path, ("mm",), [])
    out = tmp_path / "verify.json"
    r = subprocess.run([sys.executable, str(REPO / "bench" / "verify_written.py"), str(opt), "--profile", "kernelbench",
                        "--out", str(out), "--budget-s", "0.001", "--harness-arg=--device-type=cpu",
                        "--harness-arg=--backend=any"], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.exists(), r.stdout + r.stderr
    doc = json.loads(out.read_text())
    assert doc["rows"][0]["verdict"] == "not_run"
    assert (doc["written"], doc["evaluated"], doc["complete"]) == (1, 0, False)
    assert doc["every_written_passed"] is False and doc["every_evaluated_passed"] is True
    assert doc["suite_geomean_vs_eager"] is None
    assert r.returncode == 4, r.stderr
    assert "1 written of 1 problems, 0 evaluated" in r.stdout
    bad = subprocess.run([sys.executable, str(REPO / "bench" / "verify_written.py"), str(opt), "--profile", "kernelbench",
                          "--budget-s", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--budget-s 0" in bad.stderr


def test_a_problem_copied_on_another_machine_is_found_in_the_suite(tmp_path):
    # The store of a campaign prepared on the CPU machine names /tmp/prep/<campaign>.problems/level1/...; on
    # the device that copy does not exist, the suite's own file does.
    sys.path.insert(0, str(REPO / "bench"))
    sys.path.insert(0, str(REPO / "python"))
    import verify_written
    suite = tmp_path / "problems"
    (suite / "level1").mkdir(parents=True)
    (suite / "level1" / "016_gemv.py").write_text(PROBLEM)
    recorded = "/nonexistent/prep/opt_v01suite_b.problems/level1/016_gemv.py"
    assert verify_written.problem_path(recorded, tmp_path / "opt", suite) == (suite / "level1" / "016_gemv.py").resolve()
    missing = "/nonexistent/prep/opt_v01suite_b.problems/level1/999_none.py"
    assert verify_written.problem_path(missing, tmp_path / "opt", suite) == Path(missing).resolve()
