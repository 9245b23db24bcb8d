#!/usr/bin/env python3
"""How many of a campaign's attempts differ from an earlier attempt of their problem only in knobs
CUTLASS's SM90 tile scheduler takes at run time (raster order, swizzle), so that with those knobs passed
at run time they would reuse an earlier build instead of a new one (~50 s of a core on the device).

    python3 bench/runtime_knob_twins.py STORE [STORE ...] [--out FILE_OR_DIR]

An attempt's config text names its knobs (`along_m`, `along_n`, `swizzle N`); two attempts whose texts
match once those are taken out compile the same kernel. Writes bench/results/runtime-knob-twins-<stamp>.json
with provenance. No GPU.
"""
import argparse
import re
import sqlite3
import sys

import provenance
import ucutlass_cli

RUNTIME_KNOBS = re.compile(r" along_[mn](?: swizzle \d+)?")


def build_key(config):
    """The config text without its runtime-only knobs: the kernel a build compiles."""
    return RUNTIME_KNOBS.sub("", config)


def twins(store):
    """(attempts, twins): the store's attempts, and those whose build an earlier attempt of the same
    problem already compiled, save for runtime knobs."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    seen, total, twin = set(), 0, 0
    for problem, config in db.execute("SELECT problem, config FROM attempts ORDER BY problem, seq"):
        total += 1
        key = (problem, build_key(config))
        twin += key in seen
        seen.add(key)
    db.close()
    return total, twin


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stores", nargs="+")
    ap.add_argument("--out", default=str(ucutlass_cli.REPO / "bench" / "results"))
    args = ap.parse_args(argv)
    started = provenance.now()
    per_store = []
    for store in args.stores:
        total, twin = twins(store)
        per_store.append({"store": store, "attempts": total, "runtime_knob_twins": twin})
        print(f"{store}: {twin} of {total} attempts differ from an earlier one only in raster/swizzle")
    total = sum(s["attempts"] for s in per_store)
    twin = sum(s["runtime_knob_twins"] for s in per_store)
    print(f"all: {twin} of {total} ({100 * twin / total if total else 0:.1f} %)")
    provenance.write_result(args.out, "runtime-knob-twins", started,
                            {"bench": "runtime-knob-twins", "date": started.isoformat(), **provenance.command(),
                             "git": provenance.git_state(), "stores": per_store, "attempts": total,
                             "runtime_knob_twins": twin})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
