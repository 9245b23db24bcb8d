"""bench/written_extensions.py: the written solutions' device-built extensions, packed, kept and staged
for the next call, and ninja finding a carried-back extension up to date (a real PyTorch build, no GPU)."""
import os
import sqlite3
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import written_extensions  # noqa: E402


def _store(path, confirmed):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE confirmations (id INTEGER PRIMARY KEY, problem TEXT NOT NULL, hash TEXT NOT NULL, "
                "verdict TEXT NOT NULL, time_ms REAL NOT NULL, timing_min_ms REAL NOT NULL, result_json TEXT NOT NULL, "
                "wall_s REAL NOT NULL, UNIQUE (problem, hash))")
    for problem, h in confirmed:
        con.execute("INSERT INTO confirmations (problem, hash, verdict, time_ms, timing_min_ms, result_json, wall_s) "
                    "VALUES (?, ?, 'ok', 1.0, 1000.0, '{}', 4.0)", (problem, h))
    con.commit()
    con.close()


def _written(opt, problem, h):
    (opt / problem).mkdir(parents=True, exist_ok=True)
    (opt / problem / "modelnew.py").write_text(f'import torch\n_UCUTLASS_HASH = "{h}"\n')


def _built(opt, h, mtime):
    lib, src = (opt / "torch_extensions" / f for f in written_extensions.folders(h))
    lib.mkdir(parents=True)
    src.mkdir(parents=True)
    (src / f"ucutlass_{h}_capi.cu").write_text("// source\n")
    (lib / f"ucutlass_{h}.so").write_bytes(b"\x7fELF" + bytes(64))
    (lib / "lock").write_text("")  # a build's lock: never carried (a stale one hangs every later import)
    for f in list(lib.iterdir()) + list(src.iterdir()):
        os.utime(f, (mtime, mtime))


def test_only_written_programs_still_owed_a_remeasurement_travel_and_come_back_with_their_mtimes(tmp_path):
    opt = tmp_path / "opt_kb_a"
    _written(opt, "level1_001", "aaaa")  # owed and built: travels
    _written(opt, "level1_002", "bbbb")  # re-measured already
    _written(opt, "level1_003", "cccc")  # owed but built on no machine of this call
    _built(opt, "aaaa", 1_700_000_000)
    _built(opt, "bbbb", 1_700_000_100)
    _built(opt, "dddd", 1_700_000_200)  # an attempt's extension, not the written solution
    _store(opt / "campaign.sqlite", [("level1_002", "bbbb"), ("level1_009", "aaaa")])  # another problem's row is not this one's
    out = tmp_path / "written_extensions.tar.xz"
    assert written_extensions.pack(opt, out) == ["aaaa"]
    with tarfile.open(out) as t:
        assert sorted(t.getnames()) == ["ucutlass_aaaa", "ucutlass_aaaa/ucutlass_aaaa.so", "ucutlass_src_aaaa",
                                        "ucutlass_src_aaaa/ucutlass_aaaa_capi.cu"]

    cache = tmp_path / "devcache" / "opt_kb_a"
    (cache / "ucutlass_eeee").mkdir(parents=True)  # an earlier call's program, since re-measured or replaced
    assert written_extensions.keep(out, cache, opt / "campaign.sqlite", opt) == ["aaaa"]
    assert not (cache / "ucutlass_eeee").exists()
    assert os.path.getmtime(cache / "ucutlass_aaaa" / "ucutlass_aaaa.so") == 1_700_000_000

    dest = tmp_path / "prepared" / "device_extensions"
    assert written_extensions.stage(cache, opt / "campaign.sqlite", opt, dest) == ["aaaa"]
    assert os.path.getmtime(dest / "ucutlass_src_aaaa" / "ucutlass_aaaa_capi.cu") == 1_700_000_000
    # Re-measured since: the next prepare stages nothing and the next keep drops it.
    _store(tmp_path / "later.sqlite", [("level1_001", "aaaa")])
    assert written_extensions.stage(cache, tmp_path / "later.sqlite", opt, tmp_path / "none") == []
    written_extensions.prune(cache, tmp_path / "later.sqlite", opt)
    assert list(cache.iterdir()) == []


def test_the_cap_leaves_out_the_oldest_builds(tmp_path):
    opt = tmp_path / "opt"
    for i, h in enumerate(("aaaa", "bbbb", "cccc")):
        _written(opt, f"p{i}", h)
        _built(opt, h, 1_700_000_000 + i)
    _store(opt / "campaign.sqlite", [])
    one = sum(f.stat().st_size for d in written_extensions.folders("aaaa")
              for f in (opt / "torch_extensions" / d).rglob("*") if f.name != "lock")
    assert written_extensions.pack(opt, tmp_path / "x.tar.xz", cap=2 * one + 40) == ["cccc", "bbbb"]


BUILD = """
import os, sys
from torch.utils.cpp_extension import load
ext = os.environ["TORCH_EXTENSIONS_DIR"]
src = os.path.join(ext, "ucutlass_src_abcd", "m.cpp")
os.makedirs(os.path.dirname(src), exist_ok=True)
text = '#include <Python.h>\\nstatic struct PyModuleDef d = {PyModuleDef_HEAD_INIT, "ucutlass_abcd", 0, -1, 0};\\n' \\
       'PyMODINIT_FUNC PyInit_ucutlass_abcd(void) { return PyModule_Create(&d); }\\n'
if not os.path.exists(src) or open(src).read() != text:  # as a ModelNew writes its sources: only when they differ
    open(src, "w").write(text)
load(name="ucutlass_abcd", sources=[src], verbose=True)
"""


def test_a_carried_back_extension_is_up_to_date_for_ninja(tmp_path):
    pytest.importorskip("torch")
    opt = tmp_path / "opt"
    ext = opt / "torch_extensions"
    env = dict(os.environ, TORCH_EXTENSIONS_DIR=str(ext))
    first = subprocess.run([sys.executable, "-c", BUILD], env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    lib = ext / "ucutlass_abcd" / "ucutlass_abcd.so"
    _written(opt, "level1_001", "abcd")
    _store(opt / "campaign.sqlite", [])
    assert written_extensions.pack(opt, tmp_path / "w.tar.xz") == ["abcd"]
    # The next machine: the same path, nothing built there; the cache's copy staged and moved in.
    cache = tmp_path / "devcache"
    written_extensions.keep(tmp_path / "w.tar.xz", cache, opt / "campaign.sqlite", opt)
    subprocess.run(["rm", "-rf", str(ext)], check=True)
    written_extensions.stage(cache, opt / "campaign.sqlite", opt, ext)
    staged_at = lib.stat().st_mtime_ns  # the build's, floored to the second
    again = subprocess.run([sys.executable, "-c", BUILD], env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr[-2000:]
    assert lib.stat().st_mtime_ns == staged_at  # ninja rebuilt nothing
    assert "ninja: no work to do" in again.stdout + again.stderr
