"""evaluate.compare's tolerance_used: the share of the allowed error the worst element took (CPU)."""
import pytest

torch = pytest.importorskip("torch")

from ucutlass_harness import evaluate, worker  # noqa: E402


def test_the_worst_element_sets_it_against_atol_plus_rtol_times_the_reference():
    ref = torch.tensor([0.0, 10.0, -4.0], dtype=torch.float64)
    cand = torch.tensor([0.005, 10.05, -4.0], dtype=torch.float32)
    rec = evaluate.compare(cand, ref, 0.01, 0.01)
    # element 0: 0.005 / 0.01 = 0.5; element 1: 0.05 / (0.01 + 0.1) = 0.4545...
    assert rec["allclose"] and rec["tolerance_used"] == pytest.approx(0.5, rel=1e-6)
    over = evaluate.compare(torch.tensor([0.012, 10.0, -4.0]), ref, 0.01, 0.01)
    assert not over["allclose"] and over["tolerance_used"] == pytest.approx(1.2, rel=1e-5)


def test_non_finite_references_and_integers_leave_it_out():
    ref = torch.tensor([float("inf"), 1.0], dtype=torch.float64)
    rec = evaluate.compare(torch.tensor([float("inf"), 1.0]), ref, 0.01, 0.01)
    assert rec["allclose"] and rec["tolerance_used"] == 0.0  # the inf matched; the finite one is exact
    assert "tolerance_used" not in evaluate.compare(torch.tensor([3]), torch.tensor([3]), 0.01, 0.01)


def test_an_evaluation_reports_the_largest_over_its_trials(tmp_path):
    prob = tmp_path / "p.py"
    prob.write_text("import torch\nimport torch.nn as nn\n"
                    "class Model(nn.Module):\n    def forward(self, a):\n        return a * 2\n"
                    "def get_inputs():\n    return [torch.rand(256)]\n"
                    "def get_init_inputs():\n    return []\n")
    sol = tmp_path / "s.py"  # off by 0.004 everywhere: 0.004 / (0.01 + 0.01 * |2a|) of the limit
    sol.write_text("import torch.nn as nn\nclass ModelNew(nn.Module):\n    def forward(self, a):\n"
                   "        return a * 2 + 0.004\n")
    task = {"kind": "eval", "problem": str(prob), "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 3, "timing_trials": 2, "warmup": 1, "baselines": [], "seed": 42,
            "profile": "kernelbench-v0.1"}
    r = worker.run_task(task, 120)
    c = r["correctness"]
    per_trial = [t["tolerance_used"] for t in c["trials"]]
    assert all(0 < u <= 0.4 + 1e-6 for u in per_trial), per_trial
    assert c["tolerance_used"] == max(per_trial)
