"""python3 -m ucutlass_calibrate [--quick]: prints a measured GPU profile as JSON."""
import argparse
import datetime
import json
import sys
import time

from . import measure


def log(msg):
    print("calibrate: " + msg, file=sys.stderr, flush=True)


def main():
    parser = argparse.ArgumentParser(prog="ucutlass_calibrate")
    parser.add_argument("--quick", action="store_true", help="smaller problems, for a smoke test")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        log("PyTorch is not installed here; calibration needs a GPU machine with torch")
        return 2
    if not torch.cuda.is_available():
        log("no CUDA device visible")
        return 2

    started = time.time()
    props = torch.cuda.get_device_properties(0)
    major, minor = torch.cuda.get_device_capability(0)
    l2_bytes = int(getattr(props, "L2_cache_size", 0) or 0)
    n = 4096 if args.quick else 8192
    flops, unavailable, method = {}, {}, {}

    # (path, how): fp64 runs smaller, since its GEMM is ~15x slower than bf16.
    plans = [
        ("fp64_tensor", lambda: measure.matmul_flops(torch.float64, n // 2), "torch.mm float64 %d^3" % (n // 2)),
        ("fp32", lambda: measure.matmul_flops(torch.float32, n, tf32=False), "torch.mm float32, allow_tf32=False, %d^3" % n),
        ("tf32", lambda: measure.matmul_flops(torch.float32, n, tf32=True), "torch.mm float32, allow_tf32=True, %d^3" % n),
        ("fp16", lambda: measure.matmul_flops(torch.float16, n), "torch.mm float16 %d^3" % n),
        ("bf16", lambda: measure.matmul_flops(torch.bfloat16, n), "torch.mm bfloat16 %d^3" % n),
        ("fp8", lambda: measure.fp8_flops(n), "torch._scaled_mm e4m3 row x col major %d^3" % n),
    ]
    for path, fn, how in plans:
        try:
            flops[path] = fn()
            method[path] = how
            log("%-12s %8.1f TFLOP/s" % (path, flops[path] / 1e12))
        except Exception as e:  # a path the GPU or torch lacks is a result, not a failure
            flops[path] = None
            unavailable[path] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
            log("%-12s unavailable (%s)" % (path, unavailable[path]))
        torch.cuda.empty_cache()

    dram = measure.copy_bandwidth(1 << (28 if args.quick else 30))
    method["dram_bytes_per_s"] = "device-to-device copy of 1 GiB, read + write bytes"
    log("copy         %8.2f TB/s" % (dram / 1e12))
    l2_bw = None
    if l2_bytes:
        try:
            l2_bw = measure.l2_bandwidth(l2_bytes)
            method["l2_bytes_per_s"] = "repeated copies between two buffers of L2/8 each"
            log("L2 copy      %8.2f TB/s" % (l2_bw / 1e12))
        except Exception as e:
            unavailable["l2_bytes_per_s"] = str(e)

    clocks = measure.nvidia_smi_clocks()
    profile = {
        "format": "ucutlass-gpu-profile",
        "version": 1,
        "name": props.name,
        "aliases": [],
        "source": "measured",
        "arch": "sm_%d%d" % (major, minor),
        "sms": props.multi_processor_count,
        "boost_clock_mhz": clocks.get("max_sm_mhz", 0),
        "l2_bytes": l2_bytes,
        "memory_bytes": props.total_memory,
        "clocks": clocks,
        "measured": {
            "date": datetime.date.today().isoformat(),
            "origin": "ucutlass calibrate (torch %s, CUDA-event medians after %d warm-ups)" % (
                torch.__version__, measure.WARMUP),
            "dram_bytes_per_s": dram,
            "l2_bytes_per_s": l2_bw,
            "flops_per_s": flops,
            "unavailable": unavailable,
            "method": method,
            "seconds": round(time.time() - started, 1),
        },
    }
    json.dump(profile, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
