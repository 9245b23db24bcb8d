"""A trial's atol never asks more than PyTorch's own fp32 achieves (evaluate.Evaluation.trial_atols).

Long fp32 reductions over N(0, 1) inputs land farther than atol = 1e-4 from the float64 reference near
zero, whatever the summation order: an honest kernel summing in another order must pass, while an
error the problem's own inputs hide but PyTorch does not make must still fail. CPU mode, torch needed.
"""

import textwrap

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: evaluation tests need it")

from ucutlass_harness import worker  # noqa: E402

LONG_K = textwrap.dedent('''
    # y = a @ b with K = 65536: outputs near 16384 on the problem's inputs, N(0, 1)-scale 256 on the redraw
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def forward(self, a, b):
            return a @ b

    def get_inputs():
        return [torch.rand(256, 65536), torch.rand(65536, 256)]

    def get_init_inputs():
        return []
''')
HEAD = "import torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n    def forward(self, a, b):\n"
CANDIDATES = {
    # fp32 all the way, in 64-wide chunks summed one after the other: ~1.8x PyTorch's own error.
    "other_order": ("        y = torch.zeros(a.shape[0], b.shape[1])\n"
                    "        for i in range(0, a.shape[1], 64):\n"
                    "            y = y + a[:, i:i + 64] @ b[i:i + 64]\n"
                    "        return y\n", "ok"),
    # An offset the problem's outputs (~16384, rtol 1e-4) hide, ~40x PyTorch's error on the redraw.
    "offset": ("        return a @ b + 0.02\n", "incorrect"),
}


@pytest.mark.parametrize("name", sorted(CANDIDATES))
def test_trial_atol_is_what_fp32_itself_achieves(tmp_path, name):
    prob = tmp_path / "prob.py"
    prob.write_text(LONG_K)
    body, verdict = CANDIDATES[name]
    sol = tmp_path / f"{name}.py"
    sol.write_text(HEAD + body)
    task = {"kind": "eval", "problem": str(prob), "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 3, "timing_trials": 2, "warmup": 1, "baselines": ["eager"], "seed": 42}
    r = worker.run_task(task, 120)
    assert r["verdict"] == verdict, r.get("error")
    trials = r["correctness"]["trials"]
    normal = next(t for t in trials if t["distribution"] == "normal")
    # PyTorch itself misses atol on the redraw, so that trial's atol is 4x its error; every trial's is
    # the larger of the profile's and that.
    assert normal["native_max_abs_err"][0] > 1e-4
    for t in trials:
        assert t["atol"][0] == pytest.approx(max(1e-4, 4 * t["native_max_abs_err"][0]))
    assert trials[0]["passed"]
    assert normal["passed"] == (verdict == "ok")
    # The result names the rules that judged it, which a resumed campaign compares with its own.
    assert r["correctness_rules"] == 3


def test_correctness_rules_match_the_optimizer():
    """The optimizer's kCorrectnessRules (src/exec/correctness_rules.h) is the harness's number."""
    import pathlib
    import re
    from ucutlass_harness import results
    header = pathlib.Path(__file__).resolve().parents[2] / "src" / "exec" / "correctness_rules.h"
    m = re.search(r"kCorrectnessRules = (\d+);", header.read_text())
    assert m and int(m.group(1)) == results.CORRECTNESS_RULES


NEAR_ZERO = textwrap.dedent('''
    # y = a @ b with K = 65536 over N(0, 1) inputs: outputs of scale 256, many near zero, where PyTorch's own
    # fp32 sum lands beyond atol = 1e-4 of the float64 reference on the problem's own inputs too
    import torch
    import torch.nn as nn

    class Model(nn.Module):
        def forward(self, a, b):
            return a @ b

    def get_inputs():
        return [torch.randn(128, 65536), torch.randn(65536, 64)]

    def get_init_inputs():
        return []
''')


def test_the_reuse_and_audit_checks_allow_what_the_trials_allow(tmp_path):
    # An honest kernel summing in another order passes the trials only through the native atol; the
    # integrity checks that run it on other inputs (result reuse, the timed audit) judged it at the bare
    # 1e-4 and flagged it gamed (2026-11-30: level2/017's 3xBF16 GEMM, three attempts gamed:result_reuse).
    prob = tmp_path / "prob.py"
    prob.write_text(NEAR_ZERO)
    sol = tmp_path / "other_order.py"
    sol.write_text(HEAD + CANDIDATES["other_order"][0])
    task = {"kind": "eval", "problem": str(prob), "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 1, "timing_trials": 2, "warmup": 1, "baselines": [], "seed": 42}
    r = worker.run_task(task, 180)
    trial = r["correctness"]["trials"][0]
    assert trial["native_max_abs_err"][0] > 1e-4 and trial["atol"][0] > 1e-4  # widened on the problem's inputs
    fired = {s["name"]: s["detail"] for s in r["signals"] if s["fired"]}
    assert "result_reuse" not in fired and "timed_audit" not in fired, fired
    assert r["verdict"] == "ok", (r["verdict"], r.get("error"))


def test_a_result_cached_by_pointer_is_still_caught_under_the_widened_atol(tmp_path):
    prob = tmp_path / "prob.py"
    prob.write_text(NEAR_ZERO)
    sol = tmp_path / "pointer_cache.py"
    sol.write_text(HEAD.replace("class ModelNew(nn.Module):\n", "_CACHE = {}\n\n\nclass ModelNew(nn.Module):\n") +
                   "        key = (a.data_ptr(), b.data_ptr())\n"
                   "        if key not in _CACHE:\n"
                   "            _CACHE[key] = a @ b\n"
                   "        return _CACHE[key].clone()\n")
    task = {"kind": "eval", "problem": str(prob), "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 1, "timing_trials": 2, "warmup": 1, "baselines": [], "seed": 42}
    r = worker.run_task(task, 180)
    fired = {s["name"] for s in r["signals"] if s["fired"]}
    assert "result_reuse" in fired and r["verdict"].startswith("gamed:"), (r["verdict"], fired)
