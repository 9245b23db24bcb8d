"""bench/kernel_breakdown.py: per-kernel times and host gaps from a campaign store (no GPU)."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def result(kernel_ms, per_kernel, host_ms=None):
    timing = {"kernel_only_candidate": {"kernel_ms_per_call": kernel_ms, "per_kernel": per_kernel}}
    if host_ms is not None:
        timing["candidate"] = {"host": {"median_ms": host_ms}}
    return json.dumps({"timing": timing})


def test_breakdown_of_the_fastest_attempt_and_median_gaps(tmp_path):
    store = tmp_path / "c.sqlite"
    db = sqlite3.connect(store)
    db.execute("CREATE TABLE attempts (problem TEXT, seq INTEGER, time_ms REAL, config TEXT, verdict TEXT, "
               "result_json TEXT)")
    rows = [("conv_a", 1, 0.50, "slow", "ok", result(0.40, [])),
            ("conv_a", 2, 0.30, "fast", "ok", result(0.26, [{"kind": "custom", "ms_per_call": 0.2, "name": "k"},
                                                            {"kind": "pytorch", "ms_per_call": 0.06, "name": "copy"}])),
            ("conv_a", 3, 0.0, "bad", "incorrect", result(0.1, [])),
            ("gemm_b", 1, 1.00, "g", "ok", result(0.97, [], host_ms=0.021))]
    db.executemany("INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    r = subprocess.run([sys.executable, str(REPO / "bench" / "kernel_breakdown.py"), str(store)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("conv_a attempt 2: 0.3000 ms, kernels 0.2600 ms | fast")
    assert "host gap 70.0 us (median over 2 verified attempt(s))" in lines[1]  # 100 and 40 us
    assert "pytorch  0.0600 ms  copy" in r.stdout
    assert "gemm_b attempt 1" in r.stdout and "host gap 30.0 us (median over 1 verified attempt(s)); the call's host time 21.0 us" in r.stdout
    assert "the call's host time" not in lines[1]  # not recorded for conv_a's attempts
    assert lines[-1] == "median host gap 50.0 us over 2 problem(s)"
    only = subprocess.run([sys.executable, str(REPO / "bench" / "kernel_breakdown.py"), str(store), "gemm"],
                          capture_output=True, text=True, timeout=60)
    assert "conv_a" not in only.stdout and only.stdout.splitlines()[-1] == "median host gap 30.0 us over 1 problem(s)"
