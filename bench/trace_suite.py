#!/usr/bin/env python3
"""Traces every problem of a suite with `ucutlass trace` on this machine (no GPU needed) and records it.

    python3 bench/trace_suite.py [DIR ...] [--ucutlass build/ucutlass] [--jobs N] [--out FILE|DIR]

Each problem is traced by its own `ucutlass trace --json` process; the record lists, per problem,
whether the tracer succeeded, the op count, the ATen ops, the seconds taken and the error if any, and
is written to bench/results/trace-suite-<date>.json with provenance. Exit 1 if any problem failed.
"""

import argparse
import collections
import concurrent.futures
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402


def trace(ucutlass, problem):
    t0 = time.monotonic()
    proc = subprocess.run([ucutlass, "trace", "--json", str(problem)], capture_output=True, text=True)
    rec = {"problem": str(problem.relative_to(REPO)) if problem.is_relative_to(REPO) else str(problem),
           "ok": proc.returncode == 0, "seconds": round(time.monotonic() - t0, 2)}
    if proc.returncode == 0:
        graph = json.loads(proc.stdout)
        ops = collections.Counter(n["op"] for n in graph.get("nodes", []))
        rec.update(nodes=len(graph.get("nodes", [])), tensors=len(graph.get("tensors", [])), ops=dict(ops))
    else:
        try:
            rec["error"] = json.loads(proc.stdout).get("error")
        except json.JSONDecodeError:
            rec["error"] = (proc.stderr or proc.stdout)[-2000:]
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*", default=[str(REPO / "problems")])
    ap.add_argument("--ucutlass", default=str(REPO / "build" / "ucutlass"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    args = ap.parse_args()
    started = provenance.now()
    problems = sorted(p for d in args.dirs for p in Path(d).resolve().rglob("*.py") if p.name[0].isdigit())
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        records = list(pool.map(lambda p: trace(args.ucutlass, p), problems))
    failed = [r for r in records if not r["ok"]]
    doc = {"format": "ucutlass-bench-trace-suite", "version": 1, "date": started.isoformat(),
           **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
           "problems": len(records), "traced": len(records) - len(failed), "failed": len(failed),
           "records": records}
    out = provenance.result_path(args.out, "trace-suite", started)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    for r in failed:
        print(f"FAILED {r['problem']}: {str(r.get('error'))[:300]}")
    print(f"{doc['traced']} of {doc['problems']} problems traced; wrote {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
