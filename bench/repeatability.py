#!/usr/bin/env python3
"""Repeatability of the harness's timing: one solution evaluated in N separate runs.

    python3 bench/repeatability.py PROBLEM SOLUTION [--runs 5] [--out FILE|DIR] [eval flags...]

Each run is a fresh `python3 -m ucutlass_harness eval` process (new CUDA context, fresh inputs, cold
L2 before every trial). Reports each run's median and the spread of the medians,
(max - min) / median of medians, and writes bench/results/repeatability-<date>.json with provenance.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("problem")
    ap.add_argument("solution")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    ap.add_argument("--timeout", type=float, default=300)
    args, eval_flags = ap.parse_known_args()
    started = provenance.now()
    env = dict(os.environ, PYTHONPATH=str(REPO / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    runs = []
    out = provenance.result_path(args.out, "repeatability", started)

    def write(summary):
        # Written after every run, so a run killed at its time limit keeps what it measured.
        out_doc = {"format": "ucutlass-bench-repeatability", "version": 1, "date": started.isoformat(),
                   **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
                   "driver": provenance.driver_version(), "problem": args.problem, "solution": args.solution,
                   "eval_flags": eval_flags, "runs": runs, "summary": summary}
        out.write_text(json.dumps(out_doc, indent=2) + "\n")

    def gpu_state():
        # Clocks, power and temperature around each run: a ms-scale GEMM near the power limit runs
        # at whatever clock the GPU settles at, so these explain a run that differs.
        fields = "clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active"
        try:
            line = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader,nounits",
                                   "-i", os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0]],
                                  capture_output=True, text=True, timeout=20).stdout.strip().splitlines()
            return dict(zip(fields.split(","), (v.strip() for v in line[0].split(",")))) if line else None
        except (OSError, subprocess.TimeoutExpired):
            return None

    for i in range(args.runs):
        before = gpu_state()
        cmd = [sys.executable, "-m", "ucutlass_harness", "eval", args.problem, args.solution, "--json",
               "--baselines", "none", *eval_flags]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=args.timeout)
            result = json.loads(proc.stdout)
        except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
            runs.append({"run": i, "error": f"{type(e).__name__}: {e}"})
            write(None)
            continue
        timing = result.get("timing") or {}
        cand = timing.get("candidate") or {}
        fired = {s["name"]: s.get("detail") for s in result.get("signals") or [] if s.get("fired")}
        runs.append({"run": i, "verdict": result.get("verdict"), "median_ms": cand.get("median_ms"),
                     "stream_only_median_ms": (cand.get("stream_only") or {}).get("median_ms"),
                     "kernel_only_ms": (timing.get("kernel_only_candidate") or {}).get("kernel_ms_per_call"),
                     "spread_p90_p10": cand.get("spread"), "num_trials": cand.get("num_trials"),
                     "signals_fired": fired, "wall_s": (result.get("worker") or {}).get("wall_s"),
                     "warm_up": cand.get("warm_up"), "gpu_before": before, "gpu_after": gpu_state()})
        print(f"run {i}: verdict {runs[-1]['verdict']} median {runs[-1]['median_ms']} ms "
              f"(stream only {runs[-1]['stream_only_median_ms']}, kernels {runs[-1]['kernel_only_ms']})"
              + "".join(f"\n  {k}: {v}" for k, v in fired.items()), flush=True)
        write(None)
    medians = [r["median_ms"] for r in runs if isinstance(r.get("median_ms"), (int, float))]
    summary = None
    if medians:
        mid = statistics.median(medians)
        summary = {"runs_timed": len(medians), "median_of_medians_ms": mid, "min_ms": min(medians),
                   "max_ms": max(medians), "spread": (max(medians) - min(medians)) / mid}
        for key in ("stream_only_median_ms", "kernel_only_ms"):
            vals = [r[key] for r in runs if isinstance(r.get(key), (int, float))]
            if vals:
                summary[key.replace("_median_ms", "").replace("_ms", "") + "_spread"] = \
                    (max(vals) - min(vals)) / statistics.median(vals)
    write(summary)
    print(json.dumps(summary, indent=1))
    print(f"wrote {out}")
    return 0 if summary else 1


if __name__ == "__main__":
    sys.exit(main())
