#!/usr/bin/env python3
"""Does every ModelNew a campaign wrote run clean under compute-sanitizer?

    python3 bench/sanitize_written.py OPT_DIR [OPT_DIR ...] [--tool memcheck ...] [--budget-s 540]
                                      [--per-solution-s 120] [--only NAME ...] [--out FILE_OR_DIR]
                                      [--shard K/N] [--done RESULT_JSON ...] [--prebuild-jobs 4]
                                      [--harness-arg=ARG ...]

For each campaign folder (an `ucutlass optimize -o` folder), each problem's written `modelnew.py` runs
under `python3 -m ucutlass_harness sanitize` (ucutlass_harness/sanitize.py: the harness's construction,
two forward calls, PyTorch's caching allocator off), its extension found in the folder's
torch_extensions where the campaign built it, or built there ahead of its run (--prebuild-jobs at a time,
outside the sanitizer, while earlier solutions run: under it, a build takes the run's seconds). The harness's trials judge outputs; this judges the
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
from ucutlass_harness import prebuild  # noqa: E402  (standard library only)
from ucutlass_harness.sanitize import TOOLS  # noqa: E402


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


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sanitize_one(d, name, file, gain, done_before, builds, deadline, a, tools, python_path):
    """One problem's row: its written solution under the sanitizer (its extension built first where
    `builds` has it), an earlier record's final verdict for the same file, or why it did not run. None
    where the harness reported a usage error (printed)."""
    sol = d / name / "modelnew.py"
    row = {"problem": name, "campaign": str(d), "store_speedup": gain}
    if not sol.exists():
        return dict(row, verdict="no_solution_written")
    row["written_hash"] = verify_written.written_hash(sol)
    row["file_sha256"] = digest(sol)
    earlier = done_before.get((name, row["file_sha256"]))
    if earlier is not None:
        print(f"{name}: {earlier['verdict']} (in {earlier['record']})", flush=True)
        return dict(row, verdict=earlier["verdict"], tools=earlier.get("tools"), sanitizer=earlier.get("sanitizer"),
                    from_record=earlier["record"])
    built = builds.wait(sol)
    if built is not None:
        row["prebuild"] = {"status": built["status"], "wall_s": built["wall_s"]}  # a failure is only noted: the run says
    left = deadline - time.monotonic()
    if left < 10:
        return dict(row, verdict="not_run")
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
        return None
    print(f"{name}: {result['verdict']} ({gain:.2f}x in the store)", flush=True)
    return dict(row, verdict=result["verdict"], tools=result.get("tools"), sanitizer=result.get("sanitizer"))


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
    ap.add_argument("--prebuild-jobs", type=int, default=4,
                    help="extensions built ahead of their runs, this many at a time, outside the sanitizer (0: each "
                         "run builds its own, inside its --per-solution-s)")
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
    # An extension built under the sanitizer spends its run's seconds on nvcc (and a kill there leaves its
    # lock): v0.1's level3/008 timed out at 300 s twice so, and ran clean in 6 s once built (session 34).
    to_run = [(d / name / "modelnew.py", d / "torch_extensions") for _, d, name, _ in queue
              if (d / name / "modelnew.py").exists() and (name, digest(d / name / "modelnew.py")) not in done_before]
    rows = []
    with prebuild.BackgroundBuilds(to_run if a.prebuild_jobs > 0 else [], a.prebuild_jobs, a.per_solution_s,
                                   time.time() + a.budget_s) as builds:
        for gain, d, name, file in queue:
            row = sanitize_one(d, name, file, gain, done_before, builds, deadline, a, tools, python_path)
            if row is None:  # the harness refused its arguments: no later run would fare better
                return 2
            rows.append(row)
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
