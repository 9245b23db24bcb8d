#!/usr/bin/env python3
"""Numerical check of every epilogue built-in on the GPU against a float64 PyTorch reference.

Usage (GPU machine, from the repository root, after scripts/build):
    python3 tests/nvcc/check_epilogue_gpu.py [--jobs 16] [--only GROUP...] [--out FILE]
    python3 tests/nvcc/check_epilogue_gpu.py --dry-run [--only GROUP...]   # CPU: programs and manifests only

For each group of built-ins and each element type it writes a DSL program (one kernel per built-in),
builds it with `ucutlass build --json` (the C API as a shared library), runs every kernel through
ctypes with inputs driven by its signature JSON (A, B, C, bias and the extra operands: scalars,
row/col vectors, aux tensors read or written, reduction vectors written), and compares D (and every
aux_store and reduction output) with a float64 reference computed from the same rounded inputs. The error of one output is
max |out - ref| / (1 + |ref|); the thresholds are per output type (THRESHOLDS). Writes
bench/results/epilogue-<date>.json with provenance (command, git commit, nvcc, driver, host) and
exits 1 when any kernel fails.
"""
import argparse
import ctypes
import json
import math
import pathlib
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import provenance  # noqa: E402
import ucutlass_cli  # noqa: E402

# Output type -> largest accepted max |out - ref| / (1 + |ref|). bf16 keeps 8 mantissa bits (2^-8 = 3.9e-3
# per rounding), f16 11; f32 outputs come from TF32 products (10-bit mantissa inputs).
THRESHOLDS = {"bf16": 2e-2, "f16": 4e-3, "f32": 4e-3}

# Built-ins grouped so each program holds a few kernels (parallel nvcc, short translation units).
# One kernel per entry: (kernel name, with_epilogue steps). Every group runs for each type in TYPES.
GROUPS = {
    "activations_a": [("relu", "relu"), ("gelu", "gelu"), ("gelu_tanh", "gelu_tanh"), ("silu", "silu")],
    "activations_b": [("sigmoid", "sigmoid"), ("tanh", "tanh"), ("mish", "mish"), ("hardswish", "hardswish")],
    "activations_c": [("hardsigmoid", "hardsigmoid"), ("leaky_relu", "leaky_relu(0.1)"), ("elu", "elu(0.7)"),
                      ("selu", "selu")],
    "activations_d": [("softplus", "softplus(2, 10)"), ("clamp", "clamp(-0.5, 0.5)"), ("clip", "clip(0, 0.25)"),
                      ("beta_residual", "beta(0.5), gelu")],
    "constants": [("scale", "scale(0.5), add(1), sub(0.25)"), ("mul_div", "mul(3), div(4)"),
                  ("min_max", "min(0.5), max(-0.5)")],
    "vectors": [("bias_col", "bias(col, f32), relu"), ("bias_row", "bias(row)"),
                ("per_row_scale", "per_row_scale(f32)"), ("per_col_scale", "per_col_scale, per_channel_scale(f32)")],
    "operands": [("scalar", "scale(scalar), add(col), sub(row)"), ("div_min_max", "div(col(f32)), min(row), max(col)"),
                 ("residual", "residual, aux_load(f32)"), ("aux_store", "gelu, aux_store, tanh, aux_store(f32)")],
    "custom": [("custom_inputs", 'custom("relu(x * s + shift) + 0.5 * acc", s = scalar, shift = row(f32))'),
               ("custom_c", 'beta(1.0), custom("gelu(x) * sigmoid(g) + 0.1 * c", g = aux)'),
               ("custom_functions", 'custom("clamp(exp(-abs(x)), 0.1, 0.9) + log(1 + x * x) - sqrt(abs(acc)) '
                                    '+ rsqrt(2 + x * x) + erf(x) / max(2, min(3, x))")'),
               ("custom_chain", 'elu, custom("softplus(x, 2) - leaky_relu(x, 0.2) + hardswish(x) * selu(x)")')],
    # Operand swap (D^T = B^T * A^T as run): the host entry keeps the program's view, so the same
    # reference applies; vectors trade axes and a column-major D becomes row-major as run.
    "operand_swap": [("swap_plain", "alpha(0.5)", ".with_operand_swap(on)"),
                     ("swap_vectors", "bias(col, f32), gelu, per_row_scale(f32), add(col)", ".with_operand_swap(on)"),
                     ("swap_residual_col_d", "residual, aux_store, relu", ".with_operand_swap(on).with_layouts(c = col)")],
    # sm80 bias read as C with a leading dimension of 0 (beta = 1): per column on a row-major D,
    # per row on a column-major D, and batched (batch stride 0).
    # Reductions into [M] / [N] vectors (one per batch), filled with NaN before the run so a
    # vector the kernel leaves unwritten fails; partial tiles in M and N (EXTENTS); swapped axes.
    "reductions": [("row_reduce", "row_sum, row_max(bf16)"), ("col_reduce", "relu, col_sum, col_max, gelu"),
                   ("softmax_tail", 'scale(0.5), row_max, custom("exp(x)"), row_sum, col_sum(f16)'),
                   ("reduce_partial", "row_sum, col_sum, row_max, col_max"),
                   ("reduce_swap", "bias(col, f32), row_sum, col_max", ".with_operand_swap(on)")],
    "sm80_bias": [("sm80_bias_col", "bias(col), relu", ".with_arch(sm80)"),
                  ("sm80_bias_row", "bias(row), gelu", ".with_arch(sm80).with_layouts(c = col)"),
                  ("sm80_bias_batched", "alpha(0.5), bias(col)", ".with_arch(sm80)")],
}
TYPES = ["bf16", "f16", "f32"]
EXTENT = {"M": 256, "N": 384, "K": 512, "batch": 2}
# Kernels with extents of their own (M, N, K): partial tiles in both M and N.
EXTENTS = {"reduce_partial": (200, 328, 512)}
BATCHED = ("residual", "custom_c", "swap_residual_col_d", "sm80_bias_batched", "softmax_tail", "reduce_partial")
REDUCTIONS = ("row_sum", "row_max", "col_sum", "col_max")
DEVICE = "cuda"


def program(group, dtype):
    """A DSL program with one kernel per entry of the group."""
    types = "with_types(f32)" if dtype == "f32" else f"with_types({dtype})"
    lines = [f"# generated by check_epilogue_gpu.py: group {group}, {dtype}"]
    for name, steps, *settings in GROUPS[group]:
        batch = ", batch = 2" if name in BATCHED else ""
        m, n, k = EXTENTS.get(name, (EXTENT["M"], EXTENT["N"], EXTENT["K"]))
        lines.append(f"kernel {name}_{dtype} = gemm(m = {m}, n = {n}, k = {k}{batch})"
                     f".{types}{''.join(settings)}.with_epilogue({steps})")
    return "\n".join(lines) + "\n"


class Params(ctypes.Structure):
    _fields_ = ([(n, ctypes.c_void_p) for n in ("a", "b", "c", "d", "bias")] +
                [(n, ctypes.c_int) for n in ("m", "n", "k", "batch")] +
                [(n, ctypes.c_longlong) for n in ("lda", "ldb", "ldc", "ldd", "batch_stride_a", "batch_stride_b",
                                                  "batch_stride_c", "batch_stride_d")] +
                [("alpha", ctypes.c_float), ("beta", ctypes.c_float),
                 ("extra", ctypes.c_void_p * 8), ("extra_ld", ctypes.c_longlong * 8),
                 ("extra_batch_stride", ctypes.c_longlong * 8)])


def reference_functions(torch):
    F = torch.nn.functional

    def softplus(x, beta=1.0, threshold=20.0):
        return torch.where(beta * x > threshold, x, torch.log1p(torch.exp(beta * x)) / beta)

    return {
        "relu": torch.relu, "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
        "silu": F.silu, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "mish": lambda x: x * torch.tanh(softplus(x)),
        "hardswish": F.hardswish, "hardsigmoid": F.hardsigmoid, "selu": torch.selu,
        "elu": lambda x, a=1.0: torch.where(x > 0, x, a * torch.expm1(x)), "softplus": softplus,
        "exp": torch.exp, "log": torch.log, "abs": torch.abs, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt,
        "erf": torch.erf, "min": torch.minimum, "max": torch.maximum,
        "leaky_relu": lambda x, s: torch.where(x > 0, x, x * s), "clamp": lambda x, lo, hi: x.clamp(lo, hi),
        "neg": lambda x: -x, "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
        "div": lambda a, b: a / b,
    }


def evaluate(expr, env, fns, torch):
    """An expression of the manifest ("x", "acc", "c", a number, {"extra": i}, [op, args...]) in float64."""
    if isinstance(expr, str):
        return env[expr]
    if isinstance(expr, (int, float)):
        return torch.tensor(float(expr), dtype=torch.float64, device=DEVICE)
    if isinstance(expr, dict):
        return env["extras"][expr["extra"]]
    args = [evaluate(a, env, fns, torch) for a in expr[1:]]
    if expr[0] in ("elu", "softplus", "leaky_relu", "clamp"):
        return fns[expr[0]](args[0], *[float(a) for a in args[1:]])
    return fns[expr[0]](*args)


def check_kernel(lib, sig, torch, fns):
    DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
    B = sig["extents"]["batch"]
    M, N, K = (sig["extents"][s] or EXTENT[s] for s in ("M", "N", "K"))
    gen = torch.Generator(device=DEVICE).manual_seed(1234)

    def rand(shape, dtype, scale=1.0):
        t = (torch.rand(shape, generator=gen, device=DEVICE, dtype=torch.float64) * 2 - 1) * scale
        return t.to(DT[dtype])

    def matrix(dtype, layout, rows, cols, scale=1.0):
        t = rand((B, rows, cols) if layout == "row" else (B, cols, rows), dtype, scale)
        return t if layout == "row" else t.transpose(1, 2)

    def ld(t, layout):
        return t.stride(1) if layout == "row" else t.stride(2)

    def tf32_exact(t):
        # f32 operands multiply on TF32 (10 mantissa bits); operands already exact in TF32 make the
        # products exact whatever rounding the tensor cores apply, so the reference sees the kernel's
        # inputs, as it does for bf16 and f16. Otherwise the input rounding (up to 2^-11 relative) leaks
        # into an ill-conditioned epilogue: sqrt(abs(acc)) near acc = 0 turned it into a 4.8e-3 error
        # (custom_functions_f32 on the H200, 2026-11-30) that says nothing about the epilogue.
        if t.dtype != torch.float32:
            return t
        return (t.view(torch.int32) & -8192).view(torch.float32)  # clear the low 13 mantissa bits

    ins = {i["name"]: i for i in sig["inputs"]}
    scale = 1.0 / math.sqrt(math.sqrt(K))
    a = tf32_exact(matrix(ins["a"]["dtype"], ins["a"]["layout"], M, K, scale))
    b = tf32_exact(matrix(ins["b"]["dtype"], ins["b"]["layout"], K, N, scale))
    out = sig["output"]
    d = matrix(out["dtype"], out["layout"], M, N, 0.0)
    p = Params(a=a.data_ptr(), b=b.data_ptr(), d=d.data_ptr(), m=M, n=N, k=K, batch=B, alpha=sig["alpha"],
               beta=sig["beta"])
    p.lda, p.ldb, p.ldd = ld(a, ins["a"]["layout"]), ld(b, ins["b"]["layout"]), ld(d, out["layout"])
    p.batch_stride_a, p.batch_stride_b, p.batch_stride_d = a.stride(0), b.stride(0), d.stride(0)
    acc = torch.matmul(a.double(), b.double())
    x = sig["alpha"] * acc
    c = None
    if "c" in ins:
        c = matrix(ins["c"]["dtype"], ins["c"]["layout"], M, N)
        p.c, p.ldc, p.batch_stride_c = c.data_ptr(), ld(c, ins["c"]["layout"]), c.stride(0)
        x = x + sig["beta"] * c.double()
    bias = None
    if "bias" in ins:
        bias = rand((M if ins["bias"]["shape"] == ["M"] else N,), ins["bias"]["dtype"])
        p.bias = bias.data_ptr()
    keep, extras, outputs = [a, b, c, d, bias], [], {}
    for e in sig["extras"]:
        if e["kind"] == "scalar":
            t = torch.tensor([0.75], device=DEVICE, dtype=torch.float32)
            value = t.double()[0]
        elif e["kind"] in ("row", "col") and e["role"] == "output":
            # [batch, length], packed (batch stride 0 = the length); NaN until the kernel writes it.
            t = torch.full((B, M if e["kind"] == "row" else N), math.nan, device=DEVICE, dtype=DT[e["dtype"]])
            value = None
            outputs[e["index"]] = t
        elif e["kind"] in ("row", "col"):
            t = rand((M if e["kind"] == "row" else N,), e["dtype"]) + 1.5  # away from 0: div(col)
            value = t.double()[None, :, None] if e["kind"] == "row" else t.double()[None, None, :]
        else:
            t = matrix(e["dtype"], e["layout"], M, N, 0.0 if e["role"] == "output" else 1.0)
            value = t.double()
            p.extra_ld[e["index"]], p.extra_batch_stride[e["index"]] = ld(t, e["layout"]), t.stride(0)
            if e["role"] == "output":
                outputs[e["index"]] = t
        p.extra[e["index"]] = t.data_ptr()
        keep.append(t)
        extras.append(value)
    expected = {}
    for step in sig["epilogue"]:
        op = step["op"]
        if op == "bias":
            x = x + (bias.double()[None, :, None] if step["length"] == "M" else bias.double()[None, None, :])
        elif op == "expr":
            x = evaluate(step["expr"], {"x": x, "acc": acc, "c": c.double() if c is not None else None,
                                        "extras": extras}, fns, torch)
        elif op == "aux_store":
            expected[step["extra"]] = x
        elif op in REDUCTIONS:
            # x is [batch, M, N]: a per-row result reduces over N, a per-column one over M.
            dim = 2 if step["over"] == "N" else 1
            x = x.expand(B, M, N)
            expected[step["extra"]] = x.sum(dim) if step["reduce"] == "sum" else x.amax(dim)
        else:
            args = [step[k] for k in ("slope", "lower", "upper", "alpha", "beta", "threshold") if k in step]
            x = fns[op](x, *args)
    msg = ctypes.create_string_buffer(512)
    fn = getattr(lib, sig["symbols"]["run"])
    fn.argtypes = [ctypes.POINTER(Params), ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    rc = fn(ctypes.byref(p), ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), msg, 512)
    torch.cuda.synchronize()
    result = {"kernel": sig["kernel"], "dtype": out["dtype"], "rc": rc, "message": msg.value.decode()}
    if rc != 0:
        result["pass"] = False
        return result

    def error(got, want):
        return float(((got.double() - want).abs() / (1 + want.abs())).max())

    errors = {"d": error(d, x)}
    for index, t in outputs.items():
        errors[sig["extras"][index]["name"]] = error(t, expected[index])
    threshold = max([THRESHOLDS[out["dtype"]]] + [THRESHOLDS[sig["extras"][i]["dtype"]] for i in outputs])
    result.update(errors=errors, threshold=threshold,
                  **{"pass": all(v <= threshold for v in errors.values()) and not math.isnan(max(errors.values()))})
    return result


def write_programs(tmp, groups, types):
    """(group, path) of one DSL program per group and type, written under tmp."""
    files = []
    for group in groups:
        for dtype in types:
            path = pathlib.Path(tmp) / f"{group}_{dtype}.dsl"
            path.write_text(program(group, dtype))
            files.append((group, path))
    return files


def step_is_known(step):
    """Whether check_kernel's reference evaluates this manifest step."""
    op = step["op"]
    if op in ("bias", "expr", "aux_store", "relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh", "mish",
              "hardswish", "hardsigmoid", "selu", "leaky_relu", "clamp", "elu", "softplus"):
        return True
    return op in REDUCTIONS and step.get("over") in ("M", "N") and step.get("reduce") in ("sum", "max")


def dry_run(exe, groups, types):
    """Compile every program (front end and emitter, no nvcc) and read its manifest back: each kernel's
    epilogue must be one the reference evaluates and each output an extra the checks allocate."""
    import subprocess
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ucutlass-epilogue-dry-") as tmp:
        for group, path in write_programs(tmp, groups, types):
            out = path.with_suffix("")
            proc = subprocess.run([str(exe), "compile", str(path), "-o", str(out)], capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"FAIL {path.name}: ucutlass compile exited {proc.returncode}\n{proc.stderr}")
                failures += 1
                continue
            manifest = json.loads(next(out.glob("*.json")).read_text())
            for sig in manifest["kernels"]:
                unknown = [s["op"] for s in sig["epilogue"] if not step_is_known(s)]
                outputs = [e["name"] for e in sig["extras"] if e["role"] == "output"]
                failures += bool(unknown)
                print(f"{'FAIL' if unknown else 'OK  '} {group:14s} {sig['kernel']:24s} steps "
                      f"{[s['op'] for s in sig['epilogue']]} outputs {outputs}"
                      + (f" unknown {unknown}" if unknown else ""))
    return 1 if failures else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--only", nargs="*", choices=sorted(GROUPS), help="groups to run (default all)")
    ap.add_argument("--types", nargs="*", choices=TYPES, default=TYPES)
    ap.add_argument("--out", help="result file (default bench/results/epilogue-<date>.json)")
    ap.add_argument("--dry-run", action="store_true",
                    help="no GPU: compile the programs to manifests and check the reference knows every step")
    ap.add_argument("--build-only", action="store_true",
                    help="CPU machine: write the programs and nvcc-build them into build/kernel-cache, nothing else "
                         "(a GPU session carrying that cache then skips nvcc: the cache key is the sources, flags "
                         "and nvcc version)")
    args = ap.parse_args(argv)
    if args.dry_run:
        return dry_run(ucutlass_cli.find_exe(args.ucutlass), args.only or sorted(GROUPS), args.types)
    started = provenance.now()
    exe = ucutlass_cli.find_exe(args.ucutlass)
    if args.build_only:
        with tempfile.TemporaryDirectory(prefix="ucutlass-epilogue-") as tmp:
            files = [f for _, f in write_programs(tmp, args.only or sorted(GROUPS), args.types)]
            built = ucutlass_cli.build(exe, files, args.jobs, cache_dir=REPO / "build" / "kernel-cache")
        bad = [str(f.name) for f, r in zip(files, built["results"]) if not r.get("ok")]
        print(f"built {len(files) - len(bad)} of {len(files)} programs in {built['wall_seconds']} s"
              + (f"; FAILED: {bad}" if bad else ""))
        return 1 if bad else 0
    import torch
    report = {"kind": "ucutlass-epilogue-numerics", "started": started.isoformat(), **provenance.command(),
              "git": provenance.git_state(), "host": provenance.host(), "nvcc": provenance.nvcc_version(),
              "driver": provenance.driver_version(), "gpu": torch.cuda.get_device_name(),
              "torch": torch.__version__, "thresholds": THRESHOLDS, "extents": EXTENT, "kernels": []}
    with tempfile.TemporaryDirectory(prefix="ucutlass-epilogue-") as tmp:
        files = write_programs(tmp, args.only or sorted(GROUPS), args.types)
        built = ucutlass_cli.build(exe, [f for _, f in files], args.jobs, cache_dir=REPO / "build" / "kernel-cache")
        report["build"] = {"command": built["command"], "wall_seconds": built["wall_seconds"]}
        fns = reference_functions(torch)
        for (group, path), res in zip(files, built["results"]):
            if not res.get("ok"):
                report["kernels"].append({"group": group, "program": path.read_text(), "pass": False,
                                          "build": res})
                continue
            manifest = json.loads(pathlib.Path(res["manifest"]).read_text())
            lib = ctypes.CDLL(res["library"])
            for sig in manifest["kernels"]:
                r = check_kernel(lib, sig, torch, fns)
                r["group"] = group
                r["epilogue"] = sig["epilogue"]
                report["kernels"].append(r)
                print(f"{'PASS' if r['pass'] else 'FAIL'} {group:14s} {sig['kernel']:24s} "
                      f"{json.dumps(r.get('errors', r.get('message')))}", flush=True)
    report["seconds"] = (provenance.now() - started).total_seconds()
    report["passed"] = sum(1 for k in report["kernels"] if k["pass"])
    report["failed"] = len(report["kernels"]) - report["passed"]
    out = pathlib.Path(args.out or REPO / "bench" / "results" / f"epilogue-{provenance.file_stamp(started)}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{report['passed']} passed, {report['failed']} failed; wrote {out}")
    return 0 if report["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
