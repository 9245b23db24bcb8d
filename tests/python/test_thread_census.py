"""gpu_env.new_threads: which new threads make the `threads` signal fire."""
import threading
import time

from ucutlass_harness import gpu_env


def census(tasks, ticks, wall, python=1):
    return {"python": python, "python_names": [], "os": len(tasks), "os_tasks": tasks, "os_cpu_ticks": ticks,
            "wall": wall}


def test_idle_new_thread_is_reported_not_flagged():
    before = census({"1": "pt_main_thread"}, {"1": 100}, 0.0)
    after = census({"1": "pt_main_thread", "7": "python3"}, {"1": 300, "7": 0}, 2.0)
    py, new, suspicious = gpu_env.new_threads(before, after)
    assert (py, suspicious) == (0, [])
    assert new == [{"name": "python3", "cpu_s": 0.0}]


def test_busy_new_thread_with_unknown_name_is_flagged():
    before = census({"1": "pt_main_thread"}, {"1": 100}, 0.0)
    after = census({"1": "pt_main_thread", "7": "worker"}, {"1": 300, "7": 50}, 2.0)  # 0.5 s of 2 s
    assert gpu_env.new_threads(before, after)[2] == ["worker"]


def test_busy_runtime_thread_is_not_flagged():
    before = census({"1": "pt_main_thread"}, {"1": 100}, 0.0)
    after = census({"1": "pt_main_thread", "7": "cuda-EvtHandlr"}, {"1": 300, "7": 50}, 2.0)
    assert gpu_env.new_threads(before, after)[2] == []


def test_a_real_busy_python_thread_shows_in_both_counts():
    # The spinner runs until told to stop, so it is alive at the second census however late a
    # loaded machine wakes this thread (CI once woke it after a fixed-length spinner had ended);
    # the second census waits until the spinner has burned enough CPU to count as busy.
    before = gpu_env.thread_census()
    stop = threading.Event()
    t = threading.Thread(target=lambda: [None for _ in iter(lambda: not stop.is_set(), False)], name="spin")
    t.start()
    deadline = time.monotonic() + 30
    try:
        while True:
            time.sleep(0.2)
            after = gpu_env.thread_census()
            py, new, suspicious = gpu_env.new_threads(before, after)
            if suspicious or time.monotonic() > deadline:
                break
    finally:
        stop.set()
        t.join()
    assert py == 1
    assert len(new) == 1
    assert len(suspicious) == 1  # it burned CPU (the OS name is "spin" only where Python names OS threads)


_POOL_PROBE = r"""
import sys, time, torch
from ucutlass_harness import gpu_env
if sys.argv[1] == "warm":
    gpu_env.start_cpu_pools(torch)
before = gpu_env.thread_census()
x = torch.ones(1 << 22)
t0 = time.monotonic()
while time.monotonic() - t0 < 0.6:  # parallel element-wise work, as input generation does
    x.mul_(1.0000001).add_(1e-7)
after = gpu_env.thread_census()
print(gpu_env.new_threads(before, after)[2])
"""


def _pool_probe(mode):
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "..", "python"),
               OMP_NUM_THREADS="2")
    out = subprocess.run([sys.executable, "-c", _POOL_PROBE, mode], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_cpu_pool_started_between_censuses_looks_suspicious_unless_started_first():
    # A fresh interpreter: the pool starts inside the window unless start_cpu_pools ran first.
    pytest = __import__("pytest")
    pytest.importorskip("torch")
    assert _pool_probe("cold") not in ("", "[]")  # the pool thread, named after the interpreter
    assert _pool_probe("warm") == "[]"
