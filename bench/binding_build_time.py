#!/usr/bin/env python3
"""How long the C++ side of an emitted PyTorch binding takes to build, with the headers it includes
and with <torch/extension.h> added in front (what the bindings included until 2026-12-01), side by
side in one run, alternating, on golden cases (tests/golden/*/*_torch.cpp). Every attempt of an
optimizer campaign builds one binding beside its CUDA translation unit, so this is part of the time
per attempt.

    python3 bench/binding_build_time.py [CASE ...] [--repeats N] [--out FILE_OR_DIR]

Writes bench/results/binding-build-time-<stamp>.json (per case and variant: every wall time, the
median). Needs torch and a C++ compiler; no GPU.
"""
import argparse
import pathlib
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

import provenance
from ucutlass_cli import REPO

DEFAULT_CASES = ("sm90_chain", "conv_sm80", "sm80_tf32x3_split_k")


def binding_flags():
    """The flags torch.utils.cpp_extension gives an extension's C++ translation unit, for g++ alone
    (tests/python/test_torch_bindings.py compiles every golden binding with them too)."""
    from torch.utils import cpp_extension
    includes = cpp_extension.include_paths("cuda") + [sysconfig.get_paths()["include"]]
    # As cpp_extension's ninja file compiles an extension's .cpp (no -O: its cflags carry none).
    return ["-std=c++17", "-fPIC", "-DTORCH_EXTENSION_NAME=binding_time", "-DTORCH_API_INCLUDE_EXTENSION_H"] + \
        [arg for d in includes for arg in ("-isystem", d)]


def build_seconds(cxx, args, src, obj):
    start = time.perf_counter()
    done = subprocess.run([cxx, *args, "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"binding_build_time: {src} failed to build:\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", default=list(DEFAULT_CASES))
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    a = ap.parse_args()
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        print("binding_build_time: no C++ compiler", file=sys.stderr)
        return 2
    started = provenance.now()
    args = binding_flags()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for case in a.cases:
            srcs = sorted((REPO / "tests" / "golden" / case).glob("*_torch.cpp"))
            if len(srcs) != 1:
                print(f"binding_build_time: {case}: no golden binding", file=sys.stderr)
                return 2
            emitted = srcs[0]
            with_extension = tmp / f"{case}_extension.cpp"
            with_extension.write_text("#include <torch/extension.h>\n" + emitted.read_text())
            times = {"emitted": [], "with_torch_extension_h": []}
            for _ in range(a.repeats):
                times["emitted"].append(build_seconds(cxx, args, emitted, tmp / "a.o"))
                times["with_torch_extension_h"].append(build_seconds(cxx, args, with_extension, tmp / "b.o"))
            row = {"case": case, "seconds": times,
                   "median_s": {k: statistics.median(v) for k, v in times.items()}}
            row["ratio"] = row["median_s"]["with_torch_extension_h"] / row["median_s"]["emitted"]
            rows.append(row)
            print(f"{case:24s} emitted {row['median_s']['emitted']:6.2f} s   with <torch/extension.h> "
                  f"{row['median_s']['with_torch_extension_h']:6.2f} s   x{row['ratio']:.2f}")
    import torch
    result = {"bench": "binding_build_time", "date": started.isoformat(), **provenance.command(),
              "git": provenance.git_state(), "host": provenance.host(), "compiler": cxx,
              "compiler_version": subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0],
              "torch": torch.__version__, "flags": args, "repeats": a.repeats, "cases": rows}
    provenance.write_result(a.out, "binding-build-time", started, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
