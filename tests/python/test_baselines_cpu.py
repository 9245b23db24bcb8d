"""A real two-phase `baselines` run on CPU: two problems of problems/ with their sizes shrunk."""

import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch", reason="torch is not installed: the real baselines run needs it")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBLEMS = ("level1/028_softmax_rows.py", "level2/001_gemm_bias_relu.py")


def _shrunk_copy(src, dst):
    with open(src, encoding="utf-8") as f:
        text = f.read()
    # module-level integer constants (batch_size = 8192, ...) become 32
    text = re.sub(r"(?m)^([A-Za-z_]\w*) = \d+\s*$", r"\1 = 32", text)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text)


def test_two_phase_cpu_run_hits_the_warm_cache(tmp_path):
    root = tmp_path / "problems"
    for rel in PROBLEMS:
        _shrunk_copy(os.path.join(REPO, "problems", rel), str(root / rel))
    out = tmp_path / "baselines.json"
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    proc = subprocess.run([sys.executable, "-m", "ucutlass_harness", "baselines", str(root), "--out", str(out),
                           "--device-type", "cpu", "--timing-trials", "3", "--warmup", "1",
                           "--compile-jobs", "2", "--compile-cache", str(tmp_path / "inductor"),
                           "--timeout", "600"], env=env, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert sorted(doc) == ["level1", "level1_compile", "level2", "level2_compile"], proc.stderr[-3000:]
    assert set(doc["level1"]) == {"028_softmax_rows.py"} and set(doc["level2_compile"]) == {"001_gemm_bias_relu.py"}
    assert all(e["mean"] > 0 for table in doc.values() for e in table.values())
    # The event window the figures are (`ucutlass optimize --baselines` re-times entries without it).
    assert all(e["timing_window"] == "stream_only" for table in doc.values() for e in table.values())
    report = json.loads((tmp_path / "baselines.report.json").read_text())
    assert report["complete"] and report["phase1"]["jobs"] == 2
    for rel in PROBLEMS:
        p = report["problems"][rel]
        assert p["warm"]["status"] == "ok" and p["warm"]["compile_first_call_s"] > 0
        assert p["warm"]["compile_cache"].get("fxgraph_cache_miss", 0) >= 1 or \
            p["warm"]["compile_cache"].get("fxgraph_cache_hit", 0) >= 1
        # phase 2 compiled nothing: every graph came from the cache phase 1 filled
        assert p["time"]["compile_cache"].get("fxgraph_cache_hit", 0) >= 1, p
        assert not p["time"]["compile_cache"].get("fxgraph_cache_miss"), p
    # A resume re-times entries from before the event window was recorded, and only those.
    del doc["level1"]["028_softmax_rows.py"]["timing_window"]
    out.write_text(json.dumps(doc))
    again = subprocess.run(proc.args + ["--resume"], env=env, capture_output=True, text=True, timeout=1200)
    assert again.returncode == 0, again.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert doc["level1"]["028_softmax_rows.py"]["timing_window"] == "stream_only"
    assert json.loads((tmp_path / "baselines.report.json").read_text())["resumed_already_timed"] == 1
