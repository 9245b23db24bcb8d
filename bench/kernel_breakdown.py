#!/usr/bin/env python3
"""Where a campaign's solutions spend their time: per problem, the kernels the harness's profile saw in its
fastest verified attempt (ours and PyTorch's, ms per call), and the host gap, harness time minus kernel time,
as the median over all its verified attempts; where the harness recorded it (timing.candidate.host, since
2026-12-01), the call's own host time, which an idle GPU waits for before the first kernel.

    python3 bench/kernel_breakdown.py STORE.sqlite [PROBLEM_SUBSTRING ...]

Reads `result_json`'s timing.kernel_only_candidate from a campaign store. Ends with the median of those
per-problem gaps over the problems shown: the figures behind the cost model's per-call host constants and
layout-copy rate (src/search/cost_model.cpp).
"""
import json
import os
import sqlite3
import statistics
import sys


def verified_attempts(store, wanted):
    """{problem: [(seq, ms, config, result), ...] fastest first} of the verified attempts."""
    db = sqlite3.connect(f"file:{store}?immutable=1", uri=True)
    rows = db.execute("select problem, seq, time_ms, config, result_json from attempts where verdict = 'ok' "
                      "order by problem, time_ms").fetchall()
    db.close()
    out = {}
    for problem, seq, ms, config, result in rows:
        if not wanted or any(w in problem for w in wanted):
            out.setdefault(problem, []).append((seq, ms, config, json.loads(result)))
    return out


def kernels(result):
    return result.get("timing", {}).get("kernel_only_candidate") or {}


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if not os.path.isfile(argv[0]):
        print(f"kernel_breakdown: {argv[0]}: no such campaign store", file=sys.stderr)
        return 2
    gaps = []
    for problem, attempts in sorted(verified_attempts(argv[0], argv[1:]).items()):
        timed = [(ms, kernels(r)) for _, ms, _, r in attempts if kernels(r).get("kernel_ms_per_call")]
        if not timed:
            continue
        gap = statistics.median(ms - k["kernel_ms_per_call"] for ms, k in timed)
        gaps.append(gap)
        seq, ms, config, result = attempts[0]
        k = kernels(result)
        print(f"{problem} attempt {seq}: {ms:.4f} ms, kernels {k.get('kernel_ms_per_call', 0):.4f} ms | {config}")
        host = (result.get("timing", {}).get("candidate", {}).get("host") or {}).get("median_ms")
        print(f"    host gap {1000 * gap:.1f} us (median over {len(timed)} verified attempt(s))"
              + (f"; the call's host time {1000 * host:.1f} us" if host else ""))
        for x in k.get("per_kernel", []):
            print(f"    {x['kind']:8s} {x['ms_per_call']:.4f} ms  {x['name'][:100]}")
    if gaps:
        print(f"median host gap {1000 * statistics.median(gaps):.1f} us over {len(gaps)} problem(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
