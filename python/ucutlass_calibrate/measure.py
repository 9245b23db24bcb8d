"""The measurements: each returns a rate, or raises with a reason that ends up
in the profile's "unavailable" map instead of crashing the run."""
import statistics
import subprocess

import torch

WARMUP = 3


def median_ms(fn, iters):
    """CUDA-event median of `iters` calls after warm-up, in milliseconds."""
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def copy_bandwidth(nbytes=1 << 30, iters=20):
    """Device-to-device copy; counts bytes read plus bytes written."""
    src = torch.randn(nbytes // 4, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    ms = median_ms(lambda: dst.copy_(src), iters)
    return 2 * nbytes / (ms * 1e-3)


def l2_bandwidth(l2_bytes, repeats=50, iters=10):
    """Copies between two buffers that together fill a quarter of L2, many
    times per timed call, so traffic after the first pass hits L2."""
    n = max(l2_bytes // 8 // 4, 1 << 16)
    src = torch.randn(n, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)

    def run():
        for _ in range(repeats):
            dst.copy_(src)

    ms = median_ms(run, iters)
    return 2 * n * 4 * repeats / (ms * 1e-3)


def matmul_flops(dtype, n, tf32=False, iters=10):
    prev = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        a = torch.randn(n, n, device="cuda", dtype=dtype)
        b = torch.randn(n, n, device="cuda", dtype=dtype)
        ms = median_ms(lambda: torch.mm(a, b), iters)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = prev
    return 2 * n ** 3 / (ms * 1e-3)


def fp8_flops(n, iters=10):
    """torch._scaled_mm: A row-major, B column-major, per-tensor scales."""
    if not hasattr(torch, "_scaled_mm") or not hasattr(torch, "float8_e4m3fn"):
        raise RuntimeError("this torch has no _scaled_mm / float8_e4m3fn")
    if torch.cuda.get_device_capability() < (8, 9):
        raise RuntimeError("no fp8 tensor cores before sm_89")
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn).t()  # column-major
    one = torch.tensor(1.0, device="cuda")
    ms = median_ms(lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16), iters)
    return 2 * n ** 3 / (ms * 1e-3)


def nvidia_smi_clocks():
    """Max SM and memory clocks in MHz, or {} without nvidia-smi."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=clocks.max.sm,clocks.max.mem,clocks.sm,name", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=10, check=True).stdout.splitlines()[0]
        max_sm, max_mem, cur_sm, name = [x.strip() for x in out.split(",", 3)]
        return {"max_sm_mhz": float(max_sm), "max_mem_mhz": float(max_mem), "sm_mhz_now": float(cur_sm),
                "smi_name": name}
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return {}
