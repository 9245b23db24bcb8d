#!/usr/bin/env python3
"""Row kernels (src/codegen/runtime/row_kernels.hpp) on the GPU, two ways.

Usage (GPU machine, from the repository root, after scripts/build):
    python3 tests/nvcc/check_rows_gpu.py [--ucutlass BIN] [--out FILE]

1. The runtime alone: tests/nvcc/row_kernels_gpu.cu (every operation, instantiations and shapes with
   tails, splits, bf16 inputs, affine and not, planted ties and NaN, against a float64 CPU reference),
   compiled with nvcc and run; its PASS/FAIL lines and bandwidth lines are kept.
2. The emitted code end to end: examples/25_row_kernels.dsl built by `ucutlass build` (header, C API),
   its torch binding compiled, and each kernel compared with the PyTorch operation it stands for on
   the suite's shapes (torch.rand inputs like problems/level1/028-035, and N(0, 1) ones), to
   |y - ref| <= 1e-5 + 1e-5 |ref| against the operation in float64 (argmax exactly), then timed against
   the eager operation (CUDA-event medians).

Writes bench/results/row-kernels-<date>.json with provenance; exits 1 when anything fails.
"""
import argparse
import json
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "python"))
import provenance  # noqa: E402

sys.path.insert(0, str(REPO / "tests" / "nvcc"))
from runtime_check import build_example, runtime_test  # noqa: E402

EXAMPLE = REPO / "examples" / "25_row_kernels.dsl"


def cases(torch):
    """(kernel, input makers, the PyTorch operation, extra arguments[, the eager operation timed]) per kernel of
    the example. The operation runs on float64 copies of f32 data for the reference."""
    def rand(*shape, dtype=torch.float32):
        return torch.rand(*shape, device="cuda", dtype=dtype)

    def randn(*shape, dtype=torch.float32):
        return torch.randn(*shape, device="cuda", dtype=dtype)

    gn_weight, gn_bias = randn(256), randn(256)
    ln_weight, ln_bias = randn(4096, dtype=torch.bfloat16), randn(4096, dtype=torch.bfloat16)
    F = torch.nn.functional
    return [
        ("softmax_rows", [lambda: rand(16384, 16384), lambda: randn(16384, 16384) * 5], lambda x: torch.softmax(x, 1), []),
        ("softmax_long", [lambda: rand(64, 1048576), lambda: randn(64, 1048576) * 5], lambda x: torch.softmax(x, 1), []),
        ("logsumexp_rows", [lambda: rand(16384, 16384), lambda: randn(16384, 16384) * 5],
         lambda x: torch.logsumexp(x, 1), []),
        ("layer_norm", [lambda: rand(16384, 8192), lambda: randn(16384, 8192) + 100],
         lambda x: F.layer_norm(x, (8192,)), []),
        ("group_norm", [lambda: rand(32, 256, 64, 64), lambda: randn(32, 256, 64, 64)],
         lambda x, w, b: F.group_norm(x, 32, w, b), [gn_weight, gn_bias]),
        ("row_sum", [lambda: rand(16384, 16384), lambda: randn(16384, 16384)], lambda x: torch.sum(x, 1), []),
        ("row_argmax", [lambda: rand(16384, 16384), lambda: randn(16384, 16384)], lambda x: torch.argmax(x, 1), []),
        # The reference in float64 from the bf16 data; PyTorch's own bf16 layer norm is what it is timed against.
        ("layer_norm_bf16", [lambda: randn(4096, 4096, dtype=torch.bfloat16)],
         lambda x, w, b: F.layer_norm(x.double(), (4096,), w.double(), b.double(), 1e-6), [ln_weight, ln_bias],
         lambda x, w, b: F.layer_norm(x, (4096,), w, b, 1e-6)),
    ]


def compare(torch, name, got, want, x):
    if want.dtype == torch.int64:
        return {"exact": bool(torch.equal(got, want)), "mismatches": int((got != want).sum())}, bool(torch.equal(got, want))
    ref = want.double()
    err = (got.double() - ref).abs()
    bound = 1e-5 + 1e-5 * ref.abs()
    if name == "row_sum":
        # A sum of N(0, 1) values cancels to near 0: its f32 error scales with the sum of |x|, not with |sum|.
        bound = bound + 1e-6 * x.double().abs().sum(1)
    ok = bool((err <= bound).all()) and got.shape == want.shape
    return {"max_abs_err": float(err.max()), "max_err_over_bound": float((err / bound).max())}, ok


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    ap.add_argument("--out", help="result JSON (default bench/results/row-kernels-<date>.json)")
    args = ap.parse_args(argv)
    started = provenance.now()
    work = REPO / "build" / "rows-gpu"
    work.mkdir(parents=True, exist_ok=True)
    runtime, runtime_ok = runtime_test("tests/nvcc/row_kernels_gpu.cu", work)

    import torch
    from ucutlass_calibrate.measure import median_ms  # CUDA-event median after warm-up
    mod, built = build_example(args.ucutlass, EXAMPLE, "ucutlass_rows")
    if mod is None:
        return 1
    results, timing = [], {}
    torch.manual_seed(0)
    for name, makers, op, extra, *timed in cases(torch):
        kernel = getattr(mod, name)
        eager_op = timed[0] if timed else op
        for i, make in enumerate(makers):
            x = make()
            got = kernel(x, *extra)
            exact = name == "row_argmax" or x.dtype != torch.float32
            want = op(x if exact else x.double(), *[e if exact else e.double() for e in extra])
            if name != "row_argmax" and got.shape != want.shape:
                got = got.reshape(want.shape)
            record, ok = compare(torch, name, got, want, x)
            results.append({"kernel": name, "input": i, "shape": list(x.shape), "dtype": str(x.dtype), "pass": ok, **record})
            print(f"{'PASS' if ok else 'FAIL'} {name} input {i} {list(x.shape)} {record}")
            del got, want
        x = makers[0]()
        ours = median_ms(lambda: kernel(x, *extra), 20)
        eager = median_ms(lambda: eager_op(x, *extra), 20)
        y = kernel(x, *extra)
        moved = x.numel() * x.element_size() + y.numel() * y.element_size()
        timing[name] = {"ucutlass_ms": ours, "eager_ms": eager, "speedup": eager / ours,
                        "ucutlass_tb_per_s": moved / ours / 1e9}
        print(f"TIME {name}: ucutlass {ours:.4f} ms ({moved / ours / 1e9:.2f} TB/s), eager {eager:.4f} ms "
              f"(x{eager / ours:.2f})")
        del x, y
        torch.cuda.empty_cache()
    passed = sum(r["pass"] for r in results)
    report = {"kind": "ucutlass-row-kernels", "started": started.isoformat(), **provenance.command(),
              "git": provenance.git_state(), "host": provenance.host(), "nvcc": provenance.nvcc_version(),
              "driver": provenance.driver_version(), "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
              "runtime_test": runtime, "build": built,
              "cases": results, "timing": timing, "passed": passed, "failed": len(results) - passed,
              "seconds": (provenance.now() - started).total_seconds()}
    out = pathlib.Path(args.out or REPO / "bench" / "results" / f"row-kernels-{provenance.file_stamp(started)}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    ok = passed == len(results) and runtime_ok
    print(f"{passed} passed, {len(results) - passed} failed; runtime test {'ok' if runtime_ok else 'FAILED'}; wrote {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
