"""The K-stacked 3xTF32 split that solutions carry (src/solution/modelnew_writer.cpp), run on the CPU.

The helper text is taken from a solution `ucutlass optimize --no-gpu` writes under the kernelbench (1e-4)
profile, so the code tested is the code shipped. The tensor-core product is emulated: the hardware reads
the top 19 bits of each f32 operand (TF32), products of TF32 values are exact in f32, sums are f32.
"""
import math

import pytest

import shipped_solution

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def helpers(tmp_path_factory):
    text = shipped_solution.write("level2_001_gemm_bias_relu", tmp_path_factory.mktemp("kstack"))
    return shipped_solution.helpers(text, "_ucutlass_stack3", torch)


def tf32_read(x):  # what a TF32 tensor core takes from an f32 operand
    return (x.view(torch.int32) & -8192).view(torch.float32)


def test_split_is_exact_and_hi_is_tf32(helpers):
    x = torch.randn(3, 5, 64) * torch.logspace(-20, 20, 64)
    s = helpers["_ucutlass_stack3"](x, True)
    lo, hi, hi2 = s[..., :64], s[..., 64:128], s[..., 128:]  # A: [lo, hi, hi], the small terms first
    assert torch.equal(hi, hi2)
    assert int((hi.view(torch.int32) & 8191).abs().sum()) == 0
    assert torch.equal(hi + lo, x)
    assert float((lo.abs() / x.abs()).max()) <= 2.0 ** -11


def test_b_side_stacks_along_k_of_a_column_major_view(helpers):
    w = torch.randn(16, 32)  # nn.Linear's weight [N, K]; B = w.t() is [K, N] column-major
    b3 = helpers["_ucutlass_stack3"](w.t(), False, -2)
    assert list(b3.shape) == [96, 16] and b3.stride() == (1, 96)  # [3K, N], still K-contiguous
    hi = b3[:32]
    assert torch.equal(b3[64:], hi) and torch.equal(hi + b3[32:64], w.t())


def test_inf_and_nan_survive_the_rounding(helpers):
    x = torch.tensor([float("inf"), -float("inf"), float("nan"), 1.0, -0.0])
    hi = helpers["_ucutlass_stack3"](x, True)[5:10]
    assert math.isinf(hi[0]) and hi[0] > 0 and math.isinf(hi[1]) and hi[1] < 0 and math.isnan(hi[2])
    assert hi[3] == 1.0


def test_parameter_split_is_cached_until_the_parameter_changes(helpers):
    class Owner:
        pass

    owner, w = Owner(), torch.nn.Parameter(torch.randn(8, 16))
    stack = helpers["_ucutlass_stack3_param"]
    first = stack(owner, "gemm0.b", w, lambda: w.t(), False, -2)
    assert stack(owner, "gemm0.b", w, lambda: w.t(), False, -2) is first
    with torch.no_grad():
        w.mul_(2)  # bumps the version counter
    again = stack(owner, "gemm0.b", w, lambda: w.t(), False, -2)
    assert again is not first and torch.equal(again[:16] + again[16:32], w.detach().t())


@pytest.mark.parametrize("m,k,n,dist", [(64, 8192, 256, "linear"), (128, 4096, 128, "uniform01"), (512, 64, 512, "linear")])
def test_stacked_product_meets_1e4_where_plain_tf32_does_not(helpers, m, k, n, dist):
    g = torch.Generator().manual_seed(7)
    x = torch.rand(m, k, generator=g)
    w = torch.rand(n, k, generator=g) if dist == "uniform01" else (torch.rand(n, k, generator=g) * 2 - 1) / math.sqrt(k)
    ref = x.double() @ w.double().t()
    a3 = helpers["_ucutlass_stack3"](x, True)
    b3 = helpers["_ucutlass_stack3"](w.t(), False, -2)
    stacked = tf32_read(a3) @ tf32_read(b3.contiguous())
    plain = tf32_read(x) @ tf32_read(w.t().contiguous())

    def bad(out):
        return int(((out.double() - ref).abs() > 1e-4 + 1e-4 * ref.abs()).sum())

    assert bad(stacked) == 0
    assert bad(plain) > 0  # the test can tell a precision loss: plain TF32 fails here


def test_conv_channel_stacking_is_channels_last_and_meets_1e4(helpers):
    # A forward conv with groups = 1 stacks its input channels: conv(x3, w3) = the three-term sum.
    F = torch.nn.functional
    g = torch.Generator().manual_seed(3)
    x = torch.rand(2, 32, 12, 12, generator=g)
    w = (torch.rand(16, 32, 3, 3, generator=g) * 2 - 1) / math.sqrt(32 * 9)
    x3 = helpers["_ucutlass_stack3"](x, True, 1)
    w3 = helpers["_ucutlass_stack3"](w, False, 1)
    assert list(x3.shape) == [2, 96, 12, 12] and x3.is_contiguous(memory_format=torch.channels_last)
    assert list(w3.shape) == [16, 96, 3, 3] and w3.is_contiguous(memory_format=torch.channels_last)
    ref = F.conv2d(x.double(), w.double(), padding=1)
    stacked = F.conv2d(tf32_read(x3.contiguous()), tf32_read(w3.contiguous()), padding=1)
    plain = F.conv2d(tf32_read(x), tf32_read(w), padding=1)

    def bad(out):
        return int(((out.double() - ref).abs() > 1e-4 + 1e-4 * ref.abs()).sum())

    assert bad(stacked) == 0 and bad(plain) > 0


def _rz_accumulate(a, b, chunk=8):
    """a @ b with exact products per K-chunk and an fp32 accumulator rounded toward zero after each
    chunk: the model of the H200's TF32 tensor-core accumulation that reproduces its measured errors
    (solution/k_stack.cpp)."""
    acc = torch.zeros(a.shape[0], b.shape[1], dtype=torch.float32)
    for k in range(0, a.shape[1], chunk):
        s = acc.double() + a[:, k:k + chunk].double() @ b[k:k + chunk].double()
        f = s.float()
        over = f.double().abs() > s.abs()
        f[over] = torch.nextafter(f[over], torch.zeros_like(f[over]))
        acc = f
    return acc


def test_small_terms_first_lose_less_to_a_truncating_accumulator(helpers):
    g = torch.Generator().manual_seed(11)
    m, k, n = 8, 2048, 32
    x = torch.rand(m, k, generator=g)
    w = (torch.rand(n, k, generator=g) * 2 - 1) / math.sqrt(k)
    ref = x.double() @ w.double().t()
    a3 = tf32_read(helpers["_ucutlass_stack3"](x, True))
    b3 = tf32_read(helpers["_ucutlass_stack3"](w.t(), False, -2).contiguous())
    kk = k
    # The same three terms, big first ([hi, hi, lo] x [hi; lo; hi]), as the helper wrote them before.
    a_big = torch.cat([a3[:, kk:2 * kk], a3[:, 2 * kk:], a3[:, :kk]], 1)
    b_big = torch.cat([b3[:kk], b3[kk:2 * kk], b3[2 * kk:]], 0)

    def rel(out):
        return float((out.double() - ref).norm() / ref.norm())

    small_first, big_first = rel(_rz_accumulate(a3, b3)), rel(_rz_accumulate(a_big, b_big))
    assert small_first < big_first / 2, (small_first, big_first)


# 3xBF16 (map::KernelConfig::bf16_operands with k_stack3): the same helper splits into bf16 parts.


def test_bf16_split_is_nearest_and_leaves_2e16(helpers):
    x = torch.randn(4, 96) * torch.logspace(-10, 10, 96)
    s = helpers["_ucutlass_stack3"](x, True, -1, True)
    assert s.dtype == torch.bfloat16 and list(s.shape) == [4, 288]
    lo, hi, hi2 = s[:, :96], s[:, 96:192], s[:, 192:]  # A: [lo, hi, hi]
    assert torch.equal(hi, hi2) and torch.equal(hi, x.to(torch.bfloat16))
    assert float(((x.double() - hi.double() - lo.double()).abs() / x.double().abs()).max()) <= 2.0 ** -16
    b = helpers["_ucutlass_stack3"](x.t(), False, -2, True)  # B [K, N] column-major: [hi; lo; hi] along K
    assert list(b.shape) == [288, 4] and b.stride() == (1, 288)
    assert torch.equal(b[:96], hi.t()) and torch.equal(b[96:192], lo.t())


def test_bf16_stacked_product_meets_1e2_on_normal_inputs_where_one_rounding_does_not(helpers):
    # The kernelbench-v0.1 harness's N(0, 1) trial of a GEMM of two inputs (level1/001's K): outputs
    # ~64 wide, near-zero ones held to atol = 1e-2.
    g = torch.Generator().manual_seed(5)
    m, k, n = 32, 4096, 64
    x, y = torch.randn(m, k, generator=g), torch.randn(k, n, generator=g)
    ref = x.double() @ y.double()
    a3 = helpers["_ucutlass_stack3"](x, True, -1, True)
    b3 = helpers["_ucutlass_stack3"](y, False, -2, True)
    stacked = _rz_accumulate(a3.float(), b3.float(), chunk=16)
    plain = x.to(torch.bfloat16).double() @ y.to(torch.bfloat16).double()

    def bad(out):
        return int(((out.double() - ref).abs() > 1e-2 + 1e-2 * ref.abs()).sum())

    assert bad(stacked) == 0 and bad(plain) > 0


def test_bf16_conv_channel_stacking_meets_1e4_where_one_rounding_does_not(helpers):
    # Under 1e-4 a forward conv K-stacks into bf16 parts (3xBF16) along its channels, channels-last.
    F = torch.nn.functional
    g = torch.Generator().manual_seed(9)
    x = torch.randn(2, 32, 12, 12, generator=g)
    w = (torch.rand(16, 32, 3, 3, generator=g) * 2 - 1) / math.sqrt(32 * 9)
    x3 = helpers["_ucutlass_stack3"](x, True, 1, True)
    w3 = helpers["_ucutlass_stack3"](w, False, 1, True)
    assert x3.dtype == torch.bfloat16 and list(x3.shape) == [2, 96, 12, 12]
    assert x3.is_contiguous(memory_format=torch.channels_last) and w3.is_contiguous(memory_format=torch.channels_last)
    ref = F.conv2d(x.double(), w.double(), padding=1)
    stacked = F.conv2d(x3.double(), w3.double(), padding=1)
    plain = F.conv2d(x.to(torch.bfloat16).double(), w.to(torch.bfloat16).double(), padding=1)

    def bad(out):
        return int(((out - ref).abs() > 1e-4 + 1e-4 * ref.abs()).sum())

    assert bad(stacked) == 0 and bad(plain) > 0


def test_parts_padded_to_k_out_leave_the_product_as_it_was(helpers):
    # K = 3079 (level1/011): parts padded with zeros to 3080 so every stacked row is whole 16-byte
    # units (map/stacked_k.h); the extra columns are zero on both sides, so they add nothing.
    g = torch.Generator().manual_seed(5)
    m, k, n, k_out = 9, 3079, 7, 3080
    x = torch.rand(m, k, generator=g)
    b = torch.rand(k, n, generator=g)  # a row-major B: stacked along its K = dim -2
    for bf16 in (False, True):
        a3 = helpers["_ucutlass_stack3"](x, True, -1, bf16=bf16, k_out=k_out)
        b3 = helpers["_ucutlass_stack3"](b, False, -2, bf16=bf16, k_out=k_out)
        assert list(a3.shape) == [m, 3 * k_out] and list(b3.shape) == [3 * k_out, n]
        assert b3.stride() == (1, 3 * k_out)  # still K-contiguous: the kernel's column-major B
        for part in range(3):
            assert int(a3[:, part * k_out + k:(part + 1) * k_out].abs().sum()) == 0
            assert int(b3[part * k_out + k:(part + 1) * k_out].float().abs().sum()) == 0
        unpadded = helpers["_ucutlass_stack3"](x, True, -1, bf16=bf16).double() @ \
            helpers["_ucutlass_stack3"](b, False, -2, bf16=bf16).double()
        assert torch.allclose(a3.double() @ b3.double(), unpadded, rtol=1e-12, atol=0)  # f64 sums, reordered
    # No k_out, or one not wider than K: the stack is exactly as before.
    assert torch.equal(helpers["_ucutlass_stack3"](x, True, -1, k_out=k), helpers["_ucutlass_stack3"](x, True))
