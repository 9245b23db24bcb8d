"""bench/eval_phases.py: the harness's seconds per phase over a store's attempts, by id range (no GPU)."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_phases_over_an_id_range(tmp_path):
    store = tmp_path / "c.sqlite"
    db = sqlite3.connect(store)
    db.execute("CREATE TABLE attempts (id INTEGER PRIMARY KEY, result_json TEXT)")
    db.executemany("INSERT INTO attempts VALUES (?, ?)", [
        (1, json.dumps({"phase_seconds": {"setup": 9.0, "timing": 1.0}})),
        (2, json.dumps({"phase_seconds": {"setup": 1.0, "timing": 1.0}})),
        (3, json.dumps({"phase_seconds": {"setup": 0.5, "timing": 0.5}})),
        (4, json.dumps({"verdict": "compile_error"})),  # no phase times: not counted
        (5, "")])
    db.commit()
    db.close()

    def run(*extra):
        r = subprocess.run([sys.executable, str(REPO / "bench" / "eval_phases.py"), str(store), *extra],
                           capture_output=True, text=True, timeout=60)
        return r.returncode, r.stdout, r.stderr

    rc, out, _ = run()
    assert rc == 0 and out.splitlines()[0] == "3 evaluation(s) with phase times"
    assert "setup        median   1.000 s   mean   3.500 s" in out
    assert "total        median   2.000 s   mean   4.333 s" in out  # 10, 2, 1
    rc, out, _ = run("--after-id", "1", "--until-id", "3")
    assert rc == 0 and "total        median   1.500 s   mean   1.500 s" in out
    rc, _, err = run("--after-id", "3")
    assert rc == 1 and "no attempt with phase times" in err
