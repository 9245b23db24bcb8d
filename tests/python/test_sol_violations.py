"""bench/sol_violations.py: which measured times are checked against t_SOL (no GPU, no ucutlass)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import sol_violations  # noqa: E402


def test_baseline_levels_and_compile_keys_map_to_suite_names():
    doc = {"level1": {"014_gemm.py": {"mean": 1.5}}, "level1_compile": {"014_gemm.py": {"mean": 1.6}},
           "level2": {"bad.py": {"mean": 0}}}
    assert sol_violations.measurements_from_baselines(doc) == {
        "level1_014_gemm": [("eager", 1.5), ("torch.compile", 1.6)]}


def test_repeatability_runs_count_only_when_correct():
    doc = {"format": "ucutlass-bench-repeatability", "problem": "problems/level1/014_gemm.py",
           "solution": "/tmp/x/modelnew.py",
           "runs": [{"run": 0, "verdict": "ok", "median_ms": 1.5}, {"run": 1, "verdict": "incorrect", "median_ms": 0.1},
                    {"run": 2, "error": "TimeoutExpired"}]}
    assert sol_violations.measurements_from_candidates(doc) == {
        "level1_014_gemm": [("candidate modelnew.py (repeatability run 0)", 1.5)]}


def test_eval_results_count_only_when_correct():
    ok = {"format": "ucutlass-eval-result", "verdict": "ok", "problem": {"file": "problems/level2/001_a.py"},
          "solution": {"file": "sol/modelnew.py"}, "timing": {"candidate": {"median_ms": 0.3}}}
    assert sol_violations.measurements_from_candidates(ok) == {"level2_001_a": [("candidate modelnew.py", 0.3)]}
    assert sol_violations.measurements_from_candidates(dict(ok, verdict="gamed:side_stream")) == {}

