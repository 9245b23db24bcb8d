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
