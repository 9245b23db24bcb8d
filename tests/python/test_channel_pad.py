"""Zero-padded input channels for sm90a convolutions (src/map/channel_pad.h), run on the CPU.

The helper is taken from the solution `ucutlass optimize --no-gpu` writes for level3/006 (its first conv is
an RGB stem at stride 1, c = 3 f32 channels: 12-byte pixels that sm90a's TMA cannot load; level1/020's
strided stem now ranks its space-to-depth form first) under kernelbench-v0.1, so the code tested is the code
shipped; PyTorch's convolution stands in for the kernel, which must see the same result.
"""
import sys
from pathlib import Path

import pytest

import shipped_solution

torch = pytest.importorskip("torch")
F = torch.nn.functional
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def solution(tmp_path_factory):
    return shipped_solution.write("level3_006_conv_net_small", tmp_path_factory.mktemp("pad"),
                                  "--profile", "kernelbench-v0.1")


@pytest.fixture(scope="module")
def helpers(solution):
    return shipped_solution.helpers(solution, "_ucutlass_pad_channels", torch)


@pytest.mark.parametrize("dims,channels,padded", [(1, 3, 4), (2, 3, 4), (2, 6, 8), (3, 5, 8)])
def test_padded_channels_leave_the_convolution_unchanged(helpers, dims, channels, padded):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(2, channels, *([9] * dims), generator=g, dtype=torch.float64)
    w = torch.randn(7, channels, *([3] * dims), generator=g, dtype=torch.float64)
    conv = (F.conv1d, F.conv2d, F.conv3d)[dims - 1]
    pad = helpers["_ucutlass_pad_channels"]
    xp, wp = pad(x, padded), pad(w, padded)
    assert xp.shape[1] == padded and torch.equal(xp[:, :channels], x) and not xp[:, channels:].any()
    if dims == 2:
        assert xp.is_contiguous(memory_format=torch.channels_last)
    if dims == 3:
        assert xp.is_contiguous(memory_format=torch.channels_last_3d)
    torch.testing.assert_close(conv(xp, wp, stride=2, padding=1), conv(x, w, stride=2, padding=1), rtol=0, atol=1e-12)


def test_the_solution_pads_x_per_call_and_the_weight_once(solution):
    assert "_ucutlass.conv0(x=_ucutlass_pad_channels(t23, 4), " in solution
    assert '_ucutlass_cached(self, "conv0.w", t0, lambda: _ucutlass_pad_channels(t0, 4))' in solution
    sys.path.insert(0, str(REPO / "python"))
    from ucutlass_harness import static_check
    report = static_check.check_source(solution)
    assert report.errors == [] and report.warnings == []
