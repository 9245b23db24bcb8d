"""The sub-pixel rewrite of strided transposed convolutions (src/map/subpixel.h), run on the CPU.

The helpers are taken from the solution `ucutlass optimize --no-gpu` writes for level1/026 under the
kernelbench-v0.1 profile (where TF32 is legal and the sub-pixel kernel ranks first), so the code
tested is the code shipped; the fprop kernel's place is taken by PyTorch's own convolution with the
kernel's padding L - 1 (L = ceil(k / s)), and the result must equal PyTorch's transposed convolution.
"""
from pathlib import Path

import pytest

import shipped_solution

torch = pytest.importorskip("torch")
F = torch.nn.functional
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def solution(tmp_path_factory):
    return shipped_solution.write("level1_026_conv_transpose3d", tmp_path_factory.mktemp("subpixel"),
                                  "--profile", "kernelbench-v0.1")


@pytest.fixture(scope="module")
def helpers(solution):
    return shipped_solution.helpers(solution, "_ucutlass_subpixel_filter", torch)


def subpixel(helpers, x, w, bias, stride, padding, output_padding):
    dims = x.dim() - 2
    conv = (F.conv1d, F.conv2d, F.conv3d)[dims - 1]
    taps = w.shape[2:]
    sub = [-(-k // s) for k, s in zip(taps, stride)]
    f = helpers["_ucutlass_subpixel_filter"](w, stride)
    phases = 1
    for s in stride:
        phases *= s
    z = conv(x, f, None if bias is None else bias.repeat(phases), padding=[n - 1 for n in sub])
    z = z.movedim(1, -1).contiguous().movedim(-1, 1)  # the kernel's result is channels-last
    out = [(i - 1) * s - 2 * p + k + o for i, s, p, k, o in zip(x.shape[2:], stride, padding, taps, output_padding)]
    return helpers["_ucutlass_pixel_shuffle"](z, tuple(stride), tuple(padding), tuple(out))


CASES = [  # (input shape, Cout, kernel, stride, padding, output_padding)
    ((2, 8, 9), 5, (3,), (2,), (1,), (0,)),
    ((2, 8, 9), 5, (4,), (3,), (2,), (1,)),
    ((2, 6, 7, 5), 4, (4, 4), (2, 2), (1, 1), (0, 0)),   # level1/025's kernel and stride
    ((2, 6, 7, 5), 4, (3, 3), (2, 2), (1, 1), (1, 1)),   # level2/025's, with output_padding
    ((1, 3, 6, 6), 2, (5, 3), (3, 1), (2, 0), (1, 0)),   # a stride of 1 along one dimension
    ((1, 4, 5, 6, 4), 3, (3, 3, 3), (2, 2, 2), (1, 1, 1), (0, 0, 0)),  # level1/026's
    ((1, 4, 3, 4, 5), 2, (2, 3, 4), (2, 1, 3), (0, 1, 1), (0, 0, 2)),
]


@pytest.mark.parametrize("shape,cout,kernel,stride,padding,output_padding", CASES)
def test_equals_the_transposed_convolution(helpers, shape, cout, kernel, stride, padding, output_padding):
    g = torch.Generator().manual_seed(7)
    x = torch.randn(*shape, generator=g, dtype=torch.float64)
    w = torch.randn(shape[1], cout, *kernel, generator=g, dtype=torch.float64)
    b = torch.randn(cout, generator=g, dtype=torch.float64)
    transposed = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[len(kernel) - 1]
    want = transposed(x, w, b, stride=stride, padding=padding, output_padding=output_padding)
    got = subpixel(helpers, x, w, b, stride, padding, output_padding)
    assert got.shape == want.shape
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)
    # Channels-last out as in: the shuffle's copy moves runs of channels (an NCHW result gathers).
    assert got.stride(1) == 1


def test_the_weight_is_built_once_per_parameter_version_and_channels_last(helpers):
    owner = torch.nn.Module()
    p = torch.nn.Parameter(torch.randn(6, 4, 3, 3))

    def weight():
        return helpers["_ucutlass_cached"](owner, "conv0.w", p, lambda: helpers["_ucutlass_subpixel_filter"](p, (2, 2)))

    first = weight()
    assert weight() is first
    assert list(first.shape) == [16, 6, 2, 2] and first.is_contiguous(memory_format=torch.channels_last)
    with torch.no_grad():
        p.mul_(2)  # an in-place update bumps the version: the rewrite is rebuilt
    again = weight()
    assert again is not first and torch.equal(again, 2 * first)


def test_the_solution_calls_the_kernel_on_the_phase_channels_and_shuffles(solution):
    # Under 1e-2 the kernel reads bf16 roundings: the rewritten weight is rounded once per version and x
    # by the binding's channels-last copy (map::KernelConfig::bf16_operands).
    assert ('_ucutlass_cached(self, "conv0.w", t0, lambda: _ucutlass_subpixel_filter(t0, (2, 2, 2))'
            '.to(torch.bfloat16))') in solution
    assert "x=_ucutlass.channels_last(t2, True)" in solution
    assert 'bias=_ucutlass_cached(self, "conv0.bias", t1, lambda: t1.repeat(8)))' in solution
    assert "_ucutlass_pixel_shuffle(_z_conv0, (2, 2, 2), (1, 1, 1), (31, 63, 63))" in solution


def test_the_solution_passes_the_static_rules(solution):
    import sys
    sys.path.insert(0, str(REPO / "python"))
    from ucutlass_harness import static_check
    report = static_check.check_source(solution)
    # The one warning is the stated precision policy (f32 rounded to bf16 under 1e-2), which KernelBench's
    # own precision-downgrade rule leaves alone (it flags fp32 -> fp16 patterns only).
    assert report.errors == []
    assert all(rule == "precision_downcast" and "bfloat16" in message for rule, message in report.warnings)
