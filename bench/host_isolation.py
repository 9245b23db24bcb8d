#!/usr/bin/env python3
"""What builds beside an evaluation do to its measured time, with and without the CPU split, side by side.

    python3 bench/host_isolation.py PROFILE PROBLEM=SOLUTION [PROBLEM=SOLUTION ...] [--rounds 1] [--out FILE|DIR]

Why: `ucutlass optimize` evaluates each attempt while the round's other extensions build (--overlap-builds).
A candidate's measured time includes the host's share of its call, so compilers on the evaluation's core
slow it down: session 18 re-measured short programs 10-33% slower than they had measured as attempts,
their host time a median of 171 us against 73 us. cpu_split.py keeps two cores per GPU for the workers
and confines the builds to the rest. This measures what that buys, per solution, in one process:

  idle    no load: what a user's quiet machine sees
  shared  one busy process per CPU beside the evaluation, anywhere (what the campaign did)
  split   the same load confined to cpu_split's build CPUs, the worker on its evaluation CPUs

The load is one process per CPU, each running --load-cmd again and again: by default a Python spin loop,
which takes cores but not caches or memory bandwidth; on the device an nvcc compile of a CUTLASS kernel,
what the campaign's builds run (up to 13 of them, ninja starting nvcc and g++ in each). Between modes the
load is stopped (SIGSTOP to each loop's session) or moved (sched_setaffinity of every process in it), so
the three modes of a solution run back to back, in a rotating order per round. Each evaluation is the harness's own (fresh worker, correctness trials, eager timed
beside the candidate in the same worker, the candidate's host time per call). The solutions must be built
already (their extensions in --ext-cache, e.g. by `python3 -m ucutlass_harness.prebuild`).

Writes bench/results/host-isolation-<date>.json with provenance: per solution and mode the candidate's
median and host median, eager's median and the speedup; overall the geomean of each mode's time over
idle's, and of its speedup.
"""
import argparse
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402

sys.path.insert(0, str(REPO / "python"))

MODES = ("idle", "shared", "split")
SPIN = f"{sys.executable} -c 'while True: pass'"


def session_pids(sid):
    """Every process in session `sid` (a load loop and the compilers it started), from /proc."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if len(fields) > 3 and int(fields[3]) == sid:
            pids.append(int(name))
    return pids


class Load:
    """`count` processes, each running `command` (a shell loop) in its own session: stopped, running
    anywhere, or confined to some CPUs. A session's processes are stopped and moved together, so a
    compiler the loop started goes where its loop goes."""

    def __init__(self, count, command):
        self.procs = [subprocess.Popen(["bash", "-c", f"while true; do {command}; done"], start_new_session=True,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(count)]
        self.stop()

    def stop(self):
        for p in self.procs:
            os.killpg(p.pid, signal.SIGSTOP)

    def run_on(self, cpus):
        for p in self.procs:
            for pid in session_pids(p.pid):
                try:
                    os.sched_setaffinity(pid, cpus)
                except OSError:
                    pass  # ended meanwhile
            os.killpg(p.pid, signal.SIGCONT)

    def close(self):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def figures(result):
    t = result.get("timing") or {}
    cand, eager = t.get("candidate") or {}, t.get("eager") or {}
    return {"verdict": result.get("verdict"), "candidate_ms": cand.get("median_ms"),
            "host_ms": (cand.get("host") or {}).get("median_ms"), "eager_ms": eager.get("median_ms"),
            "speedup_vs_eager": (result.get("speedup") or {}).get("vs_eager"), "cpus": result.get("cpu_split")}


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("profile")
    ap.add_argument("pairs", nargs="+", help="PROBLEM=SOLUTION (a built ModelNew)")
    ap.add_argument("--rounds", type=int, default=1, help="each solution's three modes this many times")
    ap.add_argument("--ext-cache", required=True, help="where the solutions' extensions were built")
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    ap.add_argument("--harness-arg", action="append", default=[], help="one more flag for the harness batch")
    ap.add_argument("--load-cmd", default=SPIN, help="what each load process runs again and again (a shell "
                    "command, e.g. an nvcc compile of a CUTLASS kernel); default a Python spin loop")
    a = ap.parse_args(argv)
    from ucutlass_harness import cli, cpu_split
    started = provenance.now()

    pairs = []
    for p in a.pairs:
        prob, sep, sol = p.partition("=")
        if not sep or not os.path.isfile(prob) or not os.path.isfile(sol):
            ap.error(f"{p}: PROBLEM=SOLUTION, both existing files")
        pairs.append((os.path.abspath(prob), os.path.abspath(sol)))
    allowed = os.sched_getaffinity(0)
    split = cpu_split.split(1)
    if split is None:
        sys.exit(f"host_isolation: {len(allowed)} CPUs are too few to split (cpu_split.py)")
    evals, builds = split
    load = Load(len(allowed), a.load_cmd)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="host_isolation_") as tmp:
            for r in range(a.rounds):
                for k, (prob, sol) in enumerate(pairs):
                    order = MODES[(k + r) % 3:] + MODES[:(k + r) % 3]  # no mode always first
                    for mode in order:
                        if mode == "idle":
                            load.stop()
                        else:
                            load.run_on(allowed if mode == "shared" else builds)
                        if mode == "split":
                            os.environ[cpu_split.ENV] = cpu_split.format_list(evals)
                        else:
                            os.environ.pop(cpu_split.ENV, None)
                        pf = Path(tmp) / f"pair_{r}_{k}_{mode}.txt"
                        pf.write_text(f"{prob} {sol}\n")
                        args = cli.build_parser().parse_args(
                            ["batch", str(pf), "--out-dir", str(Path(tmp) / f"out_{r}_{k}_{mode}"), "--backend", "cutlass",
                             "--profile", a.profile, "--baselines", "eager", "--prebuild-jobs", "0",
                             "--ext-cache", a.ext_cache] + a.harness_arg)
                        rec = cli.run_pairs([(prob, sol)], args, args.out_dir)[0]
                        with open(Path(args.out_dir) / rec["result_file"], encoding="utf-8") as f:
                            got = figures(json.load(f))
                        got.update({"problem": os.path.relpath(prob, REPO) if prob.startswith(str(REPO)) else prob,
                                    "solution": sol, "mode": mode, "round": r})
                        if mode == "split":
                            got["cpus"] = {"eval": cpu_split.format_list(evals), "load": cpu_split.format_list(builds)}
                        rows.append(got)
                        print(f"{Path(prob).stem:48s} {mode:6s} {got['verdict']:10s} cand {got['candidate_ms']} ms "
                              f"host {got['host_ms']} ms eager {got['eager_ms']} ms", file=sys.stderr, flush=True)
    finally:
        os.environ.pop(cpu_split.ENV, None)
        load.close()

    summary = {}
    for mode in MODES:
        ratio, speed, host = [], [], []
        for row in rows:
            if row["mode"] != mode or row["verdict"] != "ok":
                continue
            base = next((b for b in rows if b["mode"] == "idle" and b["solution"] == row["solution"]
                         and b["round"] == row["round"] and b["verdict"] == "ok"), None)
            if base and row["candidate_ms"] and base["candidate_ms"]:
                ratio.append(row["candidate_ms"] / base["candidate_ms"])
            speed.append(row["speedup_vs_eager"])
            host.append(row["host_ms"])
        summary[mode] = {"time_over_idle_geomean": geomean(ratio), "speedup_vs_eager_geomean": geomean(speed),
                         "host_ms_geomean": geomean(host), "evaluations_ok": len(speed)}
    print(f"{'mode':8s} {'time/idle':>10s} {'speedup':>9s} {'host ms':>9s}")
    for mode, s in summary.items():
        fmt = lambda x, spec: format(x, spec) if x is not None else "-"  # noqa: E731
        print(f"{mode:8s} {fmt(s['time_over_idle_geomean'], '10.3f')} {fmt(s['speedup_vs_eager_geomean'], '9.3f')} "
              f"{fmt(s['host_ms_geomean'], '9.4f')}")
    doc = {"format": "ucutlass-bench-host-isolation", "version": 1, "date": started.isoformat(),
           **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
           "driver": provenance.driver_version(), "gpu": provenance.gpu_name(), "profile": a.profile,
           "cpus": cpu_split.format_list(allowed),
           "split": {"eval": cpu_split.format_list(evals), "load": cpu_split.format_list(builds)},
           "load": {"processes": len(allowed), "command": a.load_cmd}, "rounds": a.rounds,
           "summary": summary, "evaluations": rows}
    provenance.write_result(a.out, "host-isolation", started, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
