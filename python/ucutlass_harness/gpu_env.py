"""CUDA environment helpers: persisting-L2 control, thread census, device facts.

Only this module talks to the CUDA driver directly (through ctypes on libcuda),
for what PyTorch does not expose: the persisting-L2 limit and its reset.
"""

import ctypes
import os
import subprocess
import threading
import time

CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06
_libcuda = None


def _driver():
    global _libcuda
    if _libcuda is None:
        for name in ("libcuda.so.1", "libcuda.so"):
            try:
                _libcuda = ctypes.CDLL(name)
                break
            except OSError:
                continue
    return _libcuda


def reset_persisting_l2(torch):
    """Reset persisting L2 lines to normal. Returns the method used, or None."""
    fn = getattr(torch._C, "_cuda_resetPersistingL2Cache", None)
    if fn is not None:
        fn()
        return "torch._C._cuda_resetPersistingL2Cache"
    lib = _driver()
    if lib is not None and hasattr(lib, "cuCtxResetPersistingL2Cache"):
        if lib.cuCtxResetPersistingL2Cache() == 0:
            return "cuCtxResetPersistingL2Cache"
    return None


def persisting_l2_limit():
    """Bytes set aside for persisting L2 in the current context, or None if unknown."""
    lib = _driver()
    if lib is None or not hasattr(lib, "cuCtxGetLimit"):
        return None
    value = ctypes.c_size_t(0)
    if lib.cuCtxGetLimit(ctypes.byref(value), CU_LIMIT_PERSISTING_L2_CACHE_SIZE) != 0:
        return None
    return int(value.value)


def _task_cpu_ticks(tid):
    """utime + stime of one OS thread of this process, in clock ticks (None if unreadable)."""
    try:
        with open(f"/proc/self/task/{tid}/stat", encoding="utf-8") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # fields 14 and 15 of stat(5), counted after "pid (comm)"
    except (OSError, IndexError, ValueError):
        return None


def thread_census():
    """Python threads and OS threads (name and CPU ticks per task) of this process."""
    tasks, cpu = {}, {}
    try:
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as f:
                    tasks[tid] = f.read().strip()
            except OSError:
                continue
            cpu[tid] = _task_cpu_ticks(tid)
    except OSError:
        tasks = {}
    return {"python": threading.active_count(),
            "python_names": sorted(t.name for t in threading.enumerate()),
            "os": len(tasks), "os_tasks": tasks, "os_cpu_ticks": cpu, "wall": time.monotonic()}


# OS threads that the CUDA driver, PyTorch or the profiler start on their own.
KNOWN_RUNTIME_THREAD_PREFIXES = ("cuda", "pt_", "nvidia", "cupti", "kineto", "libkineto", "cudnn", "triton",
                                 "inductor", "torch", "pool", "ThreadPool")

# A new OS thread counts as working beside the timed code when it used at least this share of the
# window's wall time on a CPU (and at least MIN_BUSY_TICKS). Runtime helper threads (driver event
# handlers, lazily started pools) mostly sleep; a thread computing or launching work does not.
BUSY_SHARE = 0.05
MIN_BUSY_TICKS = 3


def visible_gpu_count():
    """GPUs this process may use, without initializing CUDA here (workers do that): the entries of
    CUDA_VISIBLE_DEVICES when set, else the GPUs `nvidia-smi -L` lists; 0 when neither answers."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([d for d in visible.split(",") if d.strip() and not d.strip().startswith("-")])
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    return sum(1 for line in out.splitlines() if line.startswith("GPU "))


def start_cpu_pools(torch):
    """Starts PyTorch's CPU intra-op pool (OpenMP) before the first thread census.

    The pool's threads start at the first parallel CPU op and carry the process's name
    ("python3"), so a pool started by the harness's own input generation between two censuses
    looked like a candidate's busy threads: on the H200 (32 cores) an honest solution was
    flagged with 31 such threads. One parallel element-wise op over enough elements for every
    thread starts them all; they then belong to the "before" census.
    """
    n = max(1, torch.get_num_threads())
    x = torch.ones(n * (1 << 16))
    x.add_(1.0)
    return n


def new_threads(before, after):
    """Threads present after but not before.

    Returns (python_delta, new OS threads [{name, cpu_s}], suspicious names): suspicious are new
    threads with an unknown name that were busy between the two censuses (CPU time over
    BUSY_SHARE of the elapsed wall time). An idle new thread is reported, never flagged: the
    first GPU run showed that an honest candidate's first launches leave such threads behind.
    """
    hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    wall = max(1e-3, after.get("wall", 0) - before.get("wall", 0))
    new_os, suspicious = [], []
    for tid, name in after["os_tasks"].items():
        if tid in before["os_tasks"]:
            continue
        ticks = (after.get("os_cpu_ticks") or {}).get(tid)
        new_os.append({"name": name, "cpu_s": None if ticks is None else round(ticks / hz, 3)})
        busy = ticks is not None and (ticks >= MIN_BUSY_TICKS and ticks / hz >= BUSY_SHARE * wall)
        if busy and not name.startswith(KNOWN_RUNTIME_THREAD_PREFIXES):
            suspicious.append(name)
    return after["python"] - before["python"], new_os, suspicious


def device_info(torch, index=0):
    props = torch.cuda.get_device_properties(index)
    return {
        "name": props.name,
        "capability": f"{props.major}.{props.minor}",
        "sm_count": props.multi_processor_count,
        "l2_bytes": int(getattr(props, "L2_cache_size", 0) or 0),
        "total_memory_bytes": int(props.total_memory),
    }
