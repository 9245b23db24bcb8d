"""bench/kstack_accumulation_model.py: the K-stacked 3xTF32 accumulation model (CPU, small sizes)."""
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import kstack_accumulation_model as model  # noqa: E402


def test_the_stacked_parts_multiply_to_fp32_products_and_truncation_costs_more_than_rounding():
    gen = torch.Generator().manual_seed(7)
    x, w = torch.randn(16, 1024, generator=gen), torch.randn(1024, 32, generator=gen)
    ref = x.double() @ w.double()
    a_s, b_s = model.stacked_operands(x, w)
    assert a_s.shape == (16, 3072) and b_s.shape == (3072, 32)
    # TF32 operands: the low 13 mantissa bits are zero, so every product is exact in fp32.
    assert not (a_s.view(torch.int32) & 8191).any() and not (b_s.view(torch.int32) & 8191).any()
    nearest = (model.accumulate(a_s, b_s, "nearest") - ref).abs().max().item()
    zero = (model.accumulate(a_s, b_s, "zero") - ref).abs().max().item()
    promoted = (model.accumulate(a_s, b_s, "zero", promote_every=16) - ref).abs().max().item()
    assert zero > 4 * nearest  # truncation's bias grows with the chain
    assert promoted < zero / 4  # short chains promoted with round-to-nearest take most of it back


def test_toward_zero_never_rounds_away():
    x = torch.tensor([1.0 + 2.0 ** -30, -(1.0 + 2.0 ** -30), 3.0], dtype=torch.float64)
    assert model.toward_zero(x).tolist() == [1.0, -1.0, 3.0]
