"""prebuild.py: solutions imported in parallel, each in its own process, with the shared extension dir."""
import os
import textwrap
import time

from ucutlass_harness import prebuild


def _write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


def test_imports_each_solution_once_with_the_shared_extension_dir(tmp_path):
    marker = tmp_path / "seen"
    ok = _write(tmp_path, "ok.py", f"""
        import os
        with open({str(marker)!r}, "a") as f:
            f.write(os.environ["TORCH_EXTENSIONS_DIR"] + "\\n")
    """)
    crash = _write(tmp_path, "crash.py", "import os\nos.abort()\n")
    hang = _write(tmp_path, "hang.py", "import time\ntime.sleep(60)\n")
    ext = str(tmp_path / "ext")
    got = prebuild.prebuild_all([ok, crash, hang, ok], jobs=3, ext_cache=ext, timeout_s=5)
    assert set(got) == {ok, crash, hang}
    assert got[ok]["status"] == "imported"
    assert got[crash]["status"].startswith("failed (exit -")  # killed by SIGABRT: noted, never raised
    assert got[hang]["status"] == "timeout after 5 s"
    assert got[hang]["wall_s"] < 30
    assert marker.read_text().splitlines() == [os.path.abspath(ext)]  # once, despite being listed twice


def test_missing_files_are_left_to_the_evaluation(tmp_path):
    assert prebuild.prebuild_all([str(tmp_path / "nope.py")], jobs=2, ext_cache=str(tmp_path / "ext")) == {}


def test_a_lock_older_than_a_build_may_take_is_cleared(tmp_path):
    ext = tmp_path / "ext"
    for name, age in (("stale", 1000), ("live", 10)):
        (ext / name).mkdir(parents=True)
        lock = ext / name / "lock"
        lock.write_text("")
        t = time.time() - age
        os.utime(lock, (t, t))
    assert prebuild.clear_stale_locks(str(ext), timeout_s=600) == ["stale"]
    assert not (ext / "stale" / "lock").exists() and (ext / "live" / "lock").exists()


def test_a_killed_run_releases_its_own_extensions_build_lock_only(tmp_path):
    solution = tmp_path / "modelnew.py"
    solution.write_text('import torch\n_UCUTLASS_HASH = "663b57f2219b30e8"\n')
    own, other = tmp_path / "ext" / "ucutlass_663b57f2219b30e8", tmp_path / "ext" / "ucutlass_0123456789abcdef"
    for d in (own, other):
        d.mkdir(parents=True)
        (d / "lock").write_text("")
    assert prebuild.release_killed_build(str(tmp_path / "ext"), str(solution)) == str(own / "lock")
    assert not (own / "lock").exists() and (other / "lock").exists()  # another run's build may hold that one
    assert prebuild.release_killed_build(str(tmp_path / "ext"), str(solution)) is None  # nothing left to release
    (tmp_path / "plain.py").write_text("class ModelNew: pass\n")  # not ucutlass's: its extension is unknown
    assert prebuild.release_killed_build(str(tmp_path / "ext"), str(tmp_path / "plain.py")) is None


def test_background_builds_are_waited_on_in_the_callers_order(tmp_path):
    slow = _write(tmp_path, "slow.py", "import time\ntime.sleep(2)\n")
    quick = _write(tmp_path, "quick.py", "x = 1\n")
    ext = str(tmp_path / "ext")
    with prebuild.BackgroundBuilds([(slow, ext), (quick, ext)], jobs=2, timeout_s=30) as builds:
        assert builds.wait(quick)["status"] == "imported"
        assert builds.wait(slow)["status"] == "imported" and builds.wait(slow)["wall_s"] >= 2
        assert builds.wait(str(tmp_path / "not-given.py")) is None


def test_no_background_build_starts_or_runs_past_the_deadline(tmp_path):
    hang = _write(tmp_path, "hang.py", "import time\ntime.sleep(60)\n")
    late = _write(tmp_path, "late.py", "x = 1\n")
    ext = str(tmp_path / "ext")
    start = time.time()
    with prebuild.BackgroundBuilds([(hang, ext), (late, ext)], jobs=1, timeout_s=600, deadline=start + 5) as builds:
        assert builds.wait(hang)["status"].startswith("timeout after")
        assert builds.wait(late)["status"] == "not_started"
    assert time.time() - start < 30


def test_a_build_killed_at_its_timeout_leaves_no_lock_for_the_evaluation(tmp_path):
    solution = _write(tmp_path, "modelnew.py", '_UCUTLASS_HASH = "663b57f2219b30e8"\nimport time\ntime.sleep(60)\n')
    lock = tmp_path / "ext" / "ucutlass_663b57f2219b30e8" / "lock"
    lock.parent.mkdir(parents=True)
    lock.write_text("")  # as torch leaves it when the build it guards is killed
    got = prebuild.prebuild_all([solution], jobs=1, ext_cache=str(tmp_path / "ext"), timeout_s=3)
    assert got[solution]["status"] == "timeout after 3 s"
    assert got[solution]["released_build_lock"] == str(lock) and not lock.exists()

