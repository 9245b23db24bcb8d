"""Parallel warm-up of solutions' extension builds before their serial evaluation.

KernelBench-style solutions build their CUDA code when imported (`load_inline` / `load`), which
takes 30-60 s of one CPU core each; evaluated one after the other (as timing requires), a batch of
25 solutions spends most of its wall time in nvcc with 15 cores idle. This step imports each
solution once in its own process, `jobs` at a time, with a TORCH_EXTENSIONS_DIR shared with the
evaluation workers, so the serial evaluations find their extensions built.

Nothing here decides a verdict: a solution that crashes, hangs or fails to build while being
imported here is only noted; its evaluation (in a fresh isolated worker) says what happened.
Importing runs a candidate's module code, so each import gets its own process group, killed
whole at the timeout.

    python3 -m ucutlass_harness.prebuild SOLUTION   # the per-solution step (exit 0 = imported)
"""

import concurrent.futures as cf
import os
import re
import signal
import subprocess
import sys
import time

from . import cpu_split, lifeline

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _import_one(path, ext_cache, timeout_s, cpus=None):
    env = lifeline.child_env(dict(os.environ, TORCH_EXTENSIONS_DIR=os.path.abspath(ext_cache)))
    if cpus:
        env[cpu_split.ENV] = cpu_split.format_list(cpus)
    env["PYTHONPATH"] = PACKAGE_PARENT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "ucutlass_harness.prebuild", path], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout_s)
        status = "imported" if proc.returncode == 0 else f"failed (exit {proc.returncode})"
    except subprocess.TimeoutExpired:
        err = b""
        status = f"timeout after {timeout_s:g} s"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the group: a compiler or a thread it left behind
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
    tail = (err or b"").decode(errors="replace").strip().splitlines()[-3:]
    out = {"status": status, "wall_s": round(time.monotonic() - start, 3), "stderr_tail": tail}
    if status.startswith("timeout") and (lock := release_killed_build(ext_cache, path)):
        out["released_build_lock"] = lock  # its owner died with the group: the evaluation must not wait on it
    return out


# The program hash a ucutlass ModelNew names its extension by (solution/modelnew_writer writes this line).
EXTENSION_HASH = re.compile(r'^_UCUTLASS_HASH = "([0-9a-f]+)"$', re.MULTILINE)


def extension_folders(program):
    """The two folders one program's extension build leaves under TORCH_EXTENSIONS_DIR: the build
    ("ucutlass_<hash>", which holds the lock and the .so) and its sources ("ucutlass_src_<hash>")."""
    return ("ucutlass_" + program, "ucutlass_src_" + program)


def release_killed_build(ext_cache, solution_path):
    """Removes the build lock of the solution's own extension after its run was killed; returns the lock
    removed, or None.

    A run killed at its timeout may be killed inside the extension's build, and torch.utils.cpp_extension
    leaves that folder's `lock` file behind; every later import of the extension (the next sanitize call
    on the same machine, sanitize_written --done's follow-up) waits on it forever and times out in turn.
    The lock's owner was in the killed process group, and no other run builds this solution's extension,
    so it is removed here, and only it: other folders' locks may belong to runs beside this one (unlike
    clear_stale_locks, which goes by age, this needs no wait)."""
    if not ext_cache:
        return None
    try:
        with open(solution_path, encoding="utf-8", errors="replace") as f:
            m = EXTENSION_HASH.search(f.read())
    except OSError:
        return None
    if not m:
        return None
    lock = os.path.join(ext_cache, extension_folders(m.group(1))[0], "lock")
    try:
        os.remove(lock)
    except OSError:
        return None
    return lock


def clear_stale_locks(ext_cache, timeout_s):
    """Removes build locks older than a build may take; returns their folders.

    torch.utils.cpp_extension guards each extension folder with a `lock` file and waits, forever, for it
    to go away. A build killed outright (kill -9 of a campaign, a machine lost) leaves it behind, and
    every later import of that extension would hang. A build here is killed at `timeout_s`, so a lock
    older than that has no live owner.
    """
    cleared = []
    now = time.time()
    try:
        names = os.listdir(ext_cache)
    except OSError:
        return cleared
    for name in names:
        lock = os.path.join(ext_cache, name, "lock")
        try:
            if now - os.path.getmtime(lock) > timeout_s:
                os.remove(lock)
                cleared.append(name)
        except OSError:
            continue
    return cleared


def prebuild_all(solutions, jobs, ext_cache, timeout_s=600.0, log=None, on_done=None, deadline=None, cpus=None):
    """Import every distinct solution file once, `jobs` at a time; {path: {status, wall_s, ...}}.

    `on_done(path, info)` is called as each import ends (in completion order), so a caller can start
    evaluating a solution while the others still build. A build not started by `deadline` (time.time())
    is not started at all (status "not_started"): its evaluation could not start either. With `cpus`,
    each build and the compilers it starts run on those CPUs alone (cpu_split.py).
    """
    os.makedirs(ext_cache, exist_ok=True)
    clear_stale_locks(ext_cache, timeout_s)
    unique = list(dict.fromkeys(os.path.abspath(s) for s in solutions if os.path.isfile(s)))
    out = {}

    def build(path):
        if deadline is not None and time.time() > deadline:
            return {"status": "not_started", "wall_s": 0.0}
        return _import_one(path, ext_cache, timeout_s, cpus)

    with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(build, s): s for s in unique}
        for fut in cf.as_completed(futures):
            path = futures[fut]
            out[path] = fut.result()
            if log:
                log(f"prebuild {os.path.basename(path)}: {out[path]['status']} ({out[path]['wall_s']} s)")
            if on_done:
                on_done(path, out[path])
    return out


class BackgroundBuilds:
    """Imports each (solution, ext_cache) pair on threads, `jobs` at a time, in the order given, while
    the caller works through the same list: `wait(path)` blocks until that solution's import has ended
    and returns its info (prebuild_all's). For a caller that must take the solutions in its own order
    (sanitize_written's wins first) and run each where its extension is already built, so that the time
    it gives a run is spent on the run and not on nvcc. A build not started by `deadline` (time.time())
    is not started ("not_started"), and none runs past it. Use it as a context manager: leaving cancels the builds not begun."""

    def __init__(self, pairs, jobs, timeout_s=600.0, deadline=None):
        self._deadline = deadline
        self._timeout_s = timeout_s
        self._pool = cf.ThreadPoolExecutor(max_workers=max(1, jobs))
        self._futures = {}
        for cache in dict.fromkeys(os.path.abspath(c) for _, c in pairs):
            os.makedirs(cache, exist_ok=True)
            clear_stale_locks(cache, timeout_s)
        for path, cache in pairs:
            path = os.path.abspath(path)
            if path not in self._futures and os.path.isfile(path):
                self._futures[path] = self._pool.submit(self._build, path, cache)

    def _build(self, path, cache):
        # No build outlives the deadline, so neither a wait nor leaving the context does.
        left = self._timeout_s if self._deadline is None else min(self._timeout_s, self._deadline - time.time())
        if left <= 0:
            return {"status": "not_started", "wall_s": 0.0}
        return _import_one(path, cache, left)

    def wait(self, path):
        """The import's info, or None for a path not given (or not a file)."""
        fut = self._futures.get(os.path.abspath(path))
        return fut.result() if fut else None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._pool.shutdown(wait=True, cancel_futures=True)
        return False


def _main(argv):
    if len(argv) != 1:
        print("usage: python3 -m ucutlass_harness.prebuild SOLUTION", file=sys.stderr)
        return 2
    cpu_split.confine_from_env()  # before the compilers start: they inherit it
    from . import problem
    # Dies with the harness that started it, taking its compilers along (lifeline.py).
    signal.signal(signal.SIGTERM, lifeline.terminate_group_and_exit)
    lifeline.arm_from_env(signal.SIGTERM)
    problem.load_module(argv[0], "prebuild")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
