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
