#!/usr/bin/env python3
"""Does every ModelNew a campaign wrote pass the harness, and is it the program the campaign measured?

    python3 bench/verify_written.py OPT_DIR [OPT_DIR ...] --profile P [--out FILE_OR_DIR]
                                    [--budget-s S] [--harness-arg=ARG ...]

For each campaign folder (an `ucutlass optimize -o` folder: campaign.sqlite, one folder per problem):
every problem's written `modelnew.py` is evaluated against its problem file in one harness batch (fresh
workers, the profile's tolerance, KernelBench's static rules among the signals, timing with eager beside
it, the store's SOL bound as the below-SOL check), and set beside the store's fastest verified attempt:
whether the written file's program hash (its first line) is that attempt's. A problem without a written
solution counts 1x, as in the campaign's suite figure.

Writes bench/results/verify-written-<stamp>.json: per problem the verdict, speedup over eager, the
written and best hashes; overall the verdict counts, whether every written solution passed (verdict ok),
and the suite geomean of the written solutions measured here (unsolved 1x). Problem files are found as
the store names them, from the working directory, else from beside the campaign folder.
`--harness-arg` passes one flag to `python3 -m ucutlass_harness batch` (e.g. --harness-arg=--devices=all).
`--budget-s S`: no build or evaluation starts after S seconds (the batch's --deadline); what was evaluated
by then is written, the rest "not_run", and the record says it is incomplete (exit 4 where nothing that ran
failed). Without it, a step killed at its time limit wrote nothing: session 32's two verify steps on an
H100 had evaluated 29 of 35 and 28 of 33 solutions, every one ok, and left no record.
"""
import argparse
import json
import math
import os
import pathlib
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

import provenance
import suite_latest
from ucutlass_cli import REPO

HEADER = re.compile(r"program ([0-9a-f]{16})")


def campaign_rows(opt_dir):
    """(problem rows, fastest verified attempt per problem) of a campaign folder's store."""
    con = sqlite3.connect(f"file:{opt_dir / 'campaign.sqlite'}?mode=ro", uri=True)
    problems = con.execute("SELECT name, file, sol_ms, eager_ms FROM problems ORDER BY name").fetchall()
    failed = suite_latest.failed_remeasures(con)  # programs that failed their re-measurement are not written
    best = {}
    for name, h, ms in con.execute("SELECT problem, hash, time_ms FROM attempts WHERE verdict = 'ok' AND time_ms > 0"):
        if (name, h) not in failed and (name not in best or ms < best[name][1]):
            best[name] = (h, ms)
    con.close()
    return problems, best


def problem_path(recorded, opt_dir, suite=REPO / "problems"):
    """Absolute: the harness batch reads relative paths from its pairs file's folder. A campaign prepared on
    another machine names its problems in a copy of the suite, `<campaign>.problems/level?/NAME.py`
    (bench/campaign_call.py prepare); where that copy is missing here, the suite's own file of that
    level and name is the one (the copy is made from it)."""
    p = pathlib.Path(recorded)
    if p.exists():
        return p.resolve()
    if not p.is_absolute():
        beside = opt_dir.parent / p
        if beside.exists():
            return beside.resolve()
    parts = p.parts
    for i, part in enumerate(parts):
        if part.endswith(".problems") and i + 1 < len(parts) and (suite / pathlib.Path(*parts[i + 1:])).exists():
            return (suite / pathlib.Path(*parts[i + 1:])).resolve()
    return p.resolve()


def written_hash(path):
    with open(path, encoding="utf-8") as f:
        m = HEADER.search(f.readline())
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("opt_dirs", nargs="+")
    ap.add_argument("--profile", required=True)
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    ap.add_argument("--harness-arg", action="append", default=[])
    ap.add_argument("--budget-s", type=float, default=None,
                    help="seconds after which no build or evaluation starts; the record is written with what ran")
    a = ap.parse_args()
    started = provenance.now()
    harness_args = list(a.harness_arg)
    if a.budget_s is not None:
        if a.budget_s <= 0:
            print(f"verify_written: --budget-s {a.budget_s}: give a positive number of seconds", file=sys.stderr)
            return 2
        harness_args.append(f"--deadline={time.time() + a.budget_s:.3f}")
    rows, pairs = [], []
    for d in map(pathlib.Path, a.opt_dirs):
        problems, best = campaign_rows(d)
        for name, file, sol_ms, eager_ms in problems:
            sol = d / name / "modelnew.py"
            row = {"problem": name, "campaign": str(d), "problem_file": str(problem_path(file, d)),
                   "store_best_hash": best.get(name, (None, None))[0], "store_best_ms": best.get(name, (None, None))[1]}
            if not sol.exists():
                row["verdict"] = "no_solution_written"
            else:
                row["solution"] = str(sol)
                row["written_hash"] = written_hash(sol)
                row["written_is_store_best"] = row["written_hash"] is not None and row["written_hash"] == row["store_best_hash"]
                pair = {"problem": row["problem_file"], "solution": str(sol.resolve()), "baselines": "eager"}
                if sol_ms and sol_ms > 0:
                    pair["sol_ms"] = sol_ms
                row["pair"] = len(pairs)
                pairs.append(pair)
            rows.append(row)
    with tempfile.TemporaryDirectory() as tmp:
        pairs_file = pathlib.Path(tmp) / "pairs.json"
        pairs_file.write_text(json.dumps(pairs))
        out_dir = pathlib.Path(tmp) / "evals"
        cmd = [sys.executable, "-m", "ucutlass_harness", "batch", str(pairs_file), "--out-dir", str(out_dir),
               "--profile", a.profile, *harness_args]
        python_path = os.pathsep.join(filter(None, [str(REPO / "python"), os.environ.get("PYTHONPATH")]))
        done = subprocess.run(cmd, env={**os.environ, "PYTHONPATH": python_path}, text=True)
        if done.returncode != 0:
            print(f"verify_written: the harness batch failed ({done.returncode})", file=sys.stderr)
            return 1
        summary = json.loads((out_dir / "summary.json").read_text())
        for row in rows:
            if "pair" not in row:
                continue
            rec = summary["results"][row.pop("pair")]
            row["verdict"] = rec.get("verdict")
            row["median_ms"] = rec.get("median_ms")
            row["speedup_vs_eager"] = rec.get("speedup_vs_eager")
            result_file = rec.get("result_file")
            if result_file:
                result = json.loads((out_dir / result_file).read_text())
                row["fired_signals"] = [s["name"] for s in result.get("signals", []) if s.get("fired")]
    written = [r for r in rows if "solution" in r]
    evaluated = [r for r in written if r["verdict"] != "not_run"]  # --budget-s spent before the rest started
    verdicts = {}
    for r in rows:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    # The suite geomean only over a complete run: an unevaluated solution is no 1x.
    complete = len(evaluated) == len(written)
    logs = [math.log(r["speedup_vs_eager"]) if r.get("verdict") == "ok" and r.get("speedup_vs_eager") else 0.0
            for r in rows] if complete else []
    every_evaluated_passed = all(r["verdict"] == "ok" for r in evaluated)
    doc = {"bench": "verify_written", "date": started.isoformat(), **provenance.command(), "git": provenance.git_state(),
           "host": provenance.host(), "gpu": provenance.gpu_name(), "driver": provenance.driver_version(),
           "profile": a.profile, "harness_args": harness_args, "budget_s": a.budget_s, "problems": len(rows),
           "written": len(written), "evaluated": len(evaluated), "complete": complete, "verdicts": verdicts,
           "every_written_passed": complete and every_evaluated_passed,
           "every_evaluated_passed": every_evaluated_passed,
           "written_is_store_best": sum(1 for r in written if r["written_is_store_best"]),
           "suite_geomean_vs_eager": math.exp(sum(logs) / len(logs)) if logs else None, "rows": rows}
    geomean = f"{doc['suite_geomean_vs_eager']:.3f}x" if logs else "none (incomplete)" if rows else "none (no problems)"
    print(f"{len(written)} written of {len(rows)} problems, {len(evaluated)} evaluated; verdicts {verdicts}; every "
          f"evaluated passed: {doc['every_evaluated_passed']}; written = store's best on {doc['written_is_store_best']}; "
          f"suite geomean {geomean}")
    provenance.write_result(a.out, "verify-written", started, doc)
    if not every_evaluated_passed:
        return 3
    return 0 if complete else 4


if __name__ == "__main__":
    sys.exit(main())
