#!/usr/bin/env python3
"""Runs emitted kernels on the GPU through their C API and compares with torch.

Usage: check_gpu.py SO_DIR CASE_DIR...   (SO_DIR holds <case>.so built by run.sh)
Inputs are driven by each kernel's ucutlass_NAME_signature() JSON, so the same
script checks any emitted program: it fills A, B, C, bias in their declared
dtypes and layouts, runs ucutlass_NAME_run on the current stream, and compares
D with a float64 reference of alpha*A@B + beta*C followed by the epilogue steps.
It also checks that a misaligned leading dimension is rejected with a message.
"""
import ctypes, json, math, pathlib, sys
import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
from capi_params import Params  # noqa: E402


DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
          "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
DYNAMIC = {"M": 384, "N": 512, "K": 256, "batch": 3}

def matrix(dtype, layout, batch, rows, cols, scale):
    shape = (batch, rows, cols) if layout == "row" else (batch, cols, rows)
    t = (torch.rand(shape, device="cuda", dtype=torch.float64) * 2 - 1) * scale
    t = t.float().to(DTYPES[dtype])  # float64 -> fp8 has no direct conversion
    return t if layout == "row" else t.transpose(1, 2)

def apply(step, x):
    op = step["op"]
    if op == "relu": return torch.relu(x)
    if op == "gelu": return torch.nn.functional.gelu(x)
    if op == "gelu_tanh": return torch.nn.functional.gelu(x, approximate="tanh")
    if op == "silu": return torch.nn.functional.silu(x)
    if op == "sigmoid": return torch.sigmoid(x)
    if op == "tanh": return torch.tanh(x)
    if op == "leaky_relu": return torch.where(x > 0, x, x * step["slope"])
    if op == "clamp": return x.clamp(step["lower"], step["upper"])
    raise ValueError(op)

def tolerance(sig, math_path):
    if sig["types"]["d"] in ("bf16",) or sig["types"]["a"] in ("bf16", "e4m3", "e5m2"): return 3e-2
    if sig["types"]["d"] == "f16" or sig["types"]["a"] == "f16": return 1e-2
    return 2e-5 if math_path == "tf32x3" else 5e-3

def check_kernel(lib, sig, settings):
    name = sig["kernel"]
    ext = {key: (v if v else DYNAMIC[key]) for key, v in sig["extents"].items()}
    M, N, K, B = ext["M"], ext["N"], ext["K"], ext["batch"]
    ins = {i["name"]: i for i in sig["inputs"]}
    scale = 1.0 / math.sqrt(math.sqrt(K))
    a = matrix(ins["a"]["dtype"], ins["a"]["layout"], B, M, K, scale)
    b = matrix(ins["b"]["dtype"], ins["b"]["layout"], B, K, N, scale)
    out = sig["output"]
    d = matrix(out["dtype"], out["layout"], B, M, N, 0.0)
    ref = sig["alpha"] * torch.matmul(a.double(), b.double())
    p = Params(a=a.data_ptr(), b=b.data_ptr(), d=d.data_ptr(), m=M, n=N, k=K, batch=B,
               alpha=sig["alpha"], beta=sig["beta"])
    def ld(t, layout): return t.stride(1) if layout == "row" else t.stride(2)
    p.lda, p.ldb, p.ldd = ld(a, ins["a"]["layout"]), ld(b, ins["b"]["layout"]), ld(d, out["layout"])
    p.batch_stride_a, p.batch_stride_b, p.batch_stride_d = a.stride(0), b.stride(0), d.stride(0)
    if "c" in ins:
        c = matrix(ins["c"]["dtype"], ins["c"]["layout"], B, M, N, 1.0)
        p.c, p.ldc, p.batch_stride_c = c.data_ptr(), ld(c, ins["c"]["layout"]), c.stride(0)
        ref = ref + sig["beta"] * c.double()
    if "bias" in ins:
        length = M if ins["bias"]["shape"] == ["M"] else N
        bias = ((torch.rand(length, device="cuda", dtype=torch.float64) * 2 - 1)).to(DTYPES[ins["bias"]["dtype"]])
        p.bias = bias.data_ptr()
    for step in sig["epilogue"]:
        if step["op"] == "bias":
            ref = ref + (bias.double()[None, :, None] if step["length"] == "M" else bias.double()[None, None, :])
        else:
            ref = apply(step, ref)
    msg = ctypes.create_string_buffer(512)
    stream = torch.cuda.current_stream().cuda_stream
    rc = getattr(lib, f"ucutlass_{name}_run")(ctypes.byref(p), ctypes.c_void_p(stream), msg, 512)
    torch.cuda.synchronize()
    if rc != 0:
        return f"FAIL {name}: rc={rc} {msg.value.decode()}"
    err = ((d.double() - ref).abs() / (ref.abs() + 1)).max().item()
    tol = tolerance(sig, settings["math"])
    verdict = "PASS" if err <= tol else "FAIL"
    # A bad leading dimension must be rejected before launch, with a message.
    bad = Params.from_buffer_copy(p)
    bad.lda = bad.lda + 1
    rc_bad = getattr(lib, f"ucutlass_{name}_run")(ctypes.byref(bad), ctypes.c_void_p(stream), msg, 512)
    rejected = rc_bad != 0 and b"leading dimension of A" in msg.value
    return (f"{verdict} {name}: M={M} N={N} K={K} batch={B} max rel err {err:.2e} (tol {tol:.0e}); "
            f"bad lda {'rejected: ' + msg.value.decode() if rejected else 'NOT rejected (rc=%d)' % rc_bad}")

def main():
    so_dir = pathlib.Path(sys.argv[1])
    failed = False
    for case in sys.argv[2:]:
        case = pathlib.Path(case)
        lib = ctypes.CDLL(str(so_dir / (case.name + ".so")))
        manifest = json.loads(next(case.glob("ucutlass_*.json")).read_text())
        for k in manifest["kernels"]:
            fn = getattr(lib, f"ucutlass_{k['kernel']}_signature")
            fn.restype = ctypes.c_char_p
            sig = json.loads(fn())
            line = check_kernel(lib, sig, k["settings"])
            failed |= not line.startswith("PASS") or "NOT rejected" in line
            print(f"{case.name}: {line}", flush=True)
    sys.exit(1 if failed else 0)

if __name__ == "__main__":
    main()
