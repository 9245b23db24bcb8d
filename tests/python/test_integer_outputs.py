"""Integer outputs (torch.argmax's int64 indices) are judged exactly (evaluate.compare).

Before, the reference's norm failed on int64 ("linalg.vector_norm: Expected a floating point ...") and
every argmax solution ended as a runtime error; and a tolerance scaled by |index| would let an index
hundreds of positions off pass. CPU mode, torch needed.
"""

import textwrap

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: evaluation tests need it")

from ucutlass_harness import evaluate, worker  # noqa: E402

ARGMAX = textwrap.dedent('''
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def forward(self, x):
            return torch.argmax(x, dim=1)

    def get_inputs():
        return [torch.rand(64, 4096)]

    def get_init_inputs():
        return []
''')
HEAD = "import torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n"
CANDIDATES = {
    "exact": ("        return torch.argmax(x, dim=1)\n", "ok"),
    # One row's index off by one: within rtol 1e-2 of an index near 2000, but wrong.
    "one_row_off": ("        y = torch.argmax(x, dim=1)\n        y[3] += 1\n        return y\n", "incorrect"),
}


@pytest.mark.parametrize("name", sorted(CANDIDATES))
def test_argmax_indices_match_exactly(tmp_path, name):
    prob = tmp_path / "prob.py"
    prob.write_text(ARGMAX)
    body, verdict = CANDIDATES[name]
    sol = tmp_path / f"{name}.py"
    sol.write_text(HEAD + body)
    task = {"kind": "eval", "problem": str(prob), "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 2, "timing_trials": 2, "warmup": 1, "baselines": ["eager"], "seed": 42,
            "tolerance_profile": "kernelbench-v0.1"}
    r = worker.run_task(task, 120)
    assert r["verdict"] == verdict, r.get("error")


def test_compare_gives_integers_no_tolerance():
    ref = torch.tensor([100, 2000, 3])
    assert evaluate.compare(ref.clone(), ref, 0.01, 0.01)["allclose"]
    rec = evaluate.compare(torch.tensor([100, 2001, 3]), ref, 0.01, 0.01)
    assert not rec["allclose"] and rec["mismatched"] == 1 and rec["rel_l2_err"] > 0
