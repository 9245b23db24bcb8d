"""lifeline.py: a child in a session of its own still dies with its parent, and a build leaves
through its `finally` blocks (torch's build lock) taking its compilers with it."""
import os
import signal
import subprocess
import sys
import textwrap
import time

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")


def _wait_for(path, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if os.path.exists(path) and open(path).read().strip():
            return open(path).read().split()
        time.sleep(0.05)
    raise AssertionError(f"{path} never written")


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie has exited
        return f.read().split(")")[-1].split()[0] != "Z"


def _parent_script(tmp_path, child_body):
    """A parent that starts `child_body` in a new session, prints the child's pid, then sleeps."""
    child = tmp_path / "child.py"
    child.write_text(textwrap.dedent(child_body))
    parent = tmp_path / "parent.py"
    parent.write_text(textwrap.dedent(f"""
        import os, subprocess, sys, time
        sys.path.insert(0, {PYTHON_DIR!r})
        from ucutlass_harness import lifeline
        env = lifeline.child_env(dict(os.environ, PYTHONPATH={PYTHON_DIR!r}))
        p = subprocess.Popen([sys.executable, {str(child)!r}], env=env, start_new_session=True)
        time.sleep(600)
    """))
    return parent


def test_a_child_in_its_own_session_dies_with_its_parent(tmp_path):
    pids = tmp_path / "pids"
    parent = _parent_script(tmp_path, f"""
        import os, time
        from ucutlass_harness import lifeline
        assert lifeline.arm_from_env()
        open({str(pids)!r}, "w").write(str(os.getpid()))
        time.sleep(600)
    """)
    proc = subprocess.Popen([sys.executable, str(parent)])
    child = int(_wait_for(str(pids))[0])
    assert _alive(child)
    proc.kill()  # kill -9: no handler of the parent runs
    proc.wait()
    end = time.monotonic() + 10
    while _alive(child) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _alive(child)


def test_a_build_stops_its_compilers_and_runs_its_finally_blocks(tmp_path):
    pids, released = tmp_path / "pids", tmp_path / "released"
    parent = _parent_script(tmp_path, f"""
        import os, signal, subprocess, time
        from ucutlass_harness import lifeline
        signal.signal(signal.SIGTERM, lifeline.terminate_group_and_exit)
        assert lifeline.arm_from_env(signal.SIGTERM)
        compiler = subprocess.Popen(["sleep", "600"])  # stands in for ninja / nvcc, in our group
        try:
            open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{compiler.pid}}")
            compiler.wait()
        finally:
            open({str(released)!r}, "w").write("lock released")
    """)
    proc = subprocess.Popen([sys.executable, str(parent)])
    build, compiler = (int(x) for x in _wait_for(str(pids)))
    proc.kill()
    proc.wait()
    assert _wait_for(str(released)) == ["lock", "released"]
    end = time.monotonic() + 10
    while (_alive(build) or _alive(compiler)) and time.monotonic() < end:
        time.sleep(0.05)
    assert not _alive(build) and not _alive(compiler)
