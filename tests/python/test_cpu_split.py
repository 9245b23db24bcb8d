"""cpu_split.py: the evaluation cores and the build cores, and the processes that confine themselves."""
import os
import textwrap

import pytest

from ucutlass_harness import cpu_split, prebuild

ALLOWED = os.sched_getaffinity(0)


def smt_pairs(cpu):
    """A 16-CPU machine whose core k is CPUs k and k + 8."""
    return {cpu % 8, cpu % 8 + 8}


def test_lists_read_and_write_the_kernel_format():
    assert cpu_split.parse_list("0-3,8,10-11\n") == {0, 1, 2, 3, 8, 10, 11}
    assert cpu_split.format_list({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11"
    assert cpu_split.format_list({5}) == "5"
    for bad in ("3-1", "x", "-2"):
        with pytest.raises(ValueError):
            cpu_split.parse_list(bad)


def test_each_device_gets_two_whole_cores_from_the_top():
    evals, builds = cpu_split.split(1, allowed=range(16), siblings=smt_pairs)
    assert evals == {6, 7, 14, 15}  # cores 7 and 6, both of their hyperthreads
    assert builds == set(range(16)) - evals
    evals, builds = cpu_split.split(2, allowed=range(16), siblings=lambda c: {c})
    assert evals == {12, 13, 14, 15} and builds == set(range(12))


def test_siblings_outside_the_allowed_cpus_are_not_taken():
    evals, builds = cpu_split.split(1, allowed={0, 1, 2, 3, 15}, siblings=smt_pairs)
    assert evals == {15, 3} and builds == {0, 1, 2}  # 15's sibling 7 is not ours; 3's sibling 11 neither


def test_no_split_where_the_builds_would_keep_fewer_than_two():
    assert cpu_split.split(1, allowed={0, 1, 2}, siblings=lambda c: {c}) is None
    assert cpu_split.split(1, allowed={0, 1}, siblings=lambda c: {c}) is None  # this machine's 2 cores
    assert cpu_split.split(4, allowed=range(8), siblings=lambda c: {c}) is None


def test_a_process_confines_itself_to_the_named_cpus(monkeypatch):
    one = min(ALLOWED)
    monkeypatch.setenv(cpu_split.ENV, str(one))
    try:
        assert cpu_split.confine_from_env() == {one}
        assert os.sched_getaffinity(0) == {one}
    finally:
        os.sched_setaffinity(0, ALLOWED)


def test_a_bad_or_foreign_list_leaves_the_process_where_it_was(monkeypatch):
    for text in ("banana", str(max(ALLOWED) + 1000)):
        monkeypatch.setenv(cpu_split.ENV, text)
        assert cpu_split.confine_from_env() is None
        assert os.sched_getaffinity(0) == ALLOWED


def test_a_build_and_what_it_starts_run_on_the_build_cpus(tmp_path):
    # The solution's import stands for the build: it starts a child, as ninja starts nvcc.
    out = tmp_path / "cpus"
    sol = tmp_path / "sol.py"
    sol.write_text(textwrap.dedent(f"""
        import subprocess, sys
        subprocess.run([sys.executable, "-c",
                        "import os; open({str(out)!r}, 'w').write(repr(sorted(os.sched_getaffinity(0))))"], check=True)
    """))
    one = min(ALLOWED)
    got = prebuild.prebuild_all([str(sol)], jobs=1, ext_cache=str(tmp_path / "ext"), timeout_s=60, cpus={one})
    assert got[str(sol)]["status"] == "imported", got
    assert out.read_text() == repr([one])


@pytest.mark.parametrize("launch", ["forkserver", "spawn"])
def test_an_evaluation_worker_runs_on_the_evaluation_cpus(launch, monkeypatch):
    pytest.importorskip("torch", reason="the probe imports torch")
    from ucutlass_harness import worker
    monkeypatch.setenv("UCUTLASS_FORKSERVER", "1" if launch == "forkserver" else "0")
    one = min(ALLOWED)
    r = worker.run_task({"kind": "fake", "action": "probe"}, 120, {cpu_split.ENV: str(one)})
    assert r["verdict"] == "ok" and r["worker"]["launch"] == launch, r
    assert r["cpus"] == [one]
