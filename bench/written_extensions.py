#!/usr/bin/env python3
"""The device-built extensions of a campaign's written solutions still owed a re-measurement, kept
from one device call to the next so the re-measurement does not build them again.

A written solution is re-measured in a round after the one that wrote it (cmd_optimize.cpp), built
again from its source: free on the machine that built it (the same source is the same extension, and
ninja finds it up to date), a whole build on the next call's fresh machine when the round that wrote
it was its call's last. Session 25's kernelbench half-b call rebuilt 14 such programs, a third of its
first round's 42 builds; its GPU sat idle 60 s waiting for them. Every device call runs in the same
checkout path (/work/main, bench/device_pack.sh) with the same PyTorch and CUTLASS headers, so a
device-built extension folder carried back lands where its build.ninja and .ninja_deps expect it and
ninja rebuilds nothing; where anything differs (a header newer than the objects, another command
line), ninja builds it again, which is all this saves, never a wrong program: each extension is
named by its program's hash (_UCUTLASS_HASH in the ModelNew), so one name is one source.

    python3 bench/written_extensions.py pack OPT_DIR OUT_TAR_XZ        # device, after the optimize step
    python3 bench/written_extensions.py keep TAR_XZ CACHE_DIR STORE OPT_DIR  # here, collect
    python3 bench/written_extensions.py stage CACHE_DIR STORE OPT_DIR DEST  # here, prepare

pack: each problem folder's written ModelNew whose program the folder's store has not re-measured
(no confirmations row), if built under OPT_DIR/torch_extensions: its ucutlass_<hash> and
ucutlass_src_<hash> folders (no lock files), newest first, up to RAW_CAP_BYTES raw (the results come
back in one file of at most 16 MiB; xz takes an extension to about a ninth).
keep: unpacks such a tarball into CACHE_DIR (build/devcache/<opt folder>, git-ignored), then drops
every program that is no written solution of OPT_DIR (the opt folder the call returned) still owed a
re-measurement by STORE. stage: copies the cached programs of OPT_DIR's written solutions STORE still
owes a re-measurement into DEST (the opt folder's device_extensions, which bench/device_steps.sh moves
into torch_extensions before the optimize step).
"""
import argparse
import pathlib
import shutil
import sqlite3
import sys
import tarfile

RAW_CAP_BYTES = 64 << 20
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python"))
from ucutlass_harness.prebuild import EXTENSION_HASH as HASH, extension_folders as folders  # noqa: E402,F401


def confirmed(store):
    """{(problem, program hash)} the store has re-measured, whatever the verdict: a program that failed
    its re-measurement is not measured again either."""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return set(con.execute("SELECT problem, hash FROM confirmations"))
    finally:
        con.close()


def written_programs(opt_dir):
    """{problem: program hash} of each problem folder's written ModelNew."""
    out = {}
    for modelnew in sorted(pathlib.Path(opt_dir).glob("*/modelnew.py")):
        if m := HASH.search(modelnew.read_text(errors="replace")):
            out[modelnew.parent.name] = m.group(1)
    return out


def owed(opt_dir, store):
    """Program hashes of the written solutions the store still owes a re-measurement."""
    done = confirmed(store)
    return {h for problem, h in written_programs(opt_dir).items() if (problem, h) not in done}


def _size(path):
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _carried(info):
    """No lock file (a stale one hangs every later import), and each mtime floored to the second: tarfile
    writes a fraction as a float, which lands up to a few hundred ns later than it was, and ninja then
    takes an object newer than its recorded deps for stale (`stored deps info out of date`). Floored,
    no file is newer than it was and none older than what it was built from (bench/device_pack.sh's GNU
    tar floors the same way)."""
    if pathlib.PurePosixPath(info.name).name == "lock":
        return None
    info.mtime = int(info.mtime)
    return info


def pack(opt_dir, out, cap=RAW_CAP_BYTES):
    """Writes OUT (tar.xz) with the owed programs built under OPT_DIR/torch_extensions; returns the
    hashes packed, newest build first."""
    ext = pathlib.Path(opt_dir) / "torch_extensions"
    built = []
    for h in owed(opt_dir, pathlib.Path(opt_dir) / "campaign.sqlite"):
        lib = ext / folders(h)[0] / (folders(h)[0] + ".so")
        if lib.is_file() and (ext / folders(h)[1]).is_dir():
            built.append((lib.stat().st_mtime, h))
    packed, total = [], 0
    with tarfile.open(out, "w:xz", preset=3) as t:
        for _, h in sorted(built, reverse=True):
            size = sum(_size(ext / f) for f in folders(h))
            if total + size > cap:
                continue
            for f in folders(h):
                t.add(ext / f, arcname=f, filter=_carried)
            packed.append(h)
            total += size
    return packed


def prune(cache_dir, store, opt_dir):
    """Drops the cached programs that are no written solution of OPT_DIR still owed a re-measurement by
    the store (re-measured since, or replaced by a faster one): the cache holds what the next call needs."""
    cache = pathlib.Path(cache_dir)
    keep_hashes = owed(opt_dir, store)
    for d in cache.glob("ucutlass_*"):
        if d.name.removeprefix("ucutlass_src_").removeprefix("ucutlass_") not in keep_hashes:
            shutil.rmtree(d)


def keep(tarball, cache_dir, store, opt_dir):
    """Unpacks a pack()ed tarball into CACHE_DIR (mtimes kept: ninja compares them), then prunes it by the
    store and the opt folder the same call returned; returns the hashes the cache holds."""
    cache = pathlib.Path(cache_dir)
    cache.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as t:
        for name in {pathlib.PurePosixPath(m.name).parts[0] for m in t.getmembers()}:
            shutil.rmtree(cache / name, ignore_errors=True)  # a program's folder comes whole or not at all
        t.extractall(cache, filter="data")
    prune(cache, store, opt_dir)
    return sorted(d.name.removeprefix("ucutlass_") for d in cache.glob("ucutlass_*")
                  if not d.name.startswith("ucutlass_src_"))


def stage(cache_dir, store, opt_dir, dest):
    """Copies into DEST the cached programs of OPT_DIR's written solutions the store still owes a
    re-measurement; returns their hashes."""
    cache, dest = pathlib.Path(cache_dir), pathlib.Path(dest)
    staged = []
    for h in sorted(owed(opt_dir, store)):
        if all((cache / f).is_dir() for f in folders(h)):
            for f in folders(h):
                shutil.copytree(cache / f, dest / f, symlinks=True, dirs_exist_ok=True)  # copy2: mtimes kept
            staged.append(h)
    return staged


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    p = sub.add_parser("pack")
    p.add_argument("opt_dir")
    p.add_argument("out")
    k = sub.add_parser("keep")
    k.add_argument("tarball")
    k.add_argument("cache_dir")
    k.add_argument("store")
    k.add_argument("opt_dir")
    s = sub.add_parser("stage")
    s.add_argument("cache_dir")
    s.add_argument("store")
    s.add_argument("opt_dir")
    s.add_argument("dest")
    a = ap.parse_args(argv)
    if a.verb == "pack":
        got = pack(a.opt_dir, a.out)
        print(f"written_extensions: {len(got)} written program(s) owed a re-measurement packed into {a.out}")
    elif a.verb == "keep":
        got = keep(a.tarball, a.cache_dir, a.store, a.opt_dir)
        print(f"written_extensions: {len(got)} program(s) kept in {a.cache_dir}")
    else:
        got = stage(a.cache_dir, a.store, a.opt_dir, a.dest)
        print(f"written_extensions: {len(got)} device-built program(s) staged in {a.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
