"""Trial inputs (evaluate.make_inputs): drawn where they will be used, seeded, with a CPU fallback.

get_inputs() runs with the evaluation's device as torch's default, so a GPU evaluation draws its inputs
on the GPU; one whose get_inputs() cannot run there is drawn on the CPU and moved. The meta device
stands in for a GPU here: factory calls work on it, reading values back (.tolist()) does not. torch
needed (numpy is not: torch does not install it, and a fresh CI machine lacks it).
"""

import types

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed: evaluation tests need it")

from ucutlass_harness import evaluate  # noqa: E402


def problem(get_inputs):
    return types.SimpleNamespace(get_inputs=get_inputs)


PLAIN = problem(lambda: [torch.rand(64, 32), 7, torch.randint(0, 5, (3,))])


@pytest.mark.parametrize("dist", evaluate.DISTRIBUTIONS)
def test_the_same_seed_draws_the_same_inputs(dist):
    a = evaluate.make_inputs(PLAIN, 42, dist, "cpu")
    b = evaluate.make_inputs(PLAIN, 42, dist, "cpu")
    c = evaluate.make_inputs(PLAIN, 43, dist, "cpu")
    assert torch.equal(a[0], b[0]) and torch.equal(a[2], b[2]) and a[1] == 7
    assert not torch.equal(a[0], c[0])


def test_distributions_reshape_float_inputs_only():
    base, normal, shifted = (evaluate.make_inputs(PLAIN, 42, d, "cpu") for d in evaluate.DISTRIBUTIONS)
    assert 0.0 <= float(base[0].min()) and float(base[0].max()) < 1.0
    assert float(normal[0].min()) < 0.0
    assert torch.allclose(shifted[0], base[0] * 4.0 - 1.0)
    assert torch.equal(base[2], normal[2]) and torch.equal(base[2], shifted[2])


def test_inputs_are_drawn_on_the_evaluation_device():
    drawn = []

    def get_inputs():
        x = torch.rand(8, 8)
        drawn.append(x.device.type)
        return [x]

    out = evaluate.make_inputs(problem(get_inputs), 42, "problem", "meta")
    assert drawn == ["meta"] and out[0].device.type == "meta"


def test_a_get_inputs_that_needs_the_cpu_falls_back_to_it():
    drawn = []

    def get_inputs():
        x = torch.rand(8, 8)
        drawn.append(x.device.type)
        return [torch.tensor(x.tolist())]  # reading values back fails on the meta device

    out = evaluate.make_inputs(problem(get_inputs), 42, "problem", "meta")
    assert drawn == ["meta", "cpu"] and out[0].device.type == "meta"
    cpu = evaluate.make_inputs(problem(get_inputs), 42, "problem", "cpu")
    assert torch.equal(cpu[0], evaluate.make_inputs(problem(get_inputs), 42, "problem", "cpu")[0])
