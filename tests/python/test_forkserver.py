"""Fork server: the same verdicts as spawned workers, per-task environment, concurrency, restarts."""

import concurrent.futures as cf
import os
import signal
import sys
import time

import pytest

pytest.importorskip("torch", reason="the fork server imports torch")

from ucutlass_harness import forkserver, worker  # noqa: E402


@pytest.fixture(params=["forkserver", "spawn"])
def launch(request, monkeypatch):
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1" if request.param == "forkserver" else "0")
    return request.param


def fake(action, timeout=60, env=None, **extra):
    return worker.run_task(dict({"kind": "fake", "action": action}, **extra), timeout, env)


def same_shape(r):
    """What must not depend on the launch method."""
    return {"verdict": r["verdict"], "error": r.get("error"), "returncode": r["worker"]["returncode"],
            "signals": r.get("signals"), "stdout": r["worker"]["stdout_tail"]}


EXPECTED = {
    "ok": ("ok", 0, None),
    "segfault": ("crashed", -signal.SIGSEGV, "worker died by SIGSEGV (phase: fake:segfault)"),
    "abort": ("crashed", -signal.SIGABRT, "worker died by SIGABRT (phase: fake:abort)"),
    "exit": ("crashed", 7, "worker exited with code 7 without a result (phase: fake:exit)"),
    "raise": ("runtime_error", 0, "RuntimeError: fake failure"),
}


@pytest.mark.parametrize("action", sorted(EXPECTED))
def test_verdicts_match_spawn(launch, action):
    r = fake(action, code=7)
    verdict, rc, message = EXPECTED[action]
    assert r["worker"]["launch"] == launch, r["worker"].get("launch_note")
    assert r["verdict"] == verdict and r["worker"]["returncode"] == rc
    if message:
        assert r["error"]["message"] == message


def test_hang_is_killed_with_its_group(launch):
    t0 = time.monotonic()
    r = fake("hang", timeout=2)
    assert r["worker"]["launch"] == launch
    assert r["verdict"] == "timeout" and r["error"]["message"] == "worker killed after 2 s (phase: fake:hang)"
    assert r["worker"]["returncode"] == -signal.SIGKILL
    assert time.monotonic() - t0 < 30
    assert fake("ok")["verdict"] == "ok"


def test_probe_same_process_view(launch, tmp_path):
    """The worker's view (session, sys.path, argv, cwd, threads, CUDA, env) is that of a spawned worker."""
    env = {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "ind"), "TORCH_EXTENSIONS_DIR": str(tmp_path / "ext"),
           "TORCHINDUCTOR_FX_GRAPH_CACHE": "0", "TORCHINDUCTOR_COMPILE_THREADS": "3"}
    r = fake("probe", env=env, inductor=True, env_keys=sorted(env) + ["UCUTLASS_FORKSERVER"])
    assert r["worker"]["launch"] == launch
    assert r["sid"] == r["pid"] == r["pgid"]
    assert r["python_threads"] == 1 and r["cuda_initialized"] is False and r["frozen_at_start"] == []
    assert r["cwd"] == os.getcwd() and r["argv"][1] == "_worker"
    assert r["sys_path"][1] == worker.PACKAGE_PARENT
    assert r["inductor_cache_dir"] == env["TORCHINDUCTOR_CACHE_DIR"]
    assert r["fx_graph_cache"] is False and r["compile_threads"] == 3
    assert r["extensions_dir"] == os.path.join(env["TORCH_EXTENSIONS_DIR"], "ucutlass_probe")
    assert r["env"]["UCUTLASS_FORKSERVER"] == ("1" if launch == "forkserver" else "0")
    assert "probe stdout" in r["worker"]["stdout_tail"] and "probe stderr" in r["worker"]["stderr_tail"]


def test_probe_matches_spawn_exactly(monkeypatch, tmp_path):
    env = {"TORCH_EXTENSIONS_DIR": str(tmp_path / "ext"), "PYTHONPATH": str(tmp_path) + os.pathsep +
           worker.PACKAGE_PARENT}
    views = {}
    for mode in ("1", "0"):
        monkeypatch.setenv("UCUTLASS_FORKSERVER", mode)
        r = fake("probe", env=env, env_keys=["TORCH_EXTENSIONS_DIR", "PYTHONPATH"])
        assert r["worker"]["launch"] == ("forkserver" if mode == "1" else "spawn")
        views[mode] = {k: r[k] for k in ("sys_path", "cwd", "python_threads", "cuda_initialized", "env")}
        views[mode]["argv0"] = r["argv"][0]
    assert views["1"] == views["0"]
    assert views["1"]["sys_path"][1] == str(tmp_path)


def test_env_extra_is_per_task_under_concurrency(monkeypatch, tmp_path):
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1")

    def one(i):
        env = {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / f"c{i}"), "TORCH_EXTENSIONS_DIR": str(tmp_path / f"e{i}")}
        return i, fake("probe", env=env, env_keys=sorted(env))

    with cf.ThreadPoolExecutor(6) as ex:
        results = list(ex.map(one, range(12)))
    pids = set()
    for i, r in results:
        assert r["verdict"] == "ok" and r["worker"]["launch"] == "forkserver"
        assert r["env"] == {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / f"c{i}"),
                            "TORCH_EXTENSIONS_DIR": str(tmp_path / f"e{i}")}
        pids.add(r["pid"])
    assert len(pids) == 12


def test_concurrent_mixed_failures(monkeypatch):
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1")
    actions = ["ok", "segfault", "hang", "exit", "raise", "ok", "abort", "hang"]
    with cf.ThreadPoolExecutor(len(actions)) as ex:
        results = list(ex.map(lambda a: (a, fake(a, timeout=3, code=7)), actions))
    for a, r in results:
        assert r["worker"]["launch"] == "forkserver"
        if a == "hang":
            assert r["verdict"] == "timeout"
        else:
            verdict, rc, _ = EXPECTED[a]
            assert (r["verdict"], r["worker"]["returncode"]) == (verdict, rc), a
    assert forkserver.client()._alive()


def test_env_read_at_import_is_not_forked(monkeypatch):
    """A variable the server may already have consumed (OMP_NUM_THREADS) differs: spawn instead."""
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1")
    fake("ok")  # server up with the current environment
    r = fake("probe", env={"OMP_NUM_THREADS": "1"}, env_keys=["OMP_NUM_THREADS"])
    assert r["verdict"] == "ok" and r["worker"]["launch"] == "spawn"
    assert "OMP_NUM_THREADS" in r["worker"]["launch_note"] and r["env"]["OMP_NUM_THREADS"] == "1"
    assert forkserver.env_conflicts({"A": "1", "TORCHINDUCTOR_X": "1"}, {"A": "1", "TORCHINDUCTOR_X": "2"}) == []
    assert forkserver.env_conflicts({"OMP_X": "1", "B": "1"}, {"TORCH_EXTENSIONS_DIR": "x"}) == ["OMP_X"]


def test_server_restarts_after_kill(monkeypatch):
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1")
    c = forkserver.client()
    assert fake("ok")["worker"]["launch"] == "forkserver"
    first = c.proc.pid
    os.kill(first, signal.SIGKILL)
    c.proc.wait()
    r = fake("ok")
    assert r["verdict"] == "ok" and r["worker"]["launch"] == "forkserver"
    assert c.proc.pid != first


def _wait_for_child(pid, limit_s=20):
    """Until process `pid` has a child (a fixed sleep raced the fork on a loaded machine)."""
    deadline = time.monotonic() + limit_s
    path = f"/proc/{pid}/task/{pid}/children"
    while time.monotonic() < deadline:
        with open(path, encoding="utf-8") as f:
            if f.read().split():
                return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} forked no child in {limit_s} s")


def test_server_killed_during_task(monkeypatch):
    """The running child outlives its server: its own result still counts; the next task restarts the server."""
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1")
    c = forkserver.client()
    fake("ok")
    server = c.proc

    with cf.ThreadPoolExecutor(1) as ex:
        fut = ex.submit(fake, "sleep", 60, None, seconds=2)
        _wait_for_child(server.pid)  # kill the server only once it has forked the task's child
        os.kill(server.pid, signal.SIGKILL)
        r = fut.result()
    assert r["verdict"] == "ok" and r["worker"]["launch"] == "forkserver"
    assert "died" in r["worker"]["launch_note"]
    assert fake("ok")["worker"]["launch"] == "forkserver"


def test_candidate_cannot_hurt_server(monkeypatch):
    """os.kill of the parent from a child: the parent is the server, which the child cannot see as special."""
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1")
    c = forkserver.client()
    fake("ok")
    pid = c.proc.pid
    for a in ("segfault", "abort", "exit", "hang"):
        fake(a, timeout=1)
    assert c.proc.pid == pid and c._alive()


def test_disabled_by_env(monkeypatch):
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "0")
    r = fake("ok")
    assert r["worker"]["launch"] == "spawn" and "launch_note" not in r["worker"]


def test_orchestrator_exit_stops_server(tmp_path):
    """The server leaves (killing running children) when the orchestrating process dies."""
    import subprocess
    code = ("import os, threading, time, json\n"
            "from ucutlass_harness import worker, forkserver\n"
            "worker.run_task({'kind': 'fake', 'action': 'ok'}, 60)\n"
            "print(forkserver.client().proc.pid, flush=True)\n"
            "threading.Thread(target=worker.run_task, args=({'kind': 'fake', 'action': 'probe'}, 60),"
            " daemon=True).start()\n"
            "time.sleep(60)\n")
    env = dict(os.environ, PYTHONPATH=worker.PACKAGE_PARENT, UCUTLASS_FORKSERVER="1")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env, start_new_session=True)
    server_pid = int(p.stdout.readline())
    p.kill()
    p.wait()
    deadline = time.monotonic() + 20
    while forkserver._running(server_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not forkserver._running(server_pid)


DYNAMIC_THREAD = ("_th = __import__('thread' + 'ing')\n_ev = _th.Event()\n",
                  "        if not getattr(self, 'started', False):\n"
                  "            self.started = True\n"
                  "            _th.Thread(target=_ev.wait, args=(60,), daemon=True).start()\n"
                  "        return torch.relu(self.l(x))\n")


@pytest.mark.parametrize("name", ["honest", "patch", "mutate", "dynamic_thread"])
def test_cpu_evaluation_same_verdict_and_signals(monkeypatch, tmp_path, name):
    """Integrity signals (timer patching, new threads, input mutation) fire the same in a forked worker."""
    from test_torch_cpu import CANDIDATES, HEAD, IMPORTS, PROBLEM
    prob = tmp_path / "prob.py"
    prob.write_text(PROBLEM)
    prefix, body = DYNAMIC_THREAD if name == "dynamic_thread" else CANDIDATES[name][:2]
    sol = tmp_path / "sol.py"
    sol.write_text(IMPORTS + prefix + HEAD + "\n    def forward(self, x):\n" + body)
    task = {"kind": "eval", "problem": str(prob), "solution": str(sol), "backend": "any", "device_type": "cpu",
            "correct_trials": 3, "timing_trials": 4, "warmup": 1, "baselines": ["eager"], "seed": 42}
    seen = {}
    for mode in ("1", "0"):
        monkeypatch.setenv("UCUTLASS_FORKSERVER", mode)
        r = worker.run_task(task, 120)
        assert r["worker"]["launch"] == ("forkserver" if mode == "1" else "spawn")
        seen[mode] = (r["verdict"], sorted(s["name"] for s in r["signals"] if s["fired"]))
    assert seen["1"] == seen["0"], seen
    if name == "dynamic_thread":
        assert "threads" in seen["1"][1]
    if name == "honest":
        assert seen["1"][0] == "ok" and "threads" not in seen["1"][1]


def test_server_refuses_after_cuda_driver_initialized(monkeypatch):
    """The guard the server checks before every fork (no GPU here: simulate the condition)."""
    monkeypatch.setattr(forkserver, "cuda_driver_initialized", lambda: True)
    s = forkserver.Server("/nonexistent")
    assert "CUDA driver is initialized" in s.refuse_reason({"env": dict(os.environ)})
    monkeypatch.setattr(forkserver, "cuda_driver_initialized", lambda: False)
    assert s.refuse_reason({"env": dict(os.environ)}) is None
    assert s.refuse_reason({"env": dict(os.environ, OMP_NUM_THREADS="2")}).startswith("environment differs")


def test_an_open_nvidia_device_file_means_the_driver_is_initialized(monkeypatch, tmp_path):
    """The real check reads /proc/self/fd: a descriptor on /dev/nvidia* (cuInit opens them)."""
    assert forkserver.cuda_driver_initialized() is False  # no GPU here: nothing open
    real = os.readlink
    monkeypatch.setattr(os, "readlink", lambda p: "/dev/nvidiactl" if p.endswith("/0") else real(p))
    assert forkserver.cuda_driver_initialized() is True


def test_preloaded_dynamo_serves_its_own_env_and_spawns_another(monkeypatch, tmp_path):
    """UCUTLASS_FORKSERVER_PRELOAD=torch._dynamo: a task with the server's environment is forked with
    torch._dynamo already imported (the profiler's 4 s import paid once); one whose TORCHINDUCTOR_*
    differ is refused and spawned, so its inductor settings still take effect."""
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1")
    monkeypatch.setenv("UCUTLASS_FORKSERVER_PRELOAD", "torch._dynamo")
    saved = forkserver._client, forkserver._client_pid
    forkserver._new_client()  # a server started with the preload in its environment
    try:
        same = fake("probe", env_keys=["UCUTLASS_FORKSERVER"])
        assert same["worker"]["launch"] == "forkserver", same["worker"].get("launch_note")
        assert "torch._dynamo" in same["frozen_at_start"]
        cache = str(tmp_path / "inductor")
        other = fake("probe", env={"TORCHINDUCTOR_CACHE_DIR": cache}, inductor=True, env_keys=["TORCHINDUCTOR_CACHE_DIR"])
        assert other["worker"]["launch"] == "spawn"
        assert "would not take effect" in other["worker"]["launch_note"]
        assert other["inductor_cache_dir"] == cache
    finally:
        forkserver._client.close()
        forkserver._client, forkserver._client_pid = saved
