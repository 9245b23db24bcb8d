#!/usr/bin/env python3
"""Does every ModelNew a campaign wrote run clean under compute-sanitizer?

    python3 bench/sanitize_written.py OPT_DIR [OPT_DIR ...] [--tool memcheck ...] [--budget-s 540]
                                      [--per-solution-s 120] [--only NAME ...] [--out FILE_OR_DIR]
                                      [--shard K/N] [--done RESULT_JSON ...] [--harness-arg=ARG ...]

For each campaign folder (an `ucutlass optimize -o` folder), each problem's written `modelnew.py` runs
under `python3 -m ucutlass_harness sanitize` (ucutlass_harness/sanitize.py: the harness's construction,
two forward calls, PyTorch's caching allocator off), its extension found in the folder's
torch_extensions where the campaign built it. The harness's trials judge outputs; this judges the
memory the kernels touched (gaming pattern 14 of shared/facts/kernelbench.md: a kernel that reads past
its buffers can pass on what the reference left there).

Solutions run one after another, wins first (fastest speedup over eager in the store first, since a
win is what a gamed kernel would inflate), each given --per-solution-s or what is left of --budget-s;
those the budget does not reach are listed as not_run, never as clean. Writes
bench/results/sanitize-written-<stamp>.json: per problem the verdict and each tool's errors and first
report lines; overall the verdict counts and whether every solution run was clean.

--shard K/N takes every N-th solution of that order from the K-th (0-based): N runs side by side on one
GPU (memcheck's cost is the host's, and a fresh machine builds each extension inside its run, so N shards
build N at a time). --done FILE (repeatable) takes an earlier record's verdict for a solution whose
written modelnew.py is the same file (its sha256) where that verdict is final (clean, errors,
candidate_failed, tool_failed); a timeout or not_run is run again. So a call cut off by its budget is
followed by one that runs only the rest, on the machine that built their extensions.
"""
import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import time

import provenance
import verify_written
from ucutlass_cli import REPO

sys.path.insert(0, str(REPO / "python"))
from ucutlass_harness.sanitize import TOOLS  # noqa: E402  (standard library only)


FINAL = ("clean", "errors", "candidate_failed", "tool_failed")


def shard(text):
    k, sep, n = text.partition("/")
    if not sep or not k.isdigit() or not n.isdigit() or not 0 <= int(k) < int(n):
        raise argparse.ArgumentTypeError(f"{text!r}: write K/N with 0 <= K < N, e.g. 0/4")
    return int(k), int(n)


def final_verdicts(records):
    """(problem, file_sha256) -> its row, for each final verdict in earlier records (the last record
    naming a solution wins), with the record's file name under "record". Keyed on the file's digest, not
    the program hash in its header: a ModelNew written again by newer code is another file to check."""
    found = {}
    for path in map(pathlib.Path, records):
        doc = json.loads(path.read_text())
        if doc.get("bench") != "sanitize_written":
            raise SystemExit(f"sanitize_written: --done {path}: not a sanitize_written record")
        for r in doc["rows"]:
            if r["verdict"] in FINAL and r.get("file_sha256"):
                found[(r["problem"], r["file_sha256"])] = dict(r, record=path.name)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("opt_dirs", nargs="+")
    ap.add_argument("--tool", action="append", choices=TOOLS, help="repeatable (default memcheck)")
    ap.add_argument("--budget-s", type=float, default=540.0, help="seconds for every solution together")
    ap.add_argument("--per-solution-s", type=float, default=120.0)
    ap.add_argument("--only", action="append", help="problem name (repeatable): these alone")
    ap.add_argument("--harness-arg", action="append", default=[],
                    help="one flag for `ucutlass_harness sanitize` (e.g. --harness-arg=--sanitizer=PATH)")
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    ap.add_argument("--shard", type=shard, default=(0, 1), help="K/N: every N-th solution from the K-th (0-based)")
    ap.add_argument("--done", action="append", default=[], help="an earlier record whose final verdicts stand")
    a = ap.parse_args()
    done_before = final_verdicts(a.done)
    tools = a.tool or ["memcheck"]
    started = provenance.now()
    deadline = time.monotonic() + a.budget_s
    queue = []
    for d in map(pathlib.Path, a.opt_dirs):
        problems, best = verify_written.campaign_rows(d)
        for name, file, _, eager_ms in problems:
            if a.only and name not in a.only:
                continue
            gain = eager_ms / best[name][1] if name in best and eager_ms else 0.0
            queue.append((gain, d, name, file))
    queue.sort(key=lambda q: (-q[0], q[2]))
    queue = queue[a.shard[0]::a.shard[1]]
    python_path = os.pathsep.join(filter(None, [str(REPO / "python"), os.environ.get("PYTHONPATH")]))
    rows = []
    for gain, d, name, file in queue:
        sol = d / name / "modelnew.py"
        row = {"problem": name, "campaign": str(d), "store_speedup": gain}
        if not sol.exists():
            rows.append(dict(row, verdict="no_solution_written"))
            continue
        row["written_hash"] = verify_written.written_hash(sol)
        row["file_sha256"] = hashlib.sha256(sol.read_bytes()).hexdigest()
        earlier = done_before.get((name, row["file_sha256"]))
        if earlier is not None:
            rows.append(dict(row, verdict=earlier["verdict"], tools=earlier.get("tools"), sanitizer=earlier.get("sanitizer"),
                             from_record=earlier["record"]))
            print(f"{name}: {earlier['verdict']} (in {earlier['record']})", flush=True)
            continue
        left = deadline - time.monotonic()
        if left < 10:
            rows.append(dict(row, verdict="not_run"))
            continue
        timeout = min(a.per_solution_s, left)
        cmd = [sys.executable, "-m", "ucutlass_harness", "sanitize", str(verify_written.problem_path(file, d)), str(sol),
               "--timeout", str(timeout), "--ext-cache", str(d / "torch_extensions"), "--json"]
        cmd += [f"--tool={t}" for t in tools] + a.harness_arg
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": python_path},
                                  timeout=timeout + 60)
            result = json.loads(done.stdout)
        except subprocess.TimeoutExpired:  # the harness outlived its own timeout: recorded, the rest go on
            result = {"verdict": "harness_failed", "stderr_tail": f"no result {timeout + 60:.0f} s after it started"}
        except json.JSONDecodeError:
            result = {"verdict": "harness_failed", "stderr_tail": done.stderr[-2000:]}
        if result.get("format") == "ucutlass-error":
            print(f"sanitize_written: {result['error']}", file=sys.stderr)
            return 2
        row.update(verdict=result["verdict"], tools=result.get("tools"), sanitizer=result.get("sanitizer"))
        rows.append(row)
        print(f"{name}: {row['verdict']} ({gain:.2f}x in the store)", flush=True)
    verdicts = {}
    for r in rows:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    ran = [r for r in rows if r["verdict"] not in ("no_solution_written", "not_run")]
    doc = {"bench": "sanitize_written", "date": started.isoformat(), **provenance.command(), "git": provenance.git_state(),
           "host": provenance.host(), "gpu": provenance.gpu_name(), "driver": provenance.driver_version(),
           "tools": tools, "harness_args": a.harness_arg, "shard": f"{a.shard[0]}/{a.shard[1]}", "done_records": a.done, "budget_s": a.budget_s, "per_solution_s": a.per_solution_s, "problems": len(rows),
           "run": len(ran), "verdicts": verdicts, "every_run_clean": bool(ran) and all(r["verdict"] == "clean" for r in ran),
           "rows": rows}
    print(f"{len(ran)} of {len(rows)} problems run under {', '.join(tools)}; verdicts {verdicts}")
    provenance.write_result(a.out, "sanitize-written", started, doc)
    return 0 if doc["every_run_clean"] else 3


if __name__ == "__main__":
    sys.exit(main())
