"""Measures one GEMM acceptance item on the GPU, in a child process of run_gemm_bench.py.

    python3 bench/gemm_measure.py PLAN.json ITEM RESULT.json

Loads each candidate's library with ctypes, draws fresh random operands from
the kernel's own signature (types, layouts, extents, epilogue), and runs every
candidate and the PyTorch baseline side by side:

- correctness: each output against a float64 reference, on two fresh draws (the
  item's distribution, then N(0, 1)); the relative-error bound must hold on both,
  allclose (where the item asks for it) on the item's distribution; the DSL
  kernel's output is poisoned with NaN first, so an element it never writes fails;
- timing: CUDA events around each call, a 2x-L2 buffer zeroed before every
  call, warm-up first, then `trials` rounds in which every runner is timed once
  (the order rotating from round to round); median and spread per runner. A
  GPU spin before each call keeps host-side issue cost out of the events; that
  cost is reported on its own.

A kernel that fails (nonzero return, CUDA error, wrong result) is recorded, not
raised; a CUDA error poisons the context, so the rest of the item is skipped.
"""

import ctypes
import json
import math
import statistics
import sys
import time
import traceback
from pathlib import Path

import torch
import torch.nn.functional as F

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
from ucutlass_harness import gpu_env  # noqa: E402
from ucutlass_harness.evaluate import compare, l2_flush_buffer  # noqa: E402

TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
                "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
# Tolerances every output is also scored at, for the record: KernelBench's fp32 and its v0.1 tolerance.
INFO_TOLERANCES = (1e-4, 1e-2)
MSG_BYTES = 1024
# About 100 us at the H200's 1.98 GHz: longer than the host takes to issue any runner's call.
SPIN_CYCLES = 200_000


class KernelFailure(Exception):
    """The DSL kernel returned an error, or CUDA reported one after it ran."""


class GemmParams(ctypes.Structure):
    """ucutlass_gemm_params, field for field (src/codegen/host_entry.cpp)."""
    _fields_ = [("a", ctypes.c_void_p), ("b", ctypes.c_void_p), ("c", ctypes.c_void_p), ("d", ctypes.c_void_p),
                ("bias", ctypes.c_void_p),
                ("m", ctypes.c_int), ("n", ctypes.c_int), ("k", ctypes.c_int), ("batch", ctypes.c_int),
                ("lda", ctypes.c_longlong), ("ldb", ctypes.c_longlong), ("ldc", ctypes.c_longlong),
                ("ldd", ctypes.c_longlong),
                ("batch_stride_a", ctypes.c_longlong), ("batch_stride_b", ctypes.c_longlong),
                ("batch_stride_c", ctypes.c_longlong), ("batch_stride_d", ctypes.c_longlong),
                ("alpha", ctypes.c_float), ("beta", ctypes.c_float)]


class DslKernel:
    """One kernel's C entries in a generated library."""

    def __init__(self, library, kernel):
        self.lib = ctypes.CDLL(library)
        prefix = f"ucutlass_{kernel}_"
        sig = getattr(self.lib, prefix + "signature")
        sig.restype, sig.argtypes = ctypes.c_char_p, []
        self.signature = json.loads(sig().decode())
        self.run_ws = getattr(self.lib, prefix + "run_with_workspace")
        self.run_ws.restype = ctypes.c_int
        self.run_ws.argtypes = [ctypes.POINTER(GemmParams), ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                ctypes.c_char_p, ctypes.c_size_t]
        self.workspace_size = getattr(self.lib, prefix + "workspace_size")
        self.workspace_size.restype = ctypes.c_size_t
        self.workspace_size.argtypes = [ctypes.POINTER(GemmParams)]


def problem_key(sig):
    """What two candidates must agree on to be measured on the same operands."""
    return json.dumps({k: sig[k] for k in ("extents", "types", "layouts", "epilogue", "alpha", "beta")},
                      sort_keys=True)


# ---- operands -----------------------------------------------------------------------------------------


def draw(shape, dist, role, k, gen):
    """float32 values of one operand: `linear` is nn.Linear's setting (x ~ U[0,1), W and bias ~ U(+-1/sqrt(K)))."""
    dev = "cuda"
    if dist == "normal" or (dist == "linear" and role == "c"):
        return torch.randn(shape, generator=gen, device=dev)
    if dist == "uniform01" or (dist == "linear" and role == "a"):
        return torch.rand(shape, generator=gen, device=dev)
    if dist == "linear":
        bound = 1.0 / math.sqrt(k)
        return (torch.rand(shape, generator=gen, device=dev) * 2 - 1) * bound
    raise ValueError(f"unknown distribution {dist!r}")


class Operands:
    """A, B, optional C and bias of one problem, in the kernel's layouts. `phys` is the storage
    (row-major contiguous), `view` the logical [batch,] rows x cols tensor the math sees."""

    def __init__(self, sig, dist, seed):
        ext = sig["extents"]
        self.m, self.n, self.k, self.batch = ext["M"], ext["N"], ext["K"], ext["batch"]
        self.batched = self.batch != 1
        self.sig = sig
        gen = torch.Generator(device="cuda")
        gen.manual_seed(seed)
        self.phys, self.view = {}, {}
        dims = {"M": self.m, "N": self.n, "K": self.k}
        for spec in sig["inputs"]:
            name = spec["name"]
            dtype = TORCH_DTYPES[spec["dtype"]]
            if name == "bias":
                t = draw([dims[spec["shape"][0]]], dist, "bias", self.k, gen).to(dtype)
                self.phys[name] = self.view[name] = t
                continue
            rows, cols = (dims[s] for s in spec["shape"][-2:])
            self.phys[name], self.view[name] = self.matrix(rows, cols, spec["layout"], dtype,
                                                           lambda shape: draw(shape, dist, name, self.k, gen))

    def matrix(self, rows, cols, layout, dtype, fill):
        lead = [self.batch] if self.batched else []
        if layout == "row":
            phys = fill(lead + [rows, cols]).to(dtype)
            return phys, phys
        phys = fill(lead + [cols, rows]).to(dtype)
        return phys, phys.transpose(-1, -2)

    def output(self):
        out = self.sig["output"]
        return self.matrix(self.m, self.n, out["layout"], TORCH_DTYPES[out["dtype"]],
                           lambda shape: torch.empty(shape, device="cuda"))


def apply_step(x, step):
    op = step["op"]
    if op == "bias":
        raise AssertionError("bias is applied by the caller")
    if op == "relu":
        return F.relu(x)
    if op == "gelu":
        return F.gelu(x)
    if op == "gelu_tanh":
        return F.gelu(x, approximate="tanh")
    if op == "silu":
        return F.silu(x)
    if op == "sigmoid":
        return torch.sigmoid(x)
    if op == "tanh":
        return torch.tanh(x)
    if op == "leaky_relu":
        return F.leaky_relu(x, step["slope"])
    if op == "clamp":
        return x.clamp(step["lower"], step["upper"])
    raise ValueError(f"unknown epilogue step {op!r}")


def add_bias(x, bias, step):
    return x + (bias if step["broadcast"] == "col" else bias.unsqueeze(-1))


def epilogue(x, ops, steps):
    for step in steps:
        x = add_bias(x, ops.view["bias"].to(x.dtype), step) if step["op"] == "bias" else apply_step(x, step)
    return x


def reference64(ops):
    """alpha * A @ B + beta * C, then the epilogue steps in order, all in float64."""
    sig, v = ops.sig, ops.view
    acc = torch.matmul(v["a"].double(), v["b"].double())
    if sig["alpha"] != 1.0:
        acc.mul_(sig["alpha"])
    if "c" in v:
        acc.add_(v["c"].double(), alpha=sig["beta"])
    return epilogue(acc, ops, sig["epilogue"])


def torch_baseline(ops):
    """The same function as PyTorch code would write it: addmm for a column bias (nn.Linear's form),
    matmul otherwise, then the remaining steps as separate ops."""
    sig, v = ops.sig, ops.view
    steps = list(sig["epilogue"])
    a, b = v["a"], v["b"]
    if "c" in v:
        out = (torch.baddbmm if ops.batched else torch.addmm)(v["c"], a, b, beta=sig["beta"], alpha=sig["alpha"])
    elif steps and steps[0]["op"] == "bias" and steps[0]["broadcast"] == "col" and sig["alpha"] == 1.0:
        bias = v["bias"]
        out = torch.baddbmm(bias.expand(ops.batch, 1, ops.n), a, b) if ops.batched else torch.addmm(bias, a, b)
        steps = steps[1:]
    else:
        out = torch.matmul(a, b)
        if sig["alpha"] != 1.0:
            out = out * sig["alpha"]
    return epilogue(out, ops, steps) if steps else out


# ---- runners --------------------------------------------------------------------------------------


def dsl_runner(kernel, ops):
    """A callable that runs the kernel on `ops` into its own D, and that D."""
    d_phys, d_view = ops.output()
    p = GemmParams()
    p.a, p.b, p.d = ops.phys["a"].data_ptr(), ops.phys["b"].data_ptr(), d_phys.data_ptr()
    p.c = ops.phys["c"].data_ptr() if "c" in ops.phys else None
    p.bias = ops.phys["bias"].data_ptr() if "bias" in ops.phys else None
    p.m, p.n, p.k, p.batch = ops.m, ops.n, ops.k, ops.batch
    p.alpha, p.beta = ops.sig["alpha"], ops.sig["beta"]  # lda..batch_stride_d stay 0: packed
    ws_bytes = kernel.workspace_size(ctypes.byref(p))
    workspace = torch.empty(max(ws_bytes, 1), dtype=torch.uint8, device="cuda")
    ws_ptr = workspace.data_ptr() if ws_bytes else None
    msg = ctypes.create_string_buffer(MSG_BYTES)
    stream = torch.cuda.current_stream().cuda_stream

    def run():
        rc = kernel.run_ws(ctypes.byref(p), stream, ws_ptr, ws_bytes, msg, MSG_BYTES)
        if rc != 0:
            raise KernelFailure(f"returned {rc}: {msg.value.decode(errors='replace')}")
        return d_view

    run.keepalive = (p, workspace, msg, d_phys)
    run.poison = lambda: d_phys.fill_(float("nan"))
    return run, ws_bytes


def tf32_baseline(ops):
    def run():
        torch.backends.cuda.matmul.allow_tf32 = True
        try:
            return torch_baseline(ops)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = False
    return run


# ---- correctness and timing ----------------------------------------------------------------------


def mismatches(out, ref, tolerances):
    """Elements outside atol = rtol = t (or not finite), for each t; one pass's worth of memory."""
    c = out.double()
    bad = ~torch.isfinite(c)
    diff = (c - ref).abs_()
    del c
    scale = ref.abs()
    return {f"{t:g}": int(((diff > scale * t + t) | bad).sum()) for t in tolerances}


def score(out, ref, criteria, primary):
    """compare() at the item's tolerance (the harness's definition), the verdict, and mismatch counts
    at the info tolerances. The relative-error bound holds on every draw; allclose is required only on
    the item's own distribution (on N(0, 1) with large K even fp32 misses atol 1e-4 near zero)."""
    atol, rtol = criteria["allclose"] or (criteria["rel_l2_max"], criteria["rel_l2_max"])
    rec = compare(out, ref, atol, rtol)
    rec["atol"], rec["rtol"] = atol, rtol
    rec["mismatched_at"] = mismatches(out, ref, INFO_TOLERANCES)
    ok = not rec["nan_or_inf"] and rec["shape_ok"] and rec["rel_l2_err"] <= criteria["rel_l2_max"]
    rec["allclose_required"] = bool(criteria["allclose"]) and primary
    if rec["allclose_required"]:
        ok = ok and rec["allclose"]
    rec["passed"] = bool(ok)
    return rec


def stats(ms):
    q = statistics.quantiles(ms, n=10, method="inclusive") if len(ms) > 1 else [ms[0]] * 9
    return {"num_trials": len(ms), "median_ms": statistics.median(ms), "mean_ms": statistics.fmean(ms),
            "std_ms": statistics.pstdev(ms), "min_ms": min(ms), "max_ms": max(ms), "p10_ms": q[0], "p90_ms": q[8],
            "spread": q[8] / q[0] if q[0] > 0 else None}


def time_interleaved(runners, trials, warmup, flush):
    """Per runner: statistics of CUDA-event times and of the host's time to issue the call.

    Every round times each runner once, the order rotating from round to round. Before each call the
    L2 flush runs, then a short GPU spin, so that the GPU is still busy while the host issues the call:
    the events then bracket the device's work, not the host's argument checks and launch (that host
    cost is reported separately as host_issue_us)."""
    names = list(runners)
    for name in names:
        for _ in range(warmup):
            runners[name]()
    torch.cuda.synchronize()
    events = {name: [] for name in names}
    host_us = {name: [] for name in names}
    for i in range(trials):
        order = names[i % len(names):] + names[:i % len(names)]
        for name in order:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            flush.zero_()
            torch.cuda._sleep(SPIN_CYCLES)
            start.record()
            t0 = time.perf_counter()
            runners[name]()
            host_us[name].append((time.perf_counter() - t0) * 1e6)
            end.record()
            events[name].append((start, end))
    torch.cuda.synchronize()
    out = {}
    for name in names:
        out[name] = stats([s.elapsed_time(e) for s, e in events[name]])
        out[name]["host_issue_us_median"] = statistics.median(host_us[name])
    return out


def cuda_alive():
    try:
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        return True
    except RuntimeError:
        return False


def environment():
    info = gpu_env.device_info(torch)
    info.update({"torch": torch.__version__, "cuda_runtime": torch.version.cuda,
                 "allow_tf32_matmul": torch.backends.cuda.matmul.allow_tf32,
                 "float32_matmul_precision": torch.get_float32_matmul_precision()})
    return info


def measure(plan, item_name):
    item = plan["items"][item_name]
    criteria = item["criteria"]
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    result = {"item": item_name, "environment": environment(), "trials": plan["trials"], "warmup": plan["warmup"],
              "runners": {}, "errors": []}
    result["persisting_l2_reset"] = gpu_env.reset_persisting_l2(torch)

    kernels, first_sig = {}, None
    for cand in item["candidates"]:
        rec = result["runners"][cand["kernel"]] = {"kind": "dsl", "file": cand["file"], "library": cand["library"]}
        try:
            k = DslKernel(cand["library"], cand["kernel"])
        except (OSError, AttributeError, ValueError) as e:
            rec["error"] = f"loading {cand['library']}: {e}"
            result["errors"].append({"kind": "load", "message": rec["error"]})
            continue
        rec["signature"] = k.signature
        if first_sig is None:
            first_sig = k.signature
        elif problem_key(k.signature) != problem_key(first_sig):
            rec["error"] = "its signature describes a different problem from the item's first candidate"
            continue
        kernels[cand["kernel"]] = k
    if first_sig is None:
        return result
    ext = first_sig["extents"]
    flops = 2.0 * ext["M"] * ext["N"] * ext["K"] * ext["batch"]
    result["problem"] = {"extents": ext, "flops": flops, "types": first_sig["types"],
                         "layouts": first_sig["layouts"], "epilogue": first_sig["epilogue"],
                         "distribution": item["distribution"]}
    fp32_inputs = first_sig["types"]["a"] == "f32"
    result["runners"]["torch"] = {"kind": "torch", "what": item["baseline"]}
    if fp32_inputs:
        result["runners"]["torch_tf32"] = {"kind": "torch", "what": "the same PyTorch code with allow_tf32 = True (info)"}

    # Correctness: the item's distribution, then N(0, 1), each a fresh draw.
    dead = None
    for trial, dist in enumerate([item["distribution"], "normal"]):
        seed = plan["seed"] + trial
        ops = Operands(first_sig, dist, seed)
        ref = reference64(ops)
        runners = {"torch": lambda: torch_baseline(ops)}
        if fp32_inputs:
            runners["torch_tf32"] = tf32_baseline(ops)
        for name, k in kernels.items():
            try:
                runners[name], result["runners"][name]["workspace_bytes"] = dsl_runner(k, ops)
            except Exception as e:  # noqa: BLE001 - a kernel's failure is its record
                result["runners"][name]["error"] = f"binding: {e}"
        for name, run in runners.items():
            rec = result["runners"][name]
            if "error" in rec:
                continue
            try:
                if hasattr(run, "poison"):
                    run.poison()
                out = run()
                torch.cuda.synchronize()
                s = score(out, ref, criteria, primary=trial == 0)
                del out
            except (KernelFailure, RuntimeError) as e:
                rec["error"] = f"{type(e).__name__}: {e}"
                if not cuda_alive():  # a sticky CUDA error: nothing more can run in this process
                    dead = rec["error"]
                    break
                continue
            s.update({"trial": trial, "distribution": dist, "seed": seed})
            rec.setdefault("correctness", []).append(s)
        del runners, ref, ops
        torch.cuda.empty_cache()
        if dead:
            result["errors"].append({"kind": "cuda", "message": f"CUDA error, item abandoned: {dead}"})
            return result
    for rec in result["runners"].values():
        if "correctness" in rec:
            rec["correct"] = all(s["passed"] for s in rec["correctness"]) and "error" not in rec

    # Timing, on a third fresh draw of the item's distribution.
    ops = Operands(first_sig, item["distribution"], plan["seed"] + 2)
    runners = {"torch": lambda: torch_baseline(ops)}
    if fp32_inputs:
        runners["torch_tf32"] = tf32_baseline(ops)
    for name, k in kernels.items():
        if "error" not in result["runners"][name]:
            runners[name], _ = dsl_runner(k, ops)
    flush = l2_flush_buffer(0)
    result["l2_flush_bytes"] = flush.numel() * flush.element_size()
    start = time.monotonic()
    try:
        timing = time_interleaved(runners, plan["trials"], plan["warmup"], flush)
    except (KernelFailure, RuntimeError) as e:
        result["errors"].append({"kind": "timing", "message": f"timing failed: {type(e).__name__}: {e}"})
        return result
    result["timing_wall_s"] = time.monotonic() - start
    for name, st in timing.items():
        rec = result["runners"][name]
        rec["timing"] = st
        rec["tflops"] = flops / (st["median_ms"] * 1e-3) / 1e12
    return result


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    plan = json.loads(Path(argv[1]).read_text())
    try:
        result = measure(plan, argv[2])
    except Exception:  # noqa: BLE001 - report the harness's own failure in the result
        result = {"item": argv[2], "harness_error": traceback.format_exc()}
    Path(argv[3]).write_text(json.dumps(result, indent=1, default=str))
    return 1 if "harness_error" in result else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
