"""`batch --devices`: one evaluation per GPU at a time, records in pair order (fake worker, no GPU)."""
import json
import threading
import time

import pytest

from ucutlass_harness import cli, worker


def _pairs(tmp_path, n):
    prob = tmp_path / "p.py"
    prob.write_text("x = 1\n")
    lines = []
    for i in range(n):
        sol = tmp_path / f"s{i}.py"
        sol.write_text("x = 1\n")
        lines.append(f"{prob} {sol}")
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("\n".join(lines) + "\n")
    return pairs


def test_two_devices_run_concurrently_one_worker_each(tmp_path, monkeypatch):
    active, seen, lock = {}, [], threading.Lock()
    peak = [0]

    def fake_run_task(task, timeout, env):
        d = task["device_index"]
        with lock:
            assert not active.get(d), f"two workers on device {d}"
            active[d] = True
            peak[0] = max(peak[0], sum(active.values()))
            seen.append((task["solution"].rsplit("/", 1)[-1], d, task.get("concurrent_devices")))
        time.sleep(0.05)
        with lock:
            active[d] = False
        return {"verdict": "ok", "timing": {"candidate": {"median_ms": 1.0}}}

    monkeypatch.setattr(worker, "run_task", fake_run_task)
    out = tmp_path / "out"
    rc = cli.main(["batch", str(_pairs(tmp_path, 6)), "--out-dir", str(out), "--devices", "0,1",
                   "--prebuild-jobs", "0"])
    assert rc == 0
    assert peak[0] == 2 and {d for _, d, _ in seen} == {0, 1} and all(c == 2 for _, _, c in seen)
    summary = json.loads((out / "summary.json").read_text())
    assert [r["solution"].rsplit("/", 1)[-1] for r in summary["results"]] == [f"s{i}.py" for i in range(6)]


def test_one_device_is_serial_and_keeps_its_index(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(worker, "run_task", lambda task, t, e: seen.append(task["device_index"]) or {"verdict": "ok"})
    assert cli.main(["batch", str(_pairs(tmp_path, 2)), "--out-dir", str(tmp_path / "o"), "--device", "3",
                     "--prebuild-jobs", "0"]) == 0
    assert seen == [3, 3]


@pytest.mark.parametrize("spec", ["0,0", "a,b", "-1", ","])
def test_bad_device_lists_are_usage_errors(tmp_path, spec):
    assert cli.main(["batch", str(_pairs(tmp_path, 1)), "--out-dir", str(tmp_path / "o"), "--devices", spec,
                     "--prebuild-jobs", "0"]) == 2


def test_all_counts_visible_devices_without_cuda(monkeypatch):
    from ucutlass_harness import gpu_env
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1,2")
    assert gpu_env.visible_gpu_count() == 3
