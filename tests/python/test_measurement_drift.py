"""bench/measurement_drift.py: the same program measured twice, in two stores or a store and a verify run."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def store(path, rows):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE attempts (problem TEXT, hash TEXT, time_ms REAL, verdict TEXT)")
    db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    return str(path)


def run(*args):
    env = {"PYTHONPATH": str(REPO / "python")}
    return subprocess.run([sys.executable, str(REPO / "bench" / "measurement_drift.py"), *args], capture_output=True,
                          text=True, env={**__import__("os").environ, **env})


def test_pairs_are_the_programs_correct_in_both(tmp_path):
    a = store(tmp_path / "a.sqlite", [("p", "h1", 1.0, "ok"), ("p", "h2", 2.0, "ok"), ("q", "h3", 1.0, "ok"),
                                      ("q", "h4", 0.0, "incorrect")])
    b = store(tmp_path / "b.sqlite", [("p", "h1", 1.2, "ok"), ("q", "h3", 0.8, "ok"), ("q", "h4", 3.0, "ok"),
                                      ("r", "h5", 1.0, "ok")])
    out = tmp_path / "drift.json"
    r = run(a, b, "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    assert [(x["problem"], x["hash"]) for x in doc["pairs"]] == [("p", "h1"), ("q", "h3")]
    assert abs(doc["summary"]["geomean_ratio"] - (1.2 * 0.8) ** 0.5) < 1e-12
    assert doc["summary"]["min_ratio"] == 0.8 and doc["summary"]["max_ratio"] == 1.2
    assert doc["summary"]["within_5pct"] == 0.0


def test_a_verify_run_is_set_beside_the_store(tmp_path):
    a = store(tmp_path / "a.sqlite", [("p", "h1", 1.0, "ok"), ("q", "h2", 2.0, "ok")])
    verify = tmp_path / "verify.json"
    verify.write_text(json.dumps({"rows": [
        {"problem": "p", "written_hash": "h1", "verdict": "ok", "median_ms": 1.03},
        {"problem": "q", "written_hash": "h2", "verdict": "incorrect", "median_ms": None}]}))
    out = tmp_path / "drift.json"
    r = run(a, "--verify", str(verify), "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    assert doc["summary"]["pairs"] == 1 and abs(doc["pairs"][0]["ratio"] - 1.03) < 1e-12
    assert doc["summary"]["within_5pct"] == 1.0


def test_wrong_arguments_are_refused(tmp_path):
    a = store(tmp_path / "a.sqlite", [])
    r = run(a)
    assert r.returncode == 2 and "give two stores, or one store and --verify" in r.stderr


def test_a_stores_attempts_beside_its_own_remeasurements(tmp_path):
    a = store(tmp_path / "a.sqlite", [("p", "h1", 1.0, "ok"), ("q", "h2", 2.0, "ok"), ("r", "h3", 1.0, "ok")])
    db = sqlite3.connect(a)
    db.execute("CREATE TABLE confirmations (problem TEXT, hash TEXT, verdict TEXT, time_ms REAL, result_json TEXT)")
    db.executemany("INSERT INTO confirmations VALUES (?, ?, ?, ?, ?)",
                   [("p", "h1", "ok", 1.1, '{"concurrent_builds": 0}'), ("q", "h2", "incorrect", 0.0, "{}"),
                    ("r", "h3", "ok", 1.3, '{"concurrent_builds": 5}')])
    db.commit()
    db.close()
    out = tmp_path / "drift.json"
    r = run(a, "--remeasured", "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    # a failed one has no time
    assert [(x["problem"], x["ratio"], x["concurrent_builds"]) for x in doc["pairs"]] == [("p", 1.1, 0), ("r", 1.3, 5)]
    assert doc["summary"]["idle_host"]["geomean_ratio"] == pytest.approx(1.1)
    assert doc["summary"]["beside_builds"]["geomean_ratio"] == pytest.approx(1.3)
    assert run(a, str(tmp_path / "b.sqlite"), "--remeasured").returncode == 2


def test_the_kernels_and_the_rest_of_the_window_are_split_where_both_results_timed_the_kernels(tmp_path):
    path = tmp_path / "s.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE attempts (problem TEXT, hash TEXT, time_ms REAL, verdict TEXT, result_json TEXT)")
    db.execute("CREATE TABLE confirmations (problem TEXT, hash TEXT, verdict TEXT, time_ms REAL, result_json TEXT)")
    kernel = lambda ms: json.dumps({"timing": {"kernel_only_candidate": {"kernel_ms_per_call": ms}}, "concurrent_builds": 0})
    # p: kernels 0.38 ms both times, the window 0.406 -> 0.631 ms (level2/025 on 2026-12-03); q: no kernel timing.
    db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?, ?)",
                   [("p", "h1", 0.406, "ok", kernel(0.38)), ("q", "h2", 1.0, "ok", "{}")])
    db.executemany("INSERT INTO confirmations VALUES (?, ?, ?, ?, ?)",
                   [("p", "h1", "ok", 0.631, kernel(0.38)), ("q", "h2", "ok", 1.1, kernel(0.9))])
    db.commit()
    db.close()
    out = tmp_path / "drift.json"
    r = run(str(path), "--remeasured", "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    p, q = doc["pairs"]
    assert p["kernel_ratio"] == pytest.approx(1.0)
    assert p["outside_kernels_ratio"] == pytest.approx((0.631 - 0.38) / (0.406 - 0.38))
    assert "kernel_ratio" not in q
    assert doc["summary"]["kernels"]["pairs"] == 1 and doc["summary"]["outside_kernels"]["pairs"] == 1
    assert "the rest of the window (outside the kernels)" in r.stdout
