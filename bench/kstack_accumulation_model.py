#!/usr/bin/env python3
"""A CPU model of K-stacked 3xTF32's error under the tensor cores' fp32 accumulation (no GPU).

    python3 bench/kstack_accumulation_model.py [--m 128] [--n 256] [--k 4096] [--seed 43]

The sm90a K-stacked kernel (docs/optimize.md, "Search") multiplies [A_lo A_hi A_hi] by [B_hi; B_lo; B_hi]
as one TF32 GEMM of depth 3K. Each TF32 product is exact in fp32; what is left is the accumulation, one
MMA step of 8 products at a time into an fp32 accumulator. On the H200, kernelbench's level1/003 (K = 4096,
normal inputs) measured ~10x PyTorch's own fp32 error (0.0040 against 0.0004, session 25), sm80 3xTF32 a
small fraction of it. This model sums each step's 8 products exactly and adds them to the accumulator
with round-to-nearest or round-toward-zero (the truncation a tensor core's adder is said to apply), then
the same with split-K chains summed in fp32, and with the accumulator promoted (added to a register
accumulator with round-to-nearest, then cleared) every P steps, the two-level accumulation CUTLASS's FP8
mainloops use. Which model matches the GPU's error is the question a GPU A/B settles; the model says
what each remedy would buy if the truncation is the cause.

Session 25 (M 128, N 256, K 4096, seed 43): PyTorch's fp32 GEMM on the CPU 1.3e-4; round-to-nearest
2.7e-4; round-toward-zero 3.4e-3 (the GPU's order of magnitude), 2.5e-3 with 4 splits, 1.5e-4 promoted
every 16 steps (k = 128).
"""
import argparse

import torch


def tf32(x):
    """x rounded to TF32 (10-bit mantissa) to nearest, as the split kernel does (+4096, then the mask)."""
    return ((x.view(torch.int32) + 4096) & -8192).view(torch.float32)


def toward_zero(x64):
    """float64 -> float32, rounded toward zero."""
    f = x64.float()
    over = f.double().abs() > x64.abs()
    f[over] = torch.nextafter(f[over], torch.zeros_like(f[over]))
    return f


def stacked_operands(a, b):
    """The K-stacked operands; the lo parts are read as TF32 by the MMA, so rounded here."""
    a_hi, b_hi = tf32(a), tf32(b)
    return torch.cat([tf32(a - a_hi), a_hi, a_hi], dim=1), torch.cat([b_hi, tf32(b - b_hi), b_hi], dim=0)


def accumulate(a_s, b_s, rounding, splits=1, promote_every=0):
    """The stacked GEMM's result (float64 for comparison): `splits` chains over the stacked depth, each of
    MMA steps of 8 products added with `rounding` ("nearest" or "zero"), promoted every `promote_every`
    steps (0: never) into a round-to-nearest accumulator; the chains summed in fp32."""
    m, depth, n = a_s.shape[0], a_s.shape[1], b_s.shape[1]
    add = toward_zero if rounding == "zero" else (lambda x: x.float())
    chain = depth // splits
    total = torch.zeros(m, n)
    for s in range(splits):
        main = torch.zeros(m, n)
        acc = torch.zeros(m, n)
        end = depth if s == splits - 1 else (s + 1) * chain
        for step, k0 in enumerate(range(s * chain, end, 8), start=1):
            part = a_s[:, k0:k0 + 8].double() @ b_s[k0:k0 + 8].double()
            acc = add(acc.double() + part)
            if promote_every and step % promote_every == 0:
                main = (main.double() + acc).float()
                acc.zero_()
        main = (main.double() + acc).float()
        total = (total.double() + main).float()
    return total.double()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--m", type=int, default=128)
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--k", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=43)
    a = ap.parse_args()
    if a.k % 8 or min(a.m, a.n, a.k) <= 0:
        ap.error("--m, --n, --k must be positive and --k a multiple of 8")
    gen = torch.Generator().manual_seed(a.seed)
    x = torch.randn(a.m, a.k, generator=gen)
    w = torch.randn(a.k, a.n, generator=gen)
    ref = x.double() @ w.double()
    a_s, b_s = stacked_operands(x, w)
    rows = [("PyTorch's fp32 GEMM (CPU)", (x @ w).double())]
    rows += [(f"stacked, round to nearest, splits {s}", accumulate(a_s, b_s, "nearest", s)) for s in (1, 4)]
    rows += [(f"stacked, toward zero, splits {s}", accumulate(a_s, b_s, "zero", s)) for s in (1, 2, 4)]
    rows += [(f"stacked, toward zero, promoted every {p} steps (k = {8 * p})", accumulate(a_s, b_s, "zero", 1, p))
             for p in (4, 16, 64)]
    print(f"M {a.m} N {a.n} K {a.k}, normal inputs (seed {a.seed}): max and mean |error| against float64")
    for name, out in rows:
        err = (out - ref).abs()
        print(f"  {name:<56} {err.max().item():9.3g} {err.mean().item():9.3g}")


if __name__ == "__main__":
    main()
