"""Process isolation: every evaluation runs in a fresh worker subprocess.

Protocol. The parent writes the task as JSON to a file and starts
``python3 -m ucutlass_harness _worker TASK RESULT PROGRESS`` in a new session.
The worker writes PROGRESS (JSON: current phase plus the partial record so far)
at each phase change and RESULT once at the end, then leaves with os._exit so a
broken CUDA context cannot hang interpreter shutdown. The parent maps what it
finds to a verdict: a RESULT means the worker finished (its own verdict
stands); no RESULT and death by a signal means "crashed"; running past the
timeout means the whole process group is killed and the verdict is "timeout".
Either way the partial record from PROGRESS is attached, and the next task gets
a new process (a new CUDA context).

Launch. By default the worker is forked from this process's fork server
(forkserver.py: a process that imported torch once and never initializes CUDA),
which saves the interpreter and torch start-up per task; the child runs the same
worker_main in its own session with the same files, environment and exit-status
convention. If the server cannot start, refuses the task, or UCUTLASS_FORKSERVER=0,
the worker is spawned as described above. worker_info["launch"] says which.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback

from . import cpu_split, forkserver, lifeline

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAIL_CHARS = 4000


def _tail(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    return text[-TAIL_CHARS:]


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_json_atomic(path, obj):
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f)
    os.replace(tmp, path)


def signal_name(returncode):
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _spawn(argv, env, out_path, err_path, timeout_s):
    """A fresh interpreter in a new session; returns (returncode, timed_out)."""
    cmd = [sys.executable, "-m", "ucutlass_harness", "_worker"] + argv
    with open(out_path, "wb") as out_f, open(err_path, "wb") as err_f:
        proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, stdin=subprocess.DEVNULL,
                                env=lifeline.child_env(env), start_new_session=True)
        timed_out = False
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                proc.kill()
            proc.wait()
    # Grandchildren (e.g. a compiler) may outlive a crashed worker; end the group.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return proc.returncode, timed_out


def run_task(task, timeout_s, env_extra=None):
    """Run one task in a fresh worker; always returns a dict with a "verdict"."""
    with tempfile.TemporaryDirectory(prefix="ucutlass_worker_") as d:
        task_path = os.path.join(d, "task.json")
        result_path = os.path.join(d, "result.json")
        progress_path = os.path.join(d, "progress.json")
        out_path = os.path.join(d, "stdout.txt")
        err_path = os.path.join(d, "stderr.txt")
        write_json_atomic(task_path, task)
        base_env = dict(os.environ)
        base_env["PYTHONPATH"] = PACKAGE_PARENT + (os.pathsep + base_env["PYTHONPATH"]
                                                   if base_env.get("PYTHONPATH") else "")
        env = dict(base_env)
        env.update(env_extra or {})
        argv = [task_path, result_path, progress_path]
        start = time.monotonic()
        launch, note = "spawn", None
        returncode = None
        if forkserver.enabled():
            try:
                r = forkserver.client().run(base_env, env, argv, out_path, err_path, timeout_s)
                launch, returncode, timed_out, note = "forkserver", r["returncode"], r["timed_out"], r.get("note")
                start = r["start"]
            except forkserver.Unavailable as e:
                note = f"spawned: {e}"
                start = time.monotonic()
        if launch == "spawn":
            returncode, timed_out = _spawn(argv, env, out_path, err_path, timeout_s)
        wall = time.monotonic() - start
        worker_info = {"returncode": returncode, "wall_s": round(wall, 3), "launch": launch,
                       "stdout_tail": _tail(out_path), "stderr_tail": _tail(err_path)}
        if note:
            worker_info["launch_note"] = note
        result = _read_json(result_path)
        progress = _read_json(progress_path) or {}
        if result is not None and not timed_out:
            result["worker"] = worker_info
            return result
        partial = progress.get("partial") or {}
        phase = progress.get("phase")
        if timed_out:
            verdict = "timeout"
            message = f"worker killed after {timeout_s:g} s (phase: {phase or 'startup'})"
        elif returncode is not None and returncode < 0:
            verdict = "crashed"
            message = f"worker died by {signal_name(returncode)} (phase: {phase or 'startup'})"
        else:
            verdict = "crashed"
            message = f"worker exited with code {returncode} without a result (phase: {phase or 'startup'})"
        record = dict(partial)
        record.setdefault("format", "ucutlass-eval-result")
        record.setdefault("version", 1)
        record.setdefault("problem", task.get("problem_info"))
        record.setdefault("solution", task.get("solution_info"))
        record.setdefault("signals", [])
        record["verdict"] = verdict
        record["error"] = {"kind": verdict, "message": message, "phase": phase}
        record["worker"] = worker_info
        return record


class Progress:
    """Worker-side progress file: the phase and the partial record."""

    def __init__(self, path):
        self.path = path
        self.partial = {}

    def phase(self, name):
        if self.path:
            write_json_atomic(self.path, {"phase": name, "partial": self.partial, "time": time.time()})


def _fake_task(task, progress):
    """Fake tasks to test the protocol: ok, raise, segfault, abort, hang, sleep, exit (no torch);
    probe (imports torch: what the worker process sees, for the fork server tests)."""
    action = task.get("action", "ok")
    progress.partial["signals"] = [{"name": "threads", "fired": False, "detail": "fake", "kind": "gaming"}]
    progress.phase(f"fake:{action}")
    if action == "ok":
        return {"format": "ucutlass-eval-result", "version": 1, "problem": None, "solution": None,
                "verdict": "ok", "signals": [], "payload": task.get("payload")}
    if action == "raise":
        raise RuntimeError("fake failure")
    if action == "segfault":
        import ctypes
        ctypes.string_at(0)
    if action == "abort":
        os.abort()
    if action == "hang":
        while True:
            time.sleep(1)
    if action == "sleep":
        time.sleep(float(task.get("seconds", 1)))
        return {"format": "ucutlass-eval-result", "version": 1, "verdict": "ok", "signals": []}
    if action == "probe":
        return _probe(task)
    if action == "exit":
        sys.stdout.flush()
        os._exit(int(task.get("code", 3)))
    raise ValueError(f"unknown fake action {action!r}")


def _probe(task):
    import threading
    frozen_at_start = sorted(m for m in ("torch._dynamo", "torch._inductor", "triton") if m in sys.modules)
    import torch
    info = {"format": "ucutlass-eval-result", "version": 1, "verdict": "ok", "signals": [],
            "pid": os.getpid(), "sid": os.getsid(0), "pgid": os.getpgid(0), "cwd": os.getcwd(),
            "python_threads": threading.active_count(), "cuda_initialized": torch.cuda.is_initialized(),
            "frozen_at_start": frozen_at_start, "sys_path": list(sys.path), "argv": list(sys.argv),
            "env": {k: os.environ.get(k) for k in task.get("env_keys", [])},
            "cpus": sorted(os.sched_getaffinity(0))}
    print("probe stdout")
    print("probe stderr", file=sys.stderr)
    if task.get("inductor"):
        import torch._inductor.config as inductor_config
        from torch._inductor.runtime.cache_dir_utils import cache_dir
        from torch.utils import cpp_extension
        info["inductor_cache_dir"] = cache_dir()
        info["fx_graph_cache"] = inductor_config.fx_graph_cache
        info["compile_threads"] = inductor_config.compile_threads
        info["extensions_dir"] = cpp_extension._get_build_directory("ucutlass_probe", False)
    return info


def worker_main(task_path, result_path, progress_path=None):
    """Entry point inside the worker process. Never returns."""
    # A spawned worker must not outlive the harness that waits for it (lifeline.py). A forked one
    # is the fork server's child and outlives it on purpose; the server kills it when its client,
    # the harness, disconnects.
    lifeline.arm_from_env()
    cpu_split.confine_from_env()  # the evaluation cores, when builds run beside it (cpu_split.py)
    progress = Progress(progress_path)
    task = _read_json(task_path) or {}
    progress.phase("startup")
    try:
        kind = task.get("kind")
        if kind == "fake":
            result = _fake_task(task, progress)
        elif kind == "eval":
            from . import evaluate
            result = evaluate.evaluate_task(task, progress)
        elif kind == "baseline":
            from . import baselines
            result = baselines.time_task(task, progress)
        elif kind == "baseline_warm":
            from . import baselines
            result = baselines.warm_task(task, progress)
        else:
            raise ValueError(f"unknown task kind {kind!r}")
    except BaseException as e:  # the worker must always leave a result behind
        result = dict(progress.partial)
        result.update({"format": "ucutlass-eval-result", "version": 1,
                       "problem": task.get("problem_info"), "solution": task.get("solution_info")})
        result.setdefault("signals", [])
        result["verdict"] = "runtime_error"
        result["error"] = {"kind": "runtime_error", "message": f"{type(e).__name__}: {e}",
                           "phase": "worker", "traceback": traceback.format_exc()[-TAIL_CHARS:]}
    write_json_atomic(result_path, result)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
