"""Worker isolation protocol with fake tasks (no torch, no GPU)."""

import signal

from ucutlass_harness import worker


def run(action, timeout=30, **extra):
    return worker.run_task(dict({"kind": "fake", "action": action}, **extra), timeout)


def test_ok_result_passes_through():
    r = run("ok", payload={"a": 1})
    assert r["verdict"] == "ok" and r["payload"] == {"a": 1}
    assert r["worker"]["returncode"] == 0


def test_exception_becomes_runtime_error():
    r = run("raise")
    assert r["verdict"] == "runtime_error"
    assert r["error"]["message"] == "RuntimeError: fake failure"


def test_segfault_is_crashed_with_partial_record():
    r = run("segfault")
    assert r["verdict"] == "crashed"
    assert r["worker"]["returncode"] == -signal.SIGSEGV
    assert "SIGSEGV" in r["error"]["message"] and r["error"]["phase"] == "fake:segfault"
    assert r["signals"][0]["name"] == "threads"


def test_abort_and_exit_code():
    assert run("abort")["error"]["message"].startswith("worker died by SIGABRT")
    r = run("exit", code=7)
    assert r["verdict"] == "crashed" and "exited with code 7" in r["error"]["message"]


def test_hang_is_timeout_and_next_task_runs():
    r = run("hang", timeout=3)
    assert r["verdict"] == "timeout"
    assert r["error"]["message"] == "worker killed after 3 s (phase: fake:hang)"
    assert run("ok")["verdict"] == "ok"


def test_unknown_task_kind():
    r = worker.run_task({"kind": "nope"}, 30)
    assert r["verdict"] == "runtime_error" and "unknown task kind" in r["error"]["message"]
