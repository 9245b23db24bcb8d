#!/usr/bin/env python3
"""Where a campaign call's time went, round by round: how long each harness batch ran, how much of it
the GPU spent evaluating, and how long it ran with no build left (the re-measurements' quiet tail and
the last evaluations), read from the call's returned optimize folder.

    python3 bench/call_timeline.py RESULTS_TGZ_OR_FOLDER [--out FILE_OR_DIR]

RESULTS_TGZ_OR_FOLDER: a device call's results.tgz (bench/device_parallel.sh; every GPU stream's
optimize_out.tgz inside is read), an optimize_out.tgz, or an optimize -o folder. Per round
(evals/round_<n>_<pid>): its pairs, the span from its pairs file to its summary, the evaluations' own
wall time (the GPU's busy time on a one-GPU call), and the seconds after the last evaluation that
started beside a build. Times come from the files' modification times, which the tarballs keep.

Why: with builds beside the evaluations, the cores and the GPU bound a call in turn; this says which,
so a change to rounds, margins or waits is measured and not guessed (session 19: 169 s of GPU in a
440 s call). Writes bench/results/call-timeline-<stamp>.json with provenance.
"""
import argparse
import json
import os
import pathlib
import sys
import tarfile
import tempfile

import provenance


def runs_of(folder):
    """{pid: [(round number, path)]} of an optimize folder's harness batches (evals/round_<n>_<pid>), one
    entry per optimize process: a folder resumed on a warm machine holds the earlier calls' rounds too."""
    runs = {}
    for d in (pathlib.Path(folder) / "evals").glob("round_*"):
        parts = d.name.split("_")
        if len(parts) == 3 and parts[1].isdigit() and (d / "summary.json").exists() and (d / "pairs.json").exists():
            runs.setdefault(parts[2], []).append((int(parts[1]), d))
    return {pid: sorted(rounds) for pid, rounds in runs.items()}


def round_timeline(d):
    """One round's figures from its pairs, summary and result files."""
    summary = json.loads((d / "summary.json").read_text())
    start = os.path.getmtime(d / "pairs.json")
    end = os.path.getmtime(d / "summary.json")
    evals = []
    for rec in summary.get("results", []):
        name = rec.get("result_file")
        if not name or not (d / name).exists():
            continue
        result = json.loads((d / name).read_text())
        evals.append({"done_s": os.path.getmtime(d / name) - start,
                      "wall_s": (result.get("worker") or {}).get("wall_s") or 0.0,
                      "builds": rec.get("concurrent_builds")})
    busy = sum(e["wall_s"] for e in evals)
    beside = [e for e in evals if (e["builds"] or 0) > 0]
    # A result written beside builds ends no later than the builds' own end, near enough: the quiet
    # tail runs from the last such result to the summary.
    last_beside = max((e["done_s"] for e in beside), default=0.0)
    span = end - start
    return {"pairs": len(summary.get("results", [])), "evaluated": len(evals),
            "not_run": summary.get("verdicts", {}).get("not_run", 0), "span_s": span, "gpu_busy_s": busy,
            "gpu_busy_share": busy / span if span > 0 else 0.0, "quiet_tail_s": span - last_beside if beside else span,
            "first_result_s": min((e["done_s"] for e in evals), default=None)}


def folder_timeline(folder):
    """Each optimize run of the folder (oldest first): its rounds and their totals."""
    runs = []
    for pid, rounds in runs_of(folder).items():
        rows = [{"round": n, **round_timeline(d)} for n, d in rounds]
        span = sum(r["span_s"] for r in rows)
        busy = sum(r["gpu_busy_s"] for r in rows)
        runs.append({"folder": pathlib.Path(folder).name, "pid": pid,
                     "started": os.path.getmtime(rounds[0][1] / "pairs.json"), "rounds": rows,
                     "total": {"rounds": len(rows), "evaluated": sum(r["evaluated"] for r in rows), "span_s": span,
                               "gpu_busy_s": busy, "gpu_busy_share": busy / span if span > 0 else 0.0,
                               "quiet_tail_s": sum(r["quiet_tail_s"] for r in rows)}})
    return sorted(runs, key=lambda r: r["started"])


def optimize_folders(path, tmp):
    """The optimize -o folders a results.tgz, an optimize_out.tgz or a folder holds."""
    path = pathlib.Path(path)
    if path.is_dir():
        return [path] if (path / "evals").is_dir() else sorted({p.parent for p in path.glob("*/evals")})
    with tarfile.open(path) as t:
        t.extractall(tmp, filter="data")
    inner = sorted(pathlib.Path(tmp).glob("**/optimize_out.tgz"))
    for i, tgz in enumerate(inner):
        with tarfile.open(tgz) as t:
            t.extractall(pathlib.Path(tmp) / f"out{i}", filter="data")
    return sorted({p.parent for p in pathlib.Path(tmp).glob("**/evals")})


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", help="results.tgz, optimize_out.tgz or an optimize -o folder")
    ap.add_argument("--out", default="bench/results", help="result file or folder (default bench/results)")
    a = ap.parse_args(argv)
    if not os.path.exists(a.source):
        print(f"call_timeline: {a.source}: no such file or folder", file=sys.stderr)
        return 2
    started = provenance.now()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            folders = optimize_folders(a.source, tmp)
        except tarfile.TarError as e:
            print(f"call_timeline: {a.source}: not a tarball or optimize folder ({e})", file=sys.stderr)
            return 2
        if not folders:
            print(f"call_timeline: {a.source}: no optimize folder with harness rounds (evals/round_*)", file=sys.stderr)
            return 2
        timelines = [run for f in folders for run in folder_timeline(f)]
    for t in timelines:
        del t["started"]  # a file time of the machine that ran it; the rounds' spans are what is compared
        print(f"{t['folder']} (optimize pid {t['pid']}): {'round':>5} {'pairs':>5} {'span s':>7} {'GPU s':>6} {'GPU %':>5} {'quiet s':>7}")
        for r in t["rounds"]:
            print(f"{'':{len(t['folder']) + len(t['pid']) + 15}}  {r['round']:5d} {r['pairs']:5d} {r['span_s']:7.0f} {r['gpu_busy_s']:6.0f} "
                  f"{100 * r['gpu_busy_share']:5.0f} {r['quiet_tail_s']:7.0f}")
        tot = t["total"]
        print(f"{'':{len(t['folder']) + len(t['pid']) + 15}}  {'all':>5} {tot['evaluated']:5d} {tot['span_s']:7.0f} {tot['gpu_busy_s']:6.0f} "
              f"{100 * tot['gpu_busy_share']:5.0f} {tot['quiet_tail_s']:7.0f}")
    doc = {"bench": "call-timeline", "date": started.isoformat(), **provenance.command(), "git": provenance.git_state(),
           "source": a.source, "runs": timelines}
    provenance.write_result(a.out, "call-timeline", started, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
