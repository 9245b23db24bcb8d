"""Tests that need torch (CPU only): the tracer and the evaluation logic in CPU mode.

Skipped when torch is not installed; CPU mode runs the same correctness and
integrity checks as the GPU path, with wall-clock timing and no profiler.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: tracer and evaluation tests need it")

from conftest import REPO  # noqa: E402
from ucutlass_harness import tracer, worker  # noqa: E402

PROBLEM = textwrap.dedent('''
    # small linear + relu for tests
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def __init__(self, k, n):
            super().__init__()
            self.l = nn.Linear(k, n)

        def forward(self, x):
            return torch.relu(self.l(x))

    M, K, N = 64, 128, 32

    def get_inputs():
        return [torch.rand(M, K)]

    def get_init_inputs():
        return [K, N]
''')
IMPORTS = "import torch\nimport torch.nn as nn\n"
HEAD = "\n\nclass ModelNew(nn.Module):\n    def __init__(self, k, n):\n" \
       "        super().__init__()\n        self.l = nn.Linear(k, n)\n"
CANDIDATES = {
    "honest": ("", "        return torch.clamp_min(x @ self.l.weight.t() + self.l.bias, 0)\n", "ok"),
    "mutate": ("", "        y = torch.relu(self.l(x))\n        x.zero_()\n        return y\n", "gamed:input_mutation"),
    "subclass": ("class P(torch.Tensor):\n    x = 1\n\n\n", "        return torch.relu(self.l(x)).as_subclass(P)\n",
                 "gamed:static_tensor_subclass"),
    "patch": ("_c = getattr(torch, 'cu' + 'da')\nsetattr(_c, 'synchro' + 'nize', lambda d=None: None)\n",
              "        return torch.relu(self.l(x))\n", "gamed:timer_patched"),
    "stale": ("", "        if not hasattr(self, 'memo'):\n            self.memo = torch.relu(self.l(x))\n"
                  "        return self.memo\n", "incorrect"),
    "thread": ("import threading\n_t = threading.Thread(target=lambda: threading.Event().wait(60), daemon=True)\n",
               "        if not _t.is_alive():\n            _t.start()\n        return torch.relu(self.l(x))\n",
               "gamed:static_threading"),
}


@pytest.fixture(scope="module")
def problem_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("prob") / "prob.py"
    p.write_text(PROBLEM)
    return str(p)


def evaluate(problem_file, tmp_path, name):
    prefix, body, _ = CANDIDATES[name]
    sol = tmp_path / f"{name}.py"
    sol.write_text(IMPORTS + prefix + HEAD + "\n    def forward(self, x):\n" + body)
    task = {"kind": "eval", "problem": problem_file, "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 3, "timing_trials": 4, "warmup": 1, "baselines": ["eager"], "seed": 42}
    return worker.run_task(task, 120)


@pytest.mark.parametrize("name", sorted(CANDIDATES))
def test_cpu_evaluation_verdicts(problem_file, tmp_path, name):
    r = evaluate(problem_file, tmp_path, name)
    assert r["verdict"] == CANDIDATES[name][2], json.dumps(r.get("error"))
    if name == "honest":
        trials = r["correctness"]["trials"]
        assert [t["distribution"] for t in trials] == ["problem", "normal", "shifted"]
        assert trials[0]["order"] == "candidate-first" and all(t["mismatched"] == 0 for t in trials)
        assert r["timing"]["candidate"]["num_trials"] == 4 and "eager" in r["timing"]
        assert not any(s["fired"] for s in r["signals"] if s["kind"] == "gaming")


# A reference that starts a Python thread when PyTorch's own timing runs it (its second float32 call:
# the first is the native-dtype run before the thread census, correctness uses float64), as
# torch.compile does on a GPU: those threads belong to the baseline, never to the candidate.
THREADING_REFERENCE = PROBLEM.replace("    def forward(self, x):\n", """    def forward(self, x):
        if x.dtype == torch.float32:
            self.native_calls = getattr(self, "native_calls", 0) + 1
            if self.native_calls == 2:
                import threading
                threading.Thread(target=threading.Event().wait, args=(60,), daemon=True).start()
""")


def test_threads_started_by_the_pytorch_baseline_are_not_the_candidates(tmp_path):
    assert THREADING_REFERENCE != PROBLEM
    prob = tmp_path / "prob.py"
    prob.write_text(THREADING_REFERENCE)
    prefix, body, _ = CANDIDATES["honest"]
    sol = tmp_path / "honest.py"
    sol.write_text(IMPORTS + prefix + HEAD + "\n    def forward(self, x):\n" + body)
    task = {"kind": "eval", "problem": str(prob), "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 3, "timing_trials": 4, "warmup": 1, "baselines": ["eager"], "seed": 42}
    r = worker.run_task(task, 120)
    assert r["verdict"] == "ok", [s for s in r["signals"] if s["fired"]]
    assert r["timing"]["eager"]["num_trials"] == 4


def test_time_based_warm_up_runs_before_timing(problem_file, tmp_path):
    # warmup_ms keeps calling (untimed) until that much wall time has passed; off by default on the CPU.
    prefix, body, _ = CANDIDATES["honest"]
    sol = tmp_path / "honest.py"
    sol.write_text(IMPORTS + prefix + HEAD + "\n    def forward(self, x):\n" + body)
    base = {"kind": "eval", "problem": problem_file, "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 1, "timing_trials": 3, "warmup": 1, "baselines": ["eager"], "seed": 42}
    r = worker.run_task(dict(base, warmup_ms=150), 120)
    for who in ("candidate", "eager"):
        warm = r["timing"][who]["warm_up"]
        assert warm["ms"] >= 150 and warm["calls"] >= 1, warm
    r = worker.run_task(base, 120)
    assert r["timing"]["candidate"]["warm_up"]["calls"] == 0


def test_timed_window_has_a_minimum_duration(problem_file, tmp_path):
    # timing_min_ms keeps timing past timing_trials until that long has passed (off on the CPU by default).
    prefix, body, _ = CANDIDATES["honest"]
    sol = tmp_path / "honest.py"
    sol.write_text(IMPORTS + prefix + HEAD + "\n    def forward(self, x):\n" + body)
    base = {"kind": "eval", "problem": problem_file, "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 1, "timing_trials": 3, "warmup": 1, "baselines": [], "seed": 42}
    cand = worker.run_task(dict(base, timing_min_ms=200), 120)["timing"]["candidate"]
    assert cand["num_trials"] > 3 and cand["wall"]["mean_ms"] * cand["num_trials"] >= 150
    # The call's own host time is recorded beside it (on a GPU, what an idle device waits for), never more.
    assert cand["host"]["num_trials"] == cand["wall"]["num_trials"]
    assert 0 < cand["host"]["median_ms"] <= cand["wall"]["median_ms"]
    assert worker.run_task(base, 120)["timing"]["candidate"]["num_trials"] == 3


def test_reported_window_is_the_harness_stream_unless_other_streams_worked():
    from ucutlass_harness import evaluate

    def stats(stream, everything):
        one = lambda ms: {"median_ms": ms, "num_trials": 10}  # noqa: E731
        return {"median_ms": everything, "window": "all_streams", "all_streams": one(everything),
                "stream_only": one(stream)}

    # The harness's own synchronize adds 20 us: start->mid is reported.
    s = evaluate.settle_reported(stats(0.400, 0.420), evaluate.side_work(stats(0.400, 0.420)))
    assert (s["window"], s["median_ms"]) == ("stream_only", 0.400)
    # Kernels on another stream (profiler), or a gap of more than half the time: start->end.
    s = stats(0.400, 0.420)
    assert evaluate.side_work(s, ["void side_kernel()"])
    s = evaluate.settle_reported(stats(0.1, 1.0), evaluate.side_work(stats(0.1, 1.0)))
    assert (s["window"], s["median_ms"]) == ("all_streams", 1.0)


def test_trace_linear_relu_problem():
    g = tracer.trace_problem(os.path.join(REPO, "problems", "level2", "001_gemm_bias_relu.py"))
    assert (g["format"], g["version"], g["dialect"], g["tracer"]) == ("ucutlass-opgraph", 1, "aten", "torch.export")
    assert [n["op"] for n in g["nodes"]] == ["aten.linear.default", "aten.relu.default"]
    by_id = {t["id"]: t for t in g["tensors"]}
    assert [by_id[t]["name"] for t in g["weights"]] == ["linear.weight", "linear.bias"]
    assert by_id[g["inputs"][0]]["shape"] == [1024, 8192]
    out = by_id[g["outputs"][0]]
    assert (out["role"], out["shape"], out["stride"], out["dtype"]) == ("output", [1024, 8192], [8192, 1], "float32")
    assert g["nodes"][1]["inputs"] == g["nodes"][0]["outputs"]


def test_trace_multi_output_and_small_constants(tmp_path):
    p = tmp_path / "mo.py"
    p.write_text(textwrap.dedent('''
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = nn.Parameter(torch.tensor([2.0, 3.0]))

            def forward(self, x):
                v, i = torch.max(x, dim=1)
                return v * self.scale.sum(), i

        def get_inputs():
            return [torch.rand(100000, 5000)]

        def get_init_inputs():
            return []
    '''))
    g = tracer.trace_problem(str(p))
    mx = next(n for n in g["nodes"] if n["op"] == "aten.max.dim")
    assert len(mx["outputs"]) == 2 and mx["args"][1] == 1
    by_id = {t["id"]: t for t in g["tensors"]}
    assert by_id[g["weights"][0]]["value"] == [2.0, 3.0]
    assert [by_id[o]["dtype"] for o in g["outputs"]] == ["float32", "int64"]
    assert g["outputs"][1] == mx["outputs"][1]


def test_cli_trace_writes_file(tmp_path):
    out = tmp_path / "g.json"
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    r = subprocess.run([sys.executable, "-m", "ucutlass_harness", "trace",
                        os.path.join(REPO, "problems", "level1", "005_gemm_large_k.py"), "--out", str(out)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    g = json.loads(out.read_text())
    assert g["nodes"][0]["op"] == "aten.matmul.default"
    assert [t["shape"] for t in g["tensors"] if t["role"] == "input"] == [[256, 524288], [524288, 256]]
