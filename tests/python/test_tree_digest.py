"""bench/tree_digest.sh: whether a device call ran the code of the commit its results name."""
import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "tree_digest.sh"


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def checkout(tmp_path):
    repo = tmp_path / "repo"
    for rel, text in (("src/a.cpp", "int a;\n"), ("bench/results/campaigns/s.sqlite", "rows\n"),
                      ("tests/optimize/stores/t.sqlite", "rows\n"), ("README.md", "hi\n")):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    return repo


def pack(repo, dest):
    dest.mkdir(exist_ok=True)
    subprocess.run([str(SCRIPT), "write", str(dest)], cwd=repo, check=True, capture_output=True)


def check(dest, tree):
    out = subprocess.run([str(SCRIPT), "check", str(dest), str(tree)], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def copy_tree(repo, tmp_path, name):
    # What the device gets: the working tree without .git.
    tree = tmp_path / name
    shutil.copytree(repo, tree, ignore=shutil.ignore_patterns(".git"))
    return tree


def test_data_moved_out_before_packing_leaves_the_run_clean(tmp_path):
    repo = checkout(tmp_path)
    shutil.move(repo / "bench/results", tmp_path / "held-results")
    shutil.move(repo / "tests/optimize/stores", tmp_path / "held-stores")
    pack(repo, tmp_path / "carry")
    assert not (tmp_path / "carry/dirty-at-pack").exists()
    assert check(tmp_path / "carry", copy_tree(repo, tmp_path, "device")) == "0"


def test_uncommitted_code_edits_mark_the_run_dirty_though_they_travel(tmp_path):
    repo = checkout(tmp_path)
    (repo / "src/a.cpp").write_text("int a = 1;\n")
    pack(repo, tmp_path / "carry")
    assert (tmp_path / "carry/dirty-at-pack").exists()
    assert check(tmp_path / "carry", copy_tree(repo, tmp_path, "device")) == "1"


def test_code_that_differs_on_the_device_marks_the_run_dirty(tmp_path):
    repo = checkout(tmp_path)
    pack(repo, tmp_path / "carry")
    tree = copy_tree(repo, tmp_path, "device")
    assert check(tmp_path / "carry", tree) == "0"
    (tree / "src/a.cpp").write_text("int b;\n")
    assert check(tmp_path / "carry", tree) == "1"
    (tree / "src/a.cpp").unlink()
    assert check(tmp_path / "carry", tree) == "1"
