#!/usr/bin/env python3
"""Checks that no measured time of a suite problem beats its fused Speed-of-Light bound (issue 4).

    python3 bench/sol_violations.py BASELINES.json [BASELINES.json ...] [--store campaign.sqlite] [--gpu H200]
            [--candidates RESULT.json ...] [--graphs tests/optimize/graphs] [--problems problems] [--ucutlass build/ucutlass] [--out FILE|DIR]

BASELINES.json is what `python3 -m ucutlass_harness baselines DIR --out FILE` writes, KernelBench's format:
{"<level>": {"<file>.py": {"mean": ms, "median": ms, ...}}, "<level>_compile": {...}} (the second key holds
torch.compile's times). The optional store is a campaign's run store (`ucutlass optimize --store`): every
verified attempt (verdict ok) is checked too, and the fastest eager / torch.compile time its evals measured.
Times are KernelBench's "mean" for baselines and the harness's median for attempts. --candidates adds
correct candidates measured outside a campaign: bench/repeatability.py records (every run with verdict ok)
and the harness's own eval results (`ucutlass eval --json`, verdict ok); a candidate of a problem outside the
suite (no graph, no problem file) is listed under "outside_suite", not checked.

Each time goes through `ucutlass sol GRAPH --time MS --json` (the cached traced graph
<graphs>/<level>_<stem>.json when present, else the problem file, which needs torch to trace); the record lists
per problem t_SOL, every time, its ratio t / t_SOL and the verdict. It is written to
bench/results/sol-violations-<date>.json with provenance. Exit 1 if any verdict is `too-fast`, else 2 on an
error (a problem without a graph or file, a failing `ucutlass sol`), else 0.
"""

import argparse
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402


def measurements_from_baselines(doc):
    """{problem name: [(source, ms)]} with problem names <level>_<stem>, as `ucutlass optimize` names them."""
    out = {}
    for key, table in doc.items():
        if not isinstance(table, dict):
            continue
        level, source = (key[: -len("_compile")], "torch.compile") if key.endswith("_compile") else (key, "eager")
        for rel, entry in table.items():
            if isinstance(entry, dict) and isinstance(entry.get("mean"), (int, float)) and entry["mean"] > 0:
                out.setdefault(f"{level}_{Path(rel).stem}", []).append((source, float(entry["mean"])))
    return out


def measurements_from_store(path):
    """{problem: [(source, ms)]}: every verified attempt, plus the fastest eager / compile time the evals saw."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {}
    rows = db.execute("SELECT problem, seq, hash, verdict, time_ms, eager_ms, compile_ms FROM attempts ORDER BY problem, seq")
    fastest = {}
    for problem, seq, h, verdict, t, eager, compile_ms in rows:
        if verdict == "ok" and t and t > 0:
            out.setdefault(problem, []).append((f"attempt {seq} ({h})", float(t)))
        for source, ms in (("eager (store)", eager), ("torch.compile (store)", compile_ms)):
            if ms and ms > 0 and ms < fastest.get((problem, source), float("inf")):
                fastest[(problem, source)] = float(ms)
    for (problem, source), ms in sorted(fastest.items()):
        out.setdefault(problem, []).append((source, ms))
    return out


def suite_name(problem_path):
    """problems/<level>/<stem>.py -> <level>_<stem>, the name `ucutlass optimize` gives it."""
    p = Path(problem_path)
    return f"{p.parent.name}_{p.stem}"


def measurements_from_candidates(doc):
    """{problem: [(source, ms)]} from a repeatability record or a harness eval result; correct runs only."""
    out = {}
    if doc.get("format") == "ucutlass-bench-repeatability":
        name = suite_name(doc["problem"])
        for run in doc.get("runs") or []:
            if run.get("verdict") == "ok" and isinstance(run.get("median_ms"), (int, float)):
                out.setdefault(name, []).append((f"candidate {Path(doc['solution']).name} (repeatability run "
                                                 f"{run['run']})", float(run["median_ms"])))
    elif doc.get("format") == "ucutlass-eval-result" and doc.get("verdict") == "ok":
        problem = doc.get("problem")
        path = problem.get("file") if isinstance(problem, dict) else problem
        ms = ((doc.get("timing") or {}).get("candidate") or {}).get("median_ms")
        if path and isinstance(ms, (int, float)):
            solution = doc.get("solution")
            label = solution.get("file") if isinstance(solution, dict) else solution
            out.setdefault(suite_name(path), []).append((f"candidate {Path(str(label)).name}", float(ms)))
    return out


def problem_input(name, graphs, problems):
    graph = Path(graphs) / f"{name}.json"
    if graph.is_file():
        return graph
    level, _, stem = name.partition("_")
    py = Path(problems) / level / f"{stem}.py"
    return py if py.is_file() else None


def sol_check(ucutlass, source, ms, gpu):
    cmd = [str(ucutlass), "sol", str(source), "--time", repr(ms), "--json"] + (["--gpu", gpu] if gpu else [])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None, (proc.stderr or proc.stdout)[-1000:]
    if proc.returncode != 0 or "measurement" not in doc:
        return None, doc.get("error") or proc.stderr[-1000:]
    return doc, None


def check_problem(ucutlass, name, times, args):
    rec = {"problem": name, "checks": []}
    source = problem_input(name, args.graphs, args.problems)
    if source is None:
        rec["error"] = f"no graph {name}.json under {args.graphs} and no problem file under {args.problems}"
        return rec
    rec["input"] = str(source.relative_to(REPO)) if source.resolve().is_relative_to(REPO) else str(source)
    for what, ms in times:
        doc, err = sol_check(ucutlass, source, ms, args.gpu)
        if err:
            rec["error"] = f"ucutlass sol --time {ms}: {err}"
            return rec
        rec["sol_ms"] = doc["sol_ms"]
        rec["profile"] = (doc.get("profile") or {}).get("name")
        m = doc["measurement"]
        rec["checks"].append({"what": what, "time_ms": ms, "ratio": ms / doc["sol_ms"] if doc["sol_ms"] else None,
                              "verdict": m.get("verdict")})
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("baselines", nargs="+", help="baseline JSON(s) from `python3 -m ucutlass_harness baselines`")
    ap.add_argument("--store", help="campaign run store (SQLite) of `ucutlass optimize`")
    ap.add_argument("--candidates", nargs="*", default=[],
                    help="repeatability records or harness eval results of correct candidates")
    ap.add_argument("--gpu", help="GPU profile for the bound (default: ucutlass sol's: local GPU, else H200)")
    ap.add_argument("--graphs", default=str(REPO / "tests" / "optimize" / "graphs"))
    ap.add_argument("--problems", default=str(REPO / "problems"))
    ap.add_argument("--ucutlass", default=str(REPO / "build" / "ucutlass"))
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    args = ap.parse_args()
    started = provenance.now()

    times = {}
    for path in args.baselines:
        for problem, found in measurements_from_baselines(json.loads(Path(path).read_text())).items():
            times.setdefault(problem, []).extend(found)
    if args.store:
        for problem, found in measurements_from_store(args.store).items():
            times.setdefault(problem, []).extend(found)
    outside = []
    for path in args.candidates:
        for problem, found in measurements_from_candidates(json.loads(Path(path).read_text())).items():
            if problem_input(problem, args.graphs, args.problems) is None:
                outside.append({"problem": problem, "file": path, "times": len(found)})
                continue
            times.setdefault(problem, []).extend(found)
    records = [check_problem(args.ucutlass, name, found, args) for name, found in sorted(times.items())]
    too_fast = [(r["problem"], c) for r in records for c in r["checks"] if c["verdict"] == "too-fast"]
    errors = [r for r in records if "error" in r]
    doc = {"format": "ucutlass-bench-sol-violations", "version": 1, "date": started.isoformat(),
           **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
           "baselines": args.baselines, "store": args.store, "candidates": args.candidates,
           "outside_suite": outside, "gpu": args.gpu,
           "problems": len(records), "checks": sum(len(r["checks"]) for r in records),
           "violations": len(too_fast), "errors": len(errors), "records": records}
    out = provenance.result_path(args.out, "sol-violations", started)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    for problem, c in too_fast:
        print(f"VIOLATION {problem}: {c['what']} {c['time_ms']} ms is {c['ratio']:.3f} x t_SOL (too-fast)")
    for r in errors:
        print(f"ERROR {r['problem']}: {r['error']}")
    print(f"{doc['checks']} time(s) of {doc['problems']} problem(s) checked: {len(too_fast)} violation(s), "
          f"{len(errors)} error(s); wrote {out}")
    return 1 if too_fast else 2 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
