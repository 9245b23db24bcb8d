#!/usr/bin/env python3
"""How much of each written solution's measured time is not its kernels: the harness's trial time beside
the summed kernel time its profiler saw, from a campaign store's re-measurements.

    python3 bench/host_share.py STORE [STORE ...] [--out FILE_OR_DIR]

Why: the harness times a call from an idle, synchronized GPU (as KernelBench does), so the host work
before the first launch, and between launches, counts. For each re-measured written solution (the
store's confirmations, the result JSON the harness wrote) this reports the trial median (`time_ms`), the
kernels' time per call (`timing.kernel_only_candidate.kernel_ms_per_call`, CUPTI over 5 calls), the host
time of one call (`timing.candidate.host.median_ms`), the gap (trial minus kernels) and its share of the
trial; overall the median share and the geomean of trial / kernels. The kernels are profiled back to back
without the trial's L2 flush, so the gap holds the cold-L2 cost besides the host's
(bench/launch_overhead.py separates the two). Set before and after a change to the
emitted host code (the launch cache, docs/codegen.md), it shows what the change took off each trial.
Writes bench/results/host-share-<stamp>.json with provenance.
"""
import argparse
import json
import math
import sqlite3
import statistics
import sys

import provenance


def rows_of(store):
    """One row per passing re-measurement that recorded its kernel time."""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        found = con.execute("SELECT problem, hash, time_ms, result_json FROM confirmations "
                            "WHERE verdict = 'ok' AND time_ms > 0 ORDER BY problem").fetchall()
    except sqlite3.OperationalError:  # a store from before re-measurements
        found = []
    con.close()
    out = []
    for problem, program, trial_ms, text in found:
        try:
            result = json.loads(text)
        except ValueError:
            continue
        timing = result.get("timing") or {}
        kernel_ms = (timing.get("kernel_only_candidate") or {}).get("kernel_ms_per_call")
        if not kernel_ms:
            continue
        host_ms = ((timing.get("candidate") or {}).get("host") or {}).get("median_ms")
        out.append({"store": str(store), "problem": problem, "hash": program, "trial_ms": trial_ms,
                    "kernel_ms": kernel_ms, "host_ms": host_ms, "gap_ms": trial_ms - kernel_ms,
                    "gap_share": (trial_ms - kernel_ms) / trial_ms,
                    "solution_sha256": (result.get("solution") or {}).get("sha256"),
                    "concurrent_builds": result.get("concurrent_builds")})
    return out


def summary(rows):
    if not rows:
        return {"programs": 0}
    return {"programs": len(rows), "median_gap_share": statistics.median(r["gap_share"] for r in rows),
            "median_gap_ms": statistics.median(r["gap_ms"] for r in rows),
            "geomean_trial_over_kernels": math.exp(statistics.fmean(math.log(r["trial_ms"] / r["kernel_ms"])
                                                                    for r in rows))}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stores", nargs="+")
    ap.add_argument("--out", default=str(provenance.REPO / "bench" / "results"))
    args = ap.parse_args(argv)
    started = provenance.now()
    rows = [r for store in args.stores for r in rows_of(store)]
    for r in rows:
        host = f"{r['host_ms']:.3f}" if r["host_ms"] is not None else "  -  "
        print(f"{r['problem'][:44]:44s} trial {r['trial_ms']:.3f}  kernels {r['kernel_ms']:.3f}  host {host}  "
              f"gap {r['gap_ms']:.3f} ms ({100 * r['gap_share']:.0f} %)")
    s = summary(rows)
    if s["programs"]:
        print(f"{s['programs']} re-measured programs: gap (trial - kernels) median {s['median_gap_ms']:.3f} ms, "
              f"{100 * s['median_gap_share']:.0f} % of the trial; trial / kernels geomean {s['geomean_trial_over_kernels']:.3f}")
    else:
        print("no re-measurement with a kernel time in these stores")
    doc = {"format": "ucutlass-bench-host-share", "version": 1, "date": started.isoformat(), **provenance.command(),
           "git": provenance.git_state(), "stores": args.stores, "summary": s, "rows": rows}
    provenance.write_result(args.out, "host-share", started, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
