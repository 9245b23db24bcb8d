"""CUDA environment helpers: persisting-L2 control, thread census, device facts.

Only this module talks to the CUDA driver directly (through ctypes on libcuda),
for what PyTorch does not expose: the persisting-L2 limit and its reset.
"""

import ctypes
import os
import threading

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


def thread_census():
    """Python threads and OS threads (name per task) of this process."""
    tasks = {}
    try:
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as f:
                    tasks[tid] = f.read().strip()
            except OSError:
                continue
    except OSError:
        tasks = {}
    return {"python": threading.active_count(),
            "python_names": sorted(t.name for t in threading.enumerate()),
            "os": len(tasks), "os_tasks": tasks}


# OS threads that the CUDA driver, PyTorch or the profiler start on their own.
KNOWN_RUNTIME_THREAD_PREFIXES = ("cuda", "pt_", "nvidia", "cupti", "kineto", "libkineto", "cudnn", "triton",
                                 "inductor", "torch", "pool", "ThreadPool")


def new_threads(before, after):
    """Threads present after but not before: (python_delta, [os task names])."""
    new_os = [name for tid, name in after["os_tasks"].items() if tid not in before["os_tasks"]]
    suspicious = [n for n in new_os if not n.startswith(KNOWN_RUNTIME_THREAD_PREFIXES)]
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
