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


def test_overlap_builds_evaluates_each_solution_once_its_build_ends(tmp_path, monkeypatch):
    """--overlap-builds: fast builds are evaluated while a slow one still builds; without it, after."""
    prob = tmp_path / "p.py"
    prob.write_text("x = 1\n")
    slow_done = tmp_path / "slow_done"
    sols = []
    for i in range(3):
        sol = tmp_path / f"s{i}.py"
        # s0 "builds" (imports) for 3 s, then leaves a mark; the others import at once.
        sol.write_text(f"import time, pathlib\ntime.sleep(3)\npathlib.Path({str(slow_done)!r}).touch()\n" if i == 0
                       else "x = 1\n")
        sols.append(sol)
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("".join(f"{prob} {s}\n" for s in sols))

    for overlap in (True, False):
        if slow_done.exists():
            slow_done.unlink()
        seen = {}
        def fake_run_task(task, timeout, env):
            seen[task["solution"].rsplit("/", 1)[-1]] = slow_done.exists()
            return {"verdict": "ok"}
        monkeypatch.setattr(worker, "run_task", fake_run_task)
        out = tmp_path / f"out{overlap}"
        argv = ["batch", str(pairs), "--out-dir", str(out), "--devices", "0,1", "--prebuild-jobs", "8",
                "--ext-cache", str(tmp_path / "ext")] + (["--overlap-builds"] if overlap else [])
        assert cli.main(argv) == 0
        assert set(seen) == {"s0.py", "s1.py", "s2.py"}
        # seen[name]: was the slow build finished when this evaluation started?
        assert seen["s0.py"]
        assert (seen["s1.py"], seen["s2.py"]) == ((False, False) if overlap else (True, True))
        records = json.loads((out / "summary.json").read_text())["results"]
        assert [r["solution"].rsplit("/", 1)[-1] for r in records] == ["s0.py", "s1.py", "s2.py"]
        if overlap:
            assert records[0]["concurrent_builds"] == 0 and all(r["concurrent_builds"] >= 1 for r in records[1:])
        else:
            assert all("concurrent_builds" not in r for r in records)


def test_an_after_builds_pair_waits_for_every_build_to_end(tmp_path, monkeypatch):
    """A re-measurement marked after_builds is evaluated on an idle host: after the slow build ends,
    although its own solution needs no build; the attempt beside it is evaluated as soon as it is built."""
    prob = tmp_path / "p.py"
    prob.write_text("x = 1\n")
    slow_done = tmp_path / "slow_done"
    slow = tmp_path / "slow.py"
    slow.write_text(f"import time, pathlib\ntime.sleep(3)\npathlib.Path({str(slow_done)!r}).touch()\n")
    for name in ("fast.py", "confirm.py"):
        (tmp_path / name).write_text("x = 1\n")
    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps([{"problem": str(prob), "solution": str(slow)},
                                 {"problem": str(prob), "solution": str(tmp_path / "fast.py")},
                                 {"problem": str(prob), "solution": str(tmp_path / "confirm.py"), "after_builds": True}]))
    seen = {}
    def fake_run_task(task, timeout, env):
        seen[task["solution"].rsplit("/", 1)[-1]] = slow_done.exists()
        return {"verdict": "ok"}
    monkeypatch.setattr(worker, "run_task", fake_run_task)
    out = tmp_path / "out"
    assert cli.main(["batch", str(pairs), "--out-dir", str(out), "--prebuild-jobs", "8", "--overlap-builds",
                     "--ext-cache", str(tmp_path / "ext")]) == 0
    assert seen == {"slow.py": True, "fast.py": False, "confirm.py": True}
    records = json.loads((out / "summary.json").read_text())["results"]
    assert [r["solution"].rsplit("/", 1)[-1] for r in records] == ["slow.py", "fast.py", "confirm.py"]
    assert records[2]["concurrent_builds"] == 0 and records[1]["concurrent_builds"] >= 1


def test_l2_flush_mode_reaches_the_task(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(worker, "run_task", lambda task, t, e: seen.append(task["l2_flush"]) or {"verdict": "ok"})
    pairs = _pairs(tmp_path, 1)
    assert cli.main(["batch", str(pairs), "--out-dir", str(tmp_path / "a"), "--prebuild-jobs", "0"]) == 0
    assert cli.main(["batch", str(pairs), "--out-dir", str(tmp_path / "b"), "--prebuild-jobs", "0",
                     "--l2-flush", "read"]) == 0
    assert seen == ["write", "read"]
    assert cli.main(["batch", str(pairs), "--out-dir", str(tmp_path / "c"), "--l2-flush", "none"]) == 2


def test_a_pairs_own_timing_window_wins_over_the_flag(tmp_path, monkeypatch):
    # The optimizer's re-measurement of a written solution (the harness's default window) rides in a
    # batch of attempts timed at --timing-min-ms 300; a pair without its own window keeps the flag's.
    prob = tmp_path / "p.py"
    prob.write_text("x = 1\n")
    for name in ("attempt.py", "confirm.py"):
        (tmp_path / name).write_text("x = 1\n")
    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps([{"problem": str(prob), "solution": str(tmp_path / "attempt.py")},
                                 {"problem": str(prob), "solution": str(tmp_path / "confirm.py"), "timing_min_ms": 1000}]))
    seen = {}
    monkeypatch.setattr(worker, "run_task", lambda task, t, e: seen.update(
        {task["solution"].rsplit("/", 1)[-1]: task.get("timing_min_ms")}) or {"verdict": "ok"})
    assert cli.main(["batch", str(pairs), "--out-dir", str(tmp_path / "o"), "--timing-min-ms", "300",
                     "--prebuild-jobs", "0"]) == 0
    assert seen == {"attempt.py": 300, "confirm.py": 1000}
    pairs.write_text(json.dumps([{"problem": str(prob), "solution": str(tmp_path / "confirm.py"), "timing_min_ms": -5}]))
    assert cli.main(["batch", str(pairs), "--out-dir", str(tmp_path / "o2"), "--prebuild-jobs", "0"]) == 2


def test_overlapped_evaluations_and_builds_each_keep_their_cpus(tmp_path, monkeypatch):
    """--overlap-builds --cpu-split splits the CPUs (cpu_split.py): the workers get one side, the builds the
    other; without --cpu-split nothing is pinned."""
    from ucutlass_harness import cpu_split
    import os
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs two CPUs")
    evals, builds = {cpus[-1]}, {cpus[0]}
    monkeypatch.setattr(cpu_split, "split", lambda devices: (evals, builds))
    prob = tmp_path / "p.py"
    prob.write_text("x = 1\n")
    mark = tmp_path / "build_cpus"
    sol = tmp_path / "s.py"
    sol.write_text(f"import os\nopen({str(mark)!r}, 'w').write(repr(sorted(os.sched_getaffinity(0))))\n")
    other = tmp_path / "t.py"  # a batch of one builds nothing up front
    other.write_text("x = 1\n")
    pairs = tmp_path / "pairs.txt"
    pairs.write_text(f"{prob} {sol}\n{prob} {other}\n")
    envs = []
    monkeypatch.setattr(worker, "run_task", lambda task, t, env: envs.append(dict(env)) or {"verdict": "ok"})
    out = tmp_path / "out"
    assert cli.main(["batch", str(pairs), "--out-dir", str(out), "--prebuild-jobs", "4", "--overlap-builds",
                     "--cpu-split", "--ext-cache", str(tmp_path / "ext")]) == 0
    assert mark.read_text() == repr(sorted(builds))
    assert envs[0][cpu_split.ENV] == str(cpus[-1])
    result = json.loads((out / "000_s.json").read_text())
    assert result["cpu_split"] == {"eval": str(cpus[-1]), "builds": str(cpus[0])}
    mark.unlink()
    envs.clear()
    out2 = tmp_path / "out2"
    assert cli.main(["batch", str(pairs), "--out-dir", str(out2), "--prebuild-jobs", "4", "--overlap-builds",
                     "--ext-cache", str(tmp_path / "ext2")]) == 0
    assert mark.read_text() == repr(sorted(os.sched_getaffinity(0)))
    assert cpu_split.ENV not in envs[0]
    assert json.loads((out2 / "000_s.json").read_text())["cpu_split"] is None
