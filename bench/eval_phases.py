#!/usr/bin/env python3
"""Where a campaign's evaluations spend their time: the harness's seconds per phase (static, setup,
compile, construct, correctness, reuse, timing; a result's phase_seconds), summed per evaluation, over
the attempts of a store, or of each call of it when its call logs are given.

    python3 bench/eval_phases.py STORE [--after-id N] [--until-id M]

Prints per phase the median and mean seconds over the attempts with phase times (ids in (N, M]), and
the same for their total. A campaign resumed call by call appends attempts in id order, so a call's
attempts are an id range: `sqlite3 STORE "select max(id) from attempts"` before and after it. No GPU.
"""
import argparse
import json
import sqlite3
import statistics
import sys


def phase_table(store, after_id=0, until_id=None):
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    rows = con.execute("SELECT id, result_json FROM attempts WHERE id > ? AND (? IS NULL OR id <= ?) ORDER BY id",
                       (after_id, until_id, until_id)).fetchall()
    con.close()
    per_phase, totals = {}, []
    for _, text in rows:
        try:
            phases = json.loads(text).get("phase_seconds") or {}
        except ValueError:
            continue
        if not phases:
            continue
        for name, secs in phases.items():
            per_phase.setdefault(name, []).append(secs)
        totals.append(sum(phases.values()))
    return per_phase, totals


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store")
    ap.add_argument("--after-id", type=int, default=0)
    ap.add_argument("--until-id", type=int)
    a = ap.parse_args()
    per_phase, totals = phase_table(a.store, a.after_id, a.until_id)
    if not totals:
        print("eval_phases: no attempt with phase times in that range", file=sys.stderr)
        return 1
    print(f"{len(totals)} evaluation(s) with phase times")
    for name in sorted(per_phase, key=lambda n: -statistics.mean(per_phase[n])):
        v = per_phase[name]
        print(f"  {name:12s} median {statistics.median(v):7.3f} s   mean {statistics.mean(v):7.3f} s")
    print(f"  {'total':12s} median {statistics.median(totals):7.3f} s   mean {statistics.mean(totals):7.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
