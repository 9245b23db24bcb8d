"""The space-to-depth rewrite of strided few-channel convolutions (src/map/space_to_depth.h), on the CPU.

The helpers are taken from the solution `ucutlass optimize --no-gpu` writes for level1/020 (the RGB stem)
under kernelbench-v0.1, where the space-to-depth kernel ranks first, so the code tested is the code shipped;
PyTorch's stride-1 convolution over the blocked input and filter stands in for the kernel, and must give
the strided convolution's result.
"""
import pytest

import shipped_solution

torch = pytest.importorskip("torch")
F = torch.nn.functional


@pytest.fixture(scope="module")
def solution(tmp_path_factory):
    return shipped_solution.write("level1_020_conv2d_strided_7x7", tmp_path_factory.mktemp("s2d"),
                                  "--profile", "kernelbench-v0.1")


@pytest.fixture(scope="module")
def helpers(solution):
    return shipped_solution.helpers(solution, "_ucutlass_space_to_depth", torch)


CASES = [  # (input shape, K, kernel, stride, padding)
    ((2, 3, 17, 16), 5, (7, 7), (2, 2), (3, 3)),      # level1/020's stem, odd and even extents
    ((1, 3, 9, 11), 4, (3, 5), (2, 3), (1, 2)),       # unequal strides, taps not a multiple of them
    ((2, 4, 8, 8), 3, (2, 2), (2, 2), (0, 0)),        # a patchify: one tap per block
    ((1, 2, 10, 9), 3, (4, 3), (3, 1), (0, 1)),       # stride 1 along one dimension
    ((2, 3, 13), 6, (5,), (2,), (2,)),                # conv1d
    ((1, 2, 5, 6, 7), 3, (3, 3, 3), (2, 2, 2), (1, 1, 1)),  # conv3d
]


@pytest.mark.parametrize("shape,k,kernel,stride,padding", CASES)
def test_equals_the_strided_convolution(helpers, shape, k, kernel, stride, padding):
    g = torch.Generator().manual_seed(11)
    x = torch.randn(*shape, generator=g, dtype=torch.float64)
    w = torch.randn(k, shape[1], *kernel, generator=g, dtype=torch.float64)
    conv = (F.conv1d, F.conv2d, F.conv3d)[len(kernel) - 1]
    want = conv(x, w, stride=stride, padding=padding)
    sub = [-(-t // s) for t, s in zip(kernel, stride)]
    grid = [o + n - 1 for o, n in zip(want.shape[2:], sub)]
    blocked = helpers["_ucutlass_space_to_depth"](x, tuple(stride), tuple(padding), tuple(grid))
    filt = helpers["_ucutlass_space_to_depth_filter"](w, tuple(stride))
    phases = 1
    for s in stride:
        phases *= s
    assert blocked.shape[1] == phases * shape[1] and list(blocked.shape[2:]) == grid
    assert blocked.stride(1) == 1 and filt.stride(1) == 1  # channels-last, as the binding reads them
    torch.testing.assert_close(conv(blocked, filt), want, rtol=1e-12, atol=1e-12)


def test_the_solution_blocks_x_per_call_and_the_weight_once(solution):
    assert "_ucutlass.conv0(x=_ucutlass_space_to_depth(t2, (2, 2), (3, 3), (115, 115)), " in solution
    assert ('_ucutlass_cached(self, "conv0.w", t0, lambda: _ucutlass_space_to_depth_filter(t0, (2, 2)))'
            in solution)
    assert "c = 12" in solution and "r = 4, s = 4" in solution
