"""bench/host_share.py: trial time beside kernel time from a store's re-measurements (no GPU)."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_gap_is_trial_minus_kernels_and_results_without_a_kernel_time_are_left_out(tmp_path):
    path = tmp_path / "s.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE confirmations (id INTEGER PRIMARY KEY, problem TEXT, hash TEXT, verdict TEXT, "
               "time_ms REAL, timing_min_ms REAL, result_json TEXT, wall_s REAL)")
    timed = {"timing": {"kernel_only_candidate": {"kernel_ms_per_call": 0.2}, "candidate": {"host": {"median_ms": 0.05}}},
             "solution": {"sha256": "ab"}, "concurrent_builds": 0}
    rows = [("a", "h1", "ok", 0.25, json.dumps(timed)), ("b", "h2", "ok", 1.0, "{}"),
            ("c", "h3", "incorrect", 0.0, json.dumps(timed))]
    db.executemany("INSERT INTO confirmations (problem, hash, verdict, time_ms, timing_min_ms, result_json, wall_s) "
                   "VALUES (?, ?, ?, ?, 1000, ?, 1)", rows)
    db.commit()
    db.close()
    out = tmp_path / "share.json"
    r = subprocess.run([sys.executable, str(REPO / "bench" / "host_share.py"), str(path), "--out", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    assert [row["problem"] for row in doc["rows"]] == ["a"]
    row = doc["rows"][0]
    assert abs(row["gap_ms"] - 0.05) < 1e-12 and abs(row["gap_share"] - 0.2) < 1e-12
    assert row["host_ms"] == 0.05 and row["solution_sha256"] == "ab"
    assert doc["summary"]["programs"] == 1 and abs(doc["summary"]["geomean_trial_over_kernels"] - 1.25) < 1e-12
