#!/usr/bin/env python3
"""Checks and times emitted GEMV kernels (gemv(m, k), ir/validate_gemv.h) on the GPU through their C API.

Usage: check_gemv_gpu.py LIB.so CASE_DIR [--json OUT]
  LIB.so    the program's C API built by tests/nvcc/run.sh (bench/gemv/gemv_sweep.dsl's, say)
  CASE_DIR  its emitted files (the manifest lists the kernels)

For every kernel: A [batch, M, K] row-major, x [batch, K, 1], C [batch, M, 1] when read, uniform in
[-1, 1]; y is compared with a float64 reference of alpha * A x + beta * C, next to PyTorch's own
error in the input type (the harness's native floor), then timed: CUDA events around 20 launches
after 3 warm-ups, A (hundreds of MiB) far larger than the L2, so each launch reads it from DRAM.
PyTorch's matmul of the same operands (cuBLAS's gemv) is timed the same way for comparison.
"""
import argparse
import ctypes
import json
import pathlib
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import provenance  # noqa: E402
from capi_params import Params  # noqa: E402


DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
DYNAMIC = {"M": 4128, "K": 1032, "batch": 1}  # M a multiple of every warp's rows, K with a tail


def timed(fn, warmup=3, reps=20):
    for _ in range(warmup):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps


def check(lib, sig, settings):
    name = sig["kernel"]
    ext = {key: (v if v else DYNAMIC.get(key, 1)) for key, v in sig["extents"].items()}
    M, K, B = ext["M"], ext["K"], ext["batch"]
    t_in, t_out = DTYPES[sig["types"]["a"]], DTYPES[sig["types"]["d"]]
    a = (torch.rand((B, M, K), device="cuda", dtype=torch.float32) * 2 - 1).to(t_in)
    x = (torch.rand((B, K, 1), device="cuda", dtype=torch.float32) * 2 - 1).to(t_in)
    reads_c = sig["types"]["c"] != "void"
    c = (torch.rand((B, M, 1), device="cuda", dtype=torch.float32) * 2 - 1).to(t_out) if reads_c else None
    d = torch.full((B, M, 1), float("nan"), device="cuda", dtype=t_out)
    alpha, beta = sig["alpha"], sig["beta"]
    p = Params(a=a.data_ptr(), b=x.data_ptr(), c=c.data_ptr() if reads_c else None, d=d.data_ptr(),
               m=M, n=1, k=K, batch=B, alpha=alpha, beta=beta)
    run = getattr(lib, "ucutlass_" + name + "_run")
    run.argtypes = [ctypes.POINTER(Params), ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    msg = ctypes.create_string_buffer(512)
    stream = torch.cuda.current_stream().cuda_stream

    def launch():
        return run(ctypes.byref(p), stream, msg, 512)

    rc = launch()
    torch.cuda.synchronize()
    if rc != 0:
        return {"kernel": name, "ok": False, "error": msg.value.decode()}
    ref = alpha * torch.matmul(a.double(), x.double())
    native = alpha * torch.matmul(a, x).double()  # PyTorch in the input type: its own error
    if reads_c:
        ref = ref + beta * c.double()
        native = native + beta * c.double()
    err = (d.double() - ref).abs().max().item()
    native_err = (native - ref).abs().max().item()
    ok = bool(torch.isfinite(d).all()) and err <= 4 * native_err + 1e-5 * ref.abs().max().item()
    ms = timed(launch)
    torch_ms = timed(lambda: torch.matmul(a, x)) if B == 1 else None
    moved = (a.numel() + x.numel()) * a.element_size() + d.numel() * d.element_size() * (2 if reads_c else 1)
    return {"kernel": name, "ok": ok, "max_abs_error": err, "torch_max_abs_error": native_err, "ms": ms,
            "tb_per_s": moved / (ms * 1e-3) / 1e12, "torch_ms": torch_ms, "gemv": settings.get("gemv")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib")
    ap.add_argument("case_dir")
    ap.add_argument("--json")
    args = ap.parse_args()
    started = provenance.now()
    manifest = json.loads(next(pathlib.Path(args.case_dir).glob("ucutlass_*.json")).read_text())
    lib = ctypes.CDLL(args.lib)
    torch.manual_seed(0)
    rows = []
    for k in manifest["kernels"]:
        r = check(lib, k, k["settings"])
        rows.append(r)
        if "error" in r:
            print(f"FAIL {r['kernel']}: {r['error']}", flush=True)
            continue
        g = r["gemv"]
        torch_ms = f"{r['torch_ms']:.4f}" if r["torch_ms"] is not None else "-"
        print(f"{'ok  ' if r['ok'] else 'FAIL'} {r['kernel']:24s} access {g['access']:2d} lanes {g['threads_per_row']:2d} "
              f"threads {g['threads']:4d}  {r['ms']:.4f} ms  {r['tb_per_s']:.2f} TB/s  torch {torch_ms} ms  "
              f"err {r['max_abs_error']:.2e} (torch {r['torch_max_abs_error']:.2e})", flush=True)
    if args.json:
        report = {"kind": "ucutlass-gemv-check", "started": started.isoformat(), **provenance.command(),
                  "git": provenance.git_state(), "host": provenance.host(), "nvcc": provenance.nvcc_version(),
                  "driver": provenance.driver_version(), "gpu": torch.cuda.get_device_name(),
                  "torch": torch.__version__, "rows": rows}
        pathlib.Path(args.json).write_text(json.dumps(report, indent=1))
    sys.exit(0 if all(r.get("ok") for r in rows) else 1)


if __name__ == "__main__":
    main()
