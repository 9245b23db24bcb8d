#!/usr/bin/env python3
"""A model of the H200's TF32 tensor-core accumulation, and what it says about K-stacked 3xTF32.

    python3 bench/kstack_accumulation.py [--m 64 --n 512 --k 8192]

level2/017 (x W^T + b, then a row sum; x = torch.rand, W and b nn.Linear-like) measured on the H200
(2026-11-30, bench/results/campaigns/v01-2026-11-30-022529.sqlite and the first kernelbench call):
plain TF32 relative L2 4.3e-4, K-stacked 3xTF32 with the big terms first 8.8e-5, where fp32 gets
6.8e-7. Exact products per K-chunk of 8 accumulated in fp32 rounded to nearest would give about 1e-6
for the stacked product; rounded toward zero, it gives numbers next to the measured ones. This prints
that model's error for each ordering and split (CPU only, no GPU; numpy).
"""

import argparse

import numpy as np


def tf32_nearest(a):
    i = a.view(np.uint32).astype(np.uint64)
    return ((i + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)


def tf32_read(a):  # what a TF32 tensor core takes from an f32 operand: the top 19 bits
    return (a.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def to_f32_toward_zero(v):
    f = v.astype(np.float32)
    over = np.abs(f.astype(np.float64)) > np.abs(v)
    f[over] = np.nextafter(f[over], np.float32(0))
    return f


def gemm(a, b, toward_zero, chunk=8):
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(0, a.shape[1], chunk):
        s = acc.astype(np.float64) + a[:, k:k + chunk].astype(np.float64) @ b[k:k + chunk].astype(np.float64)
        acc = to_f32_toward_zero(s) if toward_zero else s.astype(np.float32)
    return acc


def split_k(a, b, splits):
    step = a.shape[1] // splits
    parts = [gemm(a[:, i * step:(i + 1) * step], b[i * step:(i + 1) * step], True) for i in range(splits)]
    return np.sum(np.stack(parts).astype(np.float64), 0).astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--m", type=int, default=64)
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--k", type=int, default=8192)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    x = rng.random((args.m, args.k), dtype=np.float32)
    w = ((rng.random((args.n, args.k)) * 2 - 1) / np.sqrt(args.k)).astype(np.float32)
    b = ((rng.random(args.n) * 2 - 1) / np.sqrt(args.k)).astype(np.float32)
    ref = (x.astype(np.float64) @ w.T.astype(np.float64) + b).sum(1)
    xh, wh = tf32_nearest(x), tf32_nearest(w)
    xl, wl = tf32_read(x - xh), tf32_read(w - wh)
    b3 = np.concatenate([wh, wl, wh], 1).T
    big_first = np.concatenate([xh, xh, xl], 1)
    small_first = np.concatenate([xl, xh, xh], 1)
    rows = [("fp32 (numpy)", (x @ w.T + b).sum(1)),
            ("TF32, nearest accumulation", (gemm(xh, wh.T, False) + b).sum(1)),
            ("TF32, toward-zero accumulation", (gemm(xh, wh.T, True) + b).sum(1)),
            ("K-stacked big first, nearest", (gemm(big_first, b3, False) + b).sum(1)),
            ("K-stacked big first, toward zero", (gemm(big_first, b3, True) + b).sum(1)),
            ("K-stacked small first, toward zero", (gemm(small_first, b3, True) + b).sum(1))]
    rows += [(f"K-stacked big first, toward zero, split-K {s}", (split_k(big_first, b3, s) + b).sum(1)) for s in (2, 4, 8)]
    for name, y in rows:
        print(f"{name:46s} relative L2 {np.linalg.norm(y - ref) / np.linalg.norm(ref):.2e}")


if __name__ == "__main__":
    main()
