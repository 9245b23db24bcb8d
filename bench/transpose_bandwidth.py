#!/usr/bin/env python3
"""The conv solutions' layout copies on their own: ucutlass's batched transpose against PyTorch's copy.

    python3 bench/transpose_bandwidth.py LABEL=LIB.so [LABEL=LIB.so ...] [--reps 50] [--out FILE|DIR]

Every conv solution moves its activation to channels-last and its result back (codegen/conv_bindings.cpp,
`ucutlass_batched_transpose_copy` and `_to_bf16` in every conv program's library). Each LIB is such a
library (`ucutlass build` of any conv program, e.g. examples/20); several LIBs, e.g. built before and
after a change to the kernel, are timed side by side in this one process on the same tensors, beside
PyTorch's own `.contiguous(memory_format=channels_last)`-style copy.

Per shape (the suite's: level1/022's and level1/019's activations both ways, a 16-bit and an 8-bit
case, f32 rounded to bf16, and a ragged one): exactness against torch's transpose (bit for bit; the bf16
case against torch's own rounding), then the median of per-call CUDA-event times over REPS calls and
the bandwidth it implies (bytes read + written). Writes bench/results/transpose-bandwidth-<stamp>.json
with provenance.
"""

import argparse
import ctypes
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402

# (name, batch, rows, cols, source dtype, destination dtype)
SHAPES = [
    ("022_to_channels_last", 32, 512, 4096, "float32", "float32"),
    ("022_back", 32, 4096, 512, "float32", "float32"),
    ("019_to_channels_last", 32, 64, 16384, "float32", "float32"),
    ("019_back", 32, 16384, 128, "float32", "float32"),
    ("bf16_to_channels_last", 32, 256, 3136, "bfloat16", "bfloat16"),
    ("u8_to_channels_last", 16, 96, 12544, "uint8", "uint8"),
    ("f32_rounded_to_bf16", 32, 64, 16384, "float32", "bfloat16"),
    ("ragged", 3, 37, 1001, "float32", "float32"),
]


def load(path):
    lib = ctypes.CDLL(str(Path(path).resolve()))
    copy = lib.ucutlass_batched_transpose_copy
    copy.restype = ctypes.c_int
    copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_longlong,
                     ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    to_bf16 = lib.ucutlass_batched_transpose_to_bf16
    to_bf16.restype = ctypes.c_int
    to_bf16.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_longlong,
                        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    return copy, to_bf16


def library_call(torch, lib, src, dst, batch, rows, cols):
    copy, to_bf16 = lib
    msg = ctypes.create_string_buffer(256)
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    if src.dtype != dst.dtype:
        rc = to_bf16(src.data_ptr(), dst.data_ptr(), batch, rows, cols, stream, msg, 256)
    else:
        rc = copy(src.data_ptr(), dst.data_ptr(), batch, rows, cols, src.element_size(), stream, msg, 256)
    if rc != 0:
        raise RuntimeError(f"transpose returned {rc}: {msg.value.decode()}")


def median_ms(torch, fn, reps):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def make_source(torch, shape):
    _, batch, rows, cols, src_dtype, _ = shape
    gen = torch.Generator(device="cuda").manual_seed(7)
    if src_dtype == "uint8":
        return torch.randint(0, 256, (batch, rows, cols), generator=gen, device="cuda", dtype=torch.uint8)
    return torch.randn(batch, rows, cols, generator=gen, device="cuda").to(getattr(torch, src_dtype))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("libs", nargs="+", help="LABEL=path to a conv program's library")
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    a = ap.parse_args(argv)
    import torch
    libs = {}
    for spec in a.libs:
        label, sep, path = spec.partition("=")
        if not sep:
            ap.error(f"{spec!r}: expected LABEL=LIB.so")
        libs[label] = load(path)
    started = provenance.now()
    rows_out = []
    print(f"{'shape':24s} {'MB':>8s} " + " ".join(f"{k + ' ms':>14s} {'TB/s':>6s}" for k in ["torch", *libs]))
    for shape in SHAPES:
        name, batch, rows, cols, _, dst_dtype = shape
        src = make_source(torch, shape)
        want = src.transpose(1, 2).contiguous().to(getattr(torch, dst_dtype))
        moved = src.numel() * (src.element_size() + want.element_size())
        row = {"shape": name, "batch": batch, "rows": rows, "cols": cols, "src_dtype": str(src.dtype),
               "dst_dtype": str(want.dtype), "bytes_moved": moved, "timings": {}}
        # PyTorch's copy of the same transpose (with its own rounding where the types differ).
        ms = median_ms(torch, lambda: src.transpose(1, 2).contiguous().to(want.dtype), a.reps)
        row["timings"]["torch"] = {"median_ms": ms, "tb_per_s": moved / ms / 1e9, "exact": True}
        for label, lib in libs.items():
            dst = torch.empty_like(want)
            dst.fill_(0)
            library_call(torch, lib, src, dst, batch, rows, cols)
            torch.cuda.synchronize()
            exact = bool(torch.equal(dst, want))
            ms = median_ms(torch, lambda: library_call(torch, lib, src, dst, batch, rows, cols), a.reps)
            row["timings"][label] = {"median_ms": ms, "tb_per_s": moved / ms / 1e9, "exact": exact}
        rows_out.append(row)
        cells = " ".join(f"{t['median_ms']:14.4f} {t['tb_per_s']:6.2f}" + ("" if t["exact"] else " WRONG")
                         for t in row["timings"].values())
        print(f"{name:24s} {moved / 1e6:8.1f} {cells}")
        del src, want
    labels = list(libs)
    summary = {}
    for label in labels:
        ratios = [r["timings"]["torch"]["median_ms"] / r["timings"][label]["median_ms"] for r in rows_out]
        summary[label] = {"all_exact": all(r["timings"][label]["exact"] for r in rows_out),
                          "geomean_speedup_vs_torch": statistics.geometric_mean(ratios)}
    if len(labels) >= 2:
        first, last = labels[0], labels[-1]
        summary[f"{last}_vs_{first}"] = statistics.geometric_mean(
            [r["timings"][first]["median_ms"] / r["timings"][last]["median_ms"] for r in rows_out])
    print(summary)
    doc = {"bench": "transpose-bandwidth", "date": started.isoformat(), **provenance.command(),
           "git": provenance.git_state(), "gpu": provenance.gpu_name(), "driver": provenance.driver_version(),
           "libs": {s.partition("=")[0]: s.partition("=")[2] for s in a.libs}, "reps": a.reps,
           "shapes": rows_out, "summary": summary}
    provenance.write_result(a.out, "transpose-bandwidth", started, doc)
    return 0 if all(s["all_exact"] for s in summary.values() if isinstance(s, dict)) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
