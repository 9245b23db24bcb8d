#!/usr/bin/env python3
"""The program's own split kernels (src/codegen/tf32_split.h: 3xTF32 and 3xBF16 parts) against the PyTorch
splits, bit for bit.

Usage (GPU machine, from the repository root, after scripts/build):
    python3 tests/nvcc/check_tf32_split_gpu.py [--ucutlass BIN] [--out FILE]

Builds examples/03_f32_on_tf32.dsl (a TF32 kernel on f32 inputs, so its binding carries `tf32_stack3`) and
examples/23_f32_data_on_bf16.dsl (a bf16 kernel writing f32: `bf16_stack3`), compiles each torch binding
against its library, and calls `tf32_stack3(x, a_side)` and `bf16_stack3(x, a_side)` on the operand shapes
solutions stack: A rows with K contiguous, a row-major B read along K (the transposed view), batched
operands, a conv's NCHW input along its channels, sizes that leave partial 32 x 32 tiles, and Inf, NaN and
signed zeros. Each result must equal the PyTorch split the solutions fall back to, bit for bit (NaN where
it has NaN), and strides the kernels do not take must come back as None. Timing: each fused split against
the PyTorch one on level1/001's 4096 x 4096 operands and on level1/020's rows of 12 channels (median of
CUDA-event timed calls). Writes
bench/results/tf32-split-<date>.json with provenance; exits 1 when any case fails.
"""
import argparse
import json
import os
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "python"))
import provenance  # noqa: E402
import ucutlass_cli  # noqa: E402


def torch_split(torch, x, a_side, bf16=False):
    """The PyTorch split of solution/k_stack.cpp's fallback, on x's last axis."""
    x = x.float()
    k = x.shape[-1]
    out = torch.empty(*x.shape[:-1], 3 * k, dtype=torch.bfloat16 if bf16 else torch.float32, device=x.device)
    hi, lo = (out[..., k:2 * k], out[..., :k]) if a_side else (out[..., :k], out[..., k:2 * k])
    if bf16:
        hi.copy_(x)
        lo.copy_(x - hi.float())
    else:
        torch.bitwise_and(x.view(torch.int32) + 4096, -8192, out=hi.view(torch.int32))
        torch.sub(x, hi, out=lo)
    out[..., 2 * k:].copy_(hi)
    return out


def same_bits(torch, got, want):
    """Equal bit for bit, except that any NaN matches any NaN (CUDA's and PyTorch's bf16 NaNs differ)."""
    if got is None or got.shape != want.shape or got.dtype != want.dtype or not got.is_contiguous():
        return False
    bits = torch.int32 if got.dtype == torch.float32 else torch.int16
    return bool(((got.view(bits) == want.view(bits)) | (torch.isnan(got) & torch.isnan(want))).all())


# (name, example DSL, binding function, bf16 parts)
FORMATS = [("tf32", "03_f32_on_tf32.dsl", "tf32_stack3", False),
           ("bf16", "23_f32_data_on_bf16.dsl", "bf16_stack3", True)]


def cases(torch):
    g = torch.Generator(device="cuda").manual_seed(3)

    def rand(*shape):
        return torch.randn(*shape, generator=g, device="cuda") * 10.0 ** torch.randint(-8, 8, shape, generator=g,
                                                                                        device="cuda")
    special = rand(5, 70)
    special[0, :6] = torch.tensor([float("inf"), -float("inf"), float("nan"), 0.0, -0.0, 1e-40])
    return [
        ("A rows, K contiguous", rand(300, 257), True),
        ("B [K, N] row-major read along K", rand(257, 130).movedim(-2, -1), False),
        ("batched A", rand(3, 65, 96), True),
        ("batched B read along K", rand(3, 96, 65).movedim(-2, -1), False),
        ("conv NCHW input along C", rand(2, 19, 7, 9).movedim(1, -1), True),
        ("conv weight along C", rand(33, 19, 3, 3).movedim(1, -1), False),
        ("one row", rand(1, 1000), True),
        ("K = 1", rand(40, 1), True),
        # Short rows share a block (lane groups of the next power of two of K): a partial last block,
        # K not a power of two, and a conv's few channels (level1/020's space-to-depth input has 12).
        ("short rows, K = 12", rand(1001, 12), True),
        ("short rows, K = 3, batched", rand(3, 77, 3), True),
        ("short rows, K = 100", rand(9, 100), False),
        ("Inf, NaN, zeros, subnormal", special, True),
        # Three leading dimensions of which two merge: [6][20] rows at strides 8 and 48.
        ("leading dimensions merged", rand(4, 5, 6, 8).permute(2, 0, 1, 3), True),
    ]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    ap.add_argument("--out", help="result JSON (default bench/results/tf32-split-<date>.json)")
    args = ap.parse_args(argv)
    started = provenance.now()
    exe = ucutlass_cli.find_exe(args.ucutlass)
    built = ucutlass_cli.build(exe, [REPO / "examples" / f[1] for f in FORMATS], len(FORMATS),
                               cache_dir=REPO / "build" / "kernel-cache")
    if not all(r.get("ok") for r in built["results"]):
        print(built["stderr_tail"])
        return 1
    import torch
    from torch.utils import cpp_extension
    from ucutlass_calibrate.measure import median_ms  # CUDA-event median after warm-up
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    results, timing = [], {}
    for (fmt, _, fn, bf16), res in zip(FORMATS, built["results"]):
        lib = pathlib.Path(res["library"])
        torch_cpp = next(pathlib.Path(res["manifest"]).parent.glob("*_torch.cpp"))
        mod = cpp_extension.load(name=f"ucutlass_split_{lib.stem}", sources=[str(torch_cpp)], with_cuda=True,
                                 extra_ldflags=[str(lib), f"-Wl,-rpath,{lib.parent}"], verbose=False)
        split = getattr(mod, fn)
        for name, x, a_side in cases(torch):
            for side in (a_side, not a_side):
                same = same_bits(torch, split(x, side), torch_split(torch, x, side, bf16))
                results.append({"format": fmt, "case": name, "a_side": side, "shape": list(x.shape),
                                "stride": list(x.stride()), "pass": same})
                print(f"{'PASS' if same else 'FAIL'} {fn} {name} a_side={side} {list(x.shape)} {list(x.stride())}")
        # Strides neither kernel takes: three leading dimensions that do not merge ([5, 4, 6] at 48, 240, 8).
        odd = torch.randn(4, 5, 6, 8, device="cuda").permute(1, 0, 2, 3)
        declined = split(odd, True) is None
        results.append({"format": fmt, "case": "declined strides", "shape": list(odd.shape),
                        "stride": list(odd.stride()), "pass": declined})
        print(f"{'PASS' if declined else 'FAIL'} {fn} unmergeable leading dimensions come back as None")

        a = torch.rand(4096, 4096, device="cuda")
        b = torch.rand(4096, 4096, device="cuda").movedim(-2, -1)  # level1/001's B read along K
        part_bytes = 2 if bf16 else 4
        short = torch.rand(64, 115, 115, 12, device="cuda")  # level1/020's space-to-depth input: rows of 12
        for label, x, side in (("A 4096x4096", a, True), ("B 4096x4096 transposed", b, False),
                               ("short rows 64x115x115x12", short, True)):
            fused = median_ms(lambda: split(x, side), 50)
            ops = median_ms(lambda: torch_split(torch, x, side, bf16), 50)
            timing[f"{fmt} {label}"] = {"fused_ms": fused, "pytorch_ms": ops, "speedup": ops / fused,
                                        "fused_tb_per_s": (4 + 3 * part_bytes) * x.numel() / fused / 1e9}
            print(f"TIME {fn} {label}: fused {fused:.3f} ms, PyTorch ops {ops:.3f} ms (x{ops / fused:.2f})")
    passed = sum(r["pass"] for r in results)
    report = {"kind": "ucutlass-tf32-split", "started": started.isoformat(), **provenance.command(),
              "git": provenance.git_state(), "host": provenance.host(), "nvcc": provenance.nvcc_version(),
              "driver": provenance.driver_version(), "gpu": torch.cuda.get_device_name(),
              "torch": torch.__version__, "build": {"command": built["command"], "seconds": built["wall_seconds"]},
              "cases": results, "timing": timing, "passed": passed, "failed": len(results) - passed,
              "seconds": (provenance.now() - started).total_seconds()}
    out = pathlib.Path(args.out or REPO / "bench" / "results" / f"tf32-split-{provenance.file_stamp(started)}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"{passed} passed, {len(results) - passed} failed; wrote {out}")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
