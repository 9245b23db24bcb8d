#!/usr/bin/env python3
"""How much one program's measured time moves between runs: the same (problem, program hash) measured
correct in two campaign stores, or a campaign's recorded best beside a verify run of its written files.

    python3 bench/measurement_drift.py STORE_A STORE_B [--out FILE_OR_DIR]
    python3 bench/measurement_drift.py STORE --verify VERIFY_JSON [--out FILE_OR_DIR]
    python3 bench/measurement_drift.py STORE --remeasured [--out FILE_OR_DIR]

Why: a campaign keeps each problem's fastest correct attempt, one measurement each; if a measurement
moves by several percent from run to run, the fastest of many is biased low, and a suite figure read
from the stores overstates what the written solutions do when measured again. Pairs: the later over the
earlier time (STORE_B / STORE_A, or verify / store), per pair and as a geometric mean, with the spread.
--remeasured sets the store's attempts beside its own re-measurements of the written solutions
(`ucutlass optimize` records them in the store's confirmations table, timed in the harness's window),
with the summary split by whether builds were running beside the re-measurement (its result's
concurrent_builds: 0 is an idle host, as every re-measurement since session 19 waits for the builds),
and, where both results timed the kernels alone (timing.kernel_only_candidate, the profiler's kernel time
per call), into the kernels' ratio and the ratio of the rest of the window (the time outside kernels:
launches, host code, gaps). Session 26's kernelbench re-measurements: kernels within 1-3 % of their
attempts, the rest of the window 1.5-6x, so it is the host side that moved.
Writes bench/results/measurement-drift-<stamp>.json with provenance.
"""
import argparse
import json
import math
import sqlite3
import statistics
import sys

import provenance


def correct_times(store):
    """{(problem, hash): time_ms} of the store's correct attempts."""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    rows = con.execute("SELECT problem, hash, time_ms FROM attempts WHERE verdict = 'ok' AND time_ms > 0").fetchall()
    con.close()
    return {(p, h): t for p, h, t in rows}


def verify_times(path):
    """{(problem, hash): time_ms} of a bench/verify_written.py result's passing written solutions."""
    doc = json.loads(open(path, encoding="utf-8").read())
    return {(r["problem"], r["written_hash"]): r["median_ms"] for r in doc["rows"]
            if r.get("verdict") == "ok" and r.get("written_hash") and r.get("median_ms")}


def remeasured_times(store):
    """{(problem, hash): time_ms} of the store's passing re-measurements (none in a store from before them),
    {(problem, hash): builds running beside it} (None where the result does not say) and {(problem, hash):
    kernel ms per call} where the result timed the kernels alone, each result read once."""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT problem, hash, time_ms, result_json FROM confirmations "
                           "WHERE verdict = 'ok' AND time_ms > 0").fetchall()
    except sqlite3.OperationalError:
        rows = []
    con.close()
    builds, kernels = {}, {}
    for p, h, _, text in rows:
        result = parsed(text)
        builds[(p, h)] = result.get("concurrent_builds") if result else None
        if (k := kernel_ms(result)) is not None:
            kernels[(p, h)] = k
    return {(p, h): t for p, h, t, _ in rows}, builds, kernels


def parsed(result_text):
    """A harness result's JSON object, or {} for text that is none."""
    try:
        result = json.loads(result_text)
    except (ValueError, TypeError):
        return {}
    return result if isinstance(result, dict) else {}


def kernel_ms(result):
    """The kernels' own time per call in a parsed harness result (timing.kernel_only_candidate), or None."""
    k = ((result.get("timing") or {}).get("kernel_only_candidate") or {}).get("kernel_ms_per_call")
    return k if isinstance(k, (int, float)) and k > 0 else None


def attempt_kernel_times(store):
    """{(problem, hash): kernel ms per call} of the store's correct attempts whose result timed the kernels
    alone; {} for a store whose attempts keep no result_json."""
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT problem, hash, result_json FROM attempts WHERE verdict = 'ok' AND time_ms > 0").fetchall()
    except sqlite3.OperationalError:
        rows = []
    con.close()
    return {(p, h): k for p, h, text in rows if (k := kernel_ms(parsed(text))) is not None}


def split_kernels(pairs, first_kernel, second_kernel):
    """Adds each pair's kernel times and outside-kernel times where both results have them; returns the
    summaries of the kernels' ratios and of the outside-kernel ratios."""
    kernels, outside = [], []
    for x in pairs:
        key = (x["problem"], x["hash"])
        if key not in first_kernel or key not in second_kernel:
            continue
        x["first_kernel_ms"], x["second_kernel_ms"] = first_kernel[key], second_kernel[key]
        x["kernel_ratio"] = second_kernel[key] / first_kernel[key]
        kernels.append(x["kernel_ratio"])
        rest_1, rest_2 = x["first_ms"] - first_kernel[key], x["second_ms"] - second_kernel[key]
        if rest_1 > 0 and rest_2 > 0:
            x["outside_kernels_ratio"] = rest_2 / rest_1
            outside.append(x["outside_kernels_ratio"])
    return summarize(kernels), summarize(outside)


def drift(first, second):
    """The pairs measured in both, with second / first, and their summary."""
    pairs = [{"problem": p, "hash": h, "first_ms": first[(p, h)], "second_ms": second[(p, h)],
              "ratio": second[(p, h)] / first[(p, h)]} for (p, h) in sorted(first) if (p, h) in second]
    return pairs, summarize([x["ratio"] for x in pairs])


def summarize(ratios):
    summary = {"pairs": len(ratios)}
    if ratios:
        logs = [math.log(r) for r in ratios]
        summary.update({"geomean_ratio": math.exp(statistics.fmean(logs)), "min_ratio": min(ratios),
                        "max_ratio": max(ratios), "median_ratio": statistics.median(ratios),
                        "log_stdev": statistics.stdev(logs) if len(logs) > 1 else 0.0,
                        "within_5pct": sum(abs(r - 1) <= 0.05 for r in ratios) / len(ratios)})
    return summary


def line(summary):
    return (f"second / first geomean {summary['geomean_ratio']:.3f}, median {summary['median_ratio']:.3f}, "
            f"range {summary['min_ratio']:.3f}-{summary['max_ratio']:.3f}, {100 * summary['within_5pct']:.0f}% within 5%")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stores", nargs="+", help="one store with --verify, else two")
    ap.add_argument("--verify", help="a bench/verify_written.py result to set beside the store")
    ap.add_argument("--remeasured", action="store_true", help="the store's own re-measurements beside its attempts")
    ap.add_argument("--out", default="bench/results", help="result file or folder (default bench/results)")
    a = ap.parse_args(argv)
    one_store = a.verify is not None or a.remeasured
    if (a.verify is not None and a.remeasured) or one_store != (len(a.stores) == 1) or len(a.stores) > 2:
        ap.error("give two stores, or one store and --verify or --remeasured")
    started = provenance.now()
    first = correct_times(a.stores[0])
    builds, second_kernels = {}, {}
    if a.remeasured:
        second, builds, second_kernels = remeasured_times(a.stores[0])
    else:
        second = verify_times(a.verify) if a.verify else correct_times(a.stores[1])
    pairs, summary = drift(first, second)
    if a.remeasured:
        for x in pairs:
            x["concurrent_builds"] = builds.get((x["problem"], x["hash"]))
        summary["idle_host"] = summarize([x["ratio"] for x in pairs if x["concurrent_builds"] == 0])
        summary["beside_builds"] = summarize([x["ratio"] for x in pairs if (x["concurrent_builds"] or 0) > 0])
        summary["kernels"], summary["outside_kernels"] = split_kernels(pairs, attempt_kernel_times(a.stores[0]),
                                                                       second_kernels)
    doc = {"bench": "measurement-drift", "date": started.isoformat(), **provenance.command(),
           "git": provenance.git_state(), "first": a.stores[0],
           "second": a.verify or (a.stores[0] + " (re-measured)" if a.remeasured else a.stores[1]),
           "summary": summary, "pairs": pairs}
    provenance.write_result(a.out, "measurement-drift", started, doc)
    if not pairs:
        print("no program measured correct in both")
    else:
        print(f"{summary['pairs']} program(s) measured in both: {line(summary)}")
        for key, what in (("idle_host", "re-measured on an idle host"), ("beside_builds", "re-measured beside builds"),
                          ("kernels", "with the kernels timed alone in both, the kernels"),
                          ("outside_kernels", "the rest of the window (outside the kernels)")):
            if summary.get(key, {}).get("pairs"):
                print(f"  {summary[key]['pairs']} {what}: {line(summary[key])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
