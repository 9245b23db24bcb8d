"""bench/provenance.py: where bench results are written."""
import datetime
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import provenance  # noqa: E402


def test_result_path_names_a_stamped_file_in_a_folder_or_keeps_a_file(tmp_path):
    t = datetime.datetime(2026, 11, 29, 23, 15, 0)
    assert provenance.result_path(tmp_path / "new", "sol-violations", t) == tmp_path / "new" / "sol-violations-2026-11-29-231500.json"
    assert (tmp_path / "new").is_dir()
    assert provenance.result_path(tmp_path / "a" / "x.json", "any", t) == tmp_path / "a" / "x.json"
    assert (tmp_path / "a").is_dir()


def test_a_stamped_result_never_replaces_one_of_the_same_second(tmp_path):
    t = datetime.datetime(2026, 12, 2, 14, 35, 33)
    first = provenance.result_path(tmp_path, "replay", t)
    first.write_text("{}")
    second = provenance.result_path(tmp_path, "replay", t)
    assert second == tmp_path / "replay-2026-12-02-143533-2.json"
    second.write_text("{}")
    assert provenance.result_path(tmp_path, "replay", t).name == "replay-2026-12-02-143533-3.json"


def test_a_launchers_commit_and_its_tree_check_reach_the_record(tmp_path, monkeypatch):
    # A tree without .git (the device's copy): the commit comes from the launcher, and whether the tree
    # matched it from device_unpack.sh's digest check (unset: nobody checked).
    monkeypatch.setattr(provenance, "REPO", tmp_path)
    monkeypatch.setenv("UCUTLASS_GIT_COMMIT", "abc123")
    for flag, dirty in (("1", True), ("0", False), (None, None)):
        if flag is None:
            monkeypatch.delenv("UCUTLASS_GIT_DIRTY", raising=False)
        else:
            monkeypatch.setenv("UCUTLASS_GIT_DIRTY", flag)
        assert provenance.git_state() == {"commit": "abc123", "dirty": dirty, "source": "UCUTLASS_GIT_COMMIT"}


def test_a_warm_machines_follow_up_reads_the_commit_from_the_unpacked_tree(tmp_path, monkeypatch):
    # A later call on the warm machine skips the unpack, so nothing exported the commit; the unpack left it
    # in the tree's .device-env.
    monkeypatch.setattr(provenance, "REPO", tmp_path)
    monkeypatch.delenv("UCUTLASS_GIT_COMMIT", raising=False)
    monkeypatch.delenv("UCUTLASS_GIT_DIRTY", raising=False)
    assert provenance.git_state() == {"commit": None, "dirty": None, "source": None}
    (tmp_path / ".device-env").write_text("export UCUTLASS_GIT_COMMIT=5dade53 UCUTLASS_GIT_DIRTY=0 "
                                          "UCUTLASS_CUTLASS_DIR=/x PYTHONUNBUFFERED=1\n")
    assert provenance.git_state() == {"commit": "5dade53", "dirty": False, "source": ".device-env"}
    monkeypatch.setenv("UCUTLASS_GIT_COMMIT", "abc123")  # an exported commit comes first
    assert provenance.git_state()["commit"] == "abc123"


def test_a_rewritten_store_marks_the_data_not_the_code_dirty(tmp_path, monkeypatch):
    import subprocess
    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True,
                       capture_output=True)
    (tmp_path / "bench" / "results" / "campaigns").mkdir(parents=True)
    (tmp_path / "bench" / "results" / "campaigns" / "s.sqlite").write_text("old")
    (tmp_path / "tool.py").write_text("x = 1\n")
    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "c")
    monkeypatch.setattr(provenance, "REPO", tmp_path)
    state = provenance.git_state()
    assert (state["dirty"], state["data_modified"]) == (False, False)
    (tmp_path / "bench" / "results" / "campaigns" / "s.sqlite").write_text("new")
    state = provenance.git_state()
    assert (state["dirty"], state["data_modified"]) == (False, True)
    (tmp_path / "tool.py").write_text("x = 2\n")
    state = provenance.git_state()
    assert (state["dirty"], state["data_modified"]) == (True, True)
