#!/usr/bin/env python3
"""Where a candidate's time goes besides its kernels: host launch cost against GPU time, in one process.

    python3 bench/launch_overhead.py PROBLEM SOLUTION [SOLUTION ...] [--calls 200] [--out FILE|DIR]

Why: on the H200 the harness timed the bf16 8192^3 CUTLASS solution at 1.41-1.55 ms over five runs while
its kernel took 1.317 ms in every run (profiler), so 0.1-0.2 ms of each trial, and all of the run-to-run
spread, sat between the start event and the kernel. This separates the candidates of that gap, for the
reference Model (eager) and each SOLUTION's ModelNew, on the same inputs:

  host_us       CPU time of one call, no synchronization (Python, binding, CUTLASS initialize, launch)
  trial_ms      the harness's trial: L2 flushed, synchronize, event, call, event (idle GPU at the start)
  trial_warm_l2_ms  the same without the flush (what the flush itself adds)
  queued_ms     GPU time per call when calls are queued back to back (launch cost hidden behind the GPU)
  graph_ms      the same through a CUDA graph replay (no launch cost at all), where capture works
  kernel_ms     summed kernel time per call from the profiler (CUPTI)

trial_ms - queued_ms is what an idle GPU waits for the host; queued_ms - kernel_ms is gaps between kernels.
A diagnostic, not a verdict: no isolation (one process), no correctness check. Writes
bench/results/launch-overhead-<date>.json with provenance.

    python3 bench/launch_overhead.py PROBLEM SOLUTION [...] --env-ab UCUTLASS_NO_LAUNCH_CACHE=1 [--rounds 3]

An A/B of a setting the solutions read once per process (an environment variable): each round measures
everything in one process without VAR (A) and in one with it (B), the order alternating from round to
round, and reports per row the medians over rounds and B / A. Eager is measured in both, so its ratio
shows how far the two processes differ by themselves.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402

sys.path.insert(0, str(REPO / "python"))


def median(xs):
    return statistics.median(xs) if xs else None


def measure(torch, fn, inputs, calls, flush):
    sync = torch.cuda.synchronize
    with torch.no_grad():
        for _ in range(5):
            fn(*inputs)
        sync()
        host = []
        for _ in range(calls):
            t0 = time.perf_counter()
            out = fn(*inputs)
            host.append((time.perf_counter() - t0) * 1e6)
            sync()
            del out
        trial, warm = [], []
        for flushed, into in ((True, trial), (False, warm)):
            for _ in range(calls):
                if flushed:
                    flush.zero_()
                sync()
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                out = fn(*inputs)
                e.record()
                sync()
                into.append(s.elapsed_time(e))
                del out
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(calls):
            fn(*inputs)
        e.record()
        sync()
        queued = s.elapsed_time(e) / calls
        graph = None
        try:
            g = torch.cuda.CUDAGraph()
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                fn(*inputs)
            torch.cuda.current_stream().wait_stream(side)
            with torch.cuda.graph(g):
                fn(*inputs)
            g.replay()
            sync()
            s.record()
            for _ in range(calls):
                g.replay()
            e.record()
            sync()
            graph = s.elapsed_time(e) / calls
        except Exception as exc:  # capture is not allowed for some code (host syncs, allocations)
            graph = f"{type(exc).__name__}: {str(exc)[:200]}"
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                fn(*inputs)
            sync()
        from ucutlass_harness import kernels
        kernel_us = sum(ev.time_range.elapsed_us() for ev in prof.events()
                        if ev.device_type == torch.autograd.DeviceType.CUDA and kernels.classify(ev.name) != "ignored")
    return {"host_us": median(host), "host_us_p90": sorted(host)[int(0.9 * len(host))], "trial_ms": median(trial),
            "trial_ms_min": min(trial), "trial_ms_max": max(trial), "trial_warm_l2_ms": median(warm), "queued_ms": queued, "graph_ms": graph,
            "kernel_ms": kernel_us / 1e3 / 10}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("problem")
    ap.add_argument("solutions", nargs="+")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    ap.add_argument("--env-ab", metavar="VAR=VALUE", help="A/B: each round one process without VAR, one with it")
    ap.add_argument("--rounds", type=int, default=3, help="--env-ab rounds")
    ap.add_argument("--rows-json", help=argparse.SUPPRESS)  # one process of an A/B: its rows, no record
    args = ap.parse_args()
    if args.env_ab:
        return env_ab(args)
    import torch
    from ucutlass_harness import evaluate, problem
    started = provenance.now()
    device = torch.device("cuda")
    prob = problem.load_module(args.problem, "problem")
    torch.manual_seed(42)
    inputs = evaluate.make_inputs(prob, 42, "problem", device)
    flush = evaluate.l2_flush_buffer(device)
    rows = {"eager": measure(torch, prob.Model(*prob.get_init_inputs()).to(device), inputs, args.calls, flush)}
    for path in args.solutions:
        mod = problem.load_module(path, "solution")
        torch.manual_seed(42)
        model = mod.ModelNew(*prob.get_init_inputs()).to(device)
        rows[path] = measure(torch, model, inputs, args.calls, flush)
    if args.rows_json:
        Path(args.rows_json).write_text(json.dumps(rows))
        return 0
    for name, r in rows.items():
        graph = f"{r['graph_ms']:.4f}" if isinstance(r["graph_ms"], float) else "n/a"
        print(f"{Path(name).name[:40]:40s} host {r['host_us']:8.1f} us  trial {r['trial_ms']:.4f} ms  "
              f"warm-L2 {r['trial_warm_l2_ms']:.4f} ms  queued {r['queued_ms']:.4f} ms  graph {graph} ms  kernels {r['kernel_ms']:.4f} ms")
    doc = {"format": "ucutlass-bench-launch-overhead", "version": 1, "date": started.isoformat(),
           **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
           "driver": provenance.driver_version(), "gpu": provenance.gpu_name(), "torch": torch.__version__,
           "problem": args.problem, "calls": args.calls, "results": rows}
    provenance.write_result(args.out, "launch-overhead", started, doc, indent=2)
    return 0


AB_FIELDS = ("host_us", "trial_ms", "queued_ms", "kernel_ms")


def env_ab(args):
    """Rounds of one process without the variable and one with it; medians over rounds and B / A."""
    var, sep, value = args.env_ab.partition("=")
    if not var or not sep:
        print(f"--env-ab {args.env_ab!r}: expected VAR=VALUE", file=sys.stderr)
        return 2
    started = provenance.now()
    runs = {"A": [], "B": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for side in (("A", "B") if r % 2 == 0 else ("B", "A")):
                env = {k: v for k, v in os.environ.items() if k != var}
                if side == "B":
                    env[var] = value
                out = Path(tmp) / f"{side}{r}.json"
                cmd = [sys.executable, __file__, args.problem, *args.solutions, "--calls", str(args.calls),
                       "--rows-json", str(out)]
                done = subprocess.run(cmd, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    print(f"round {r} {side}: exit {done.returncode}\n{done.stderr[-2000:]}", file=sys.stderr)
                    return 1
                runs[side].append(json.loads(out.read_text()))
    rows = {}
    for name in runs["A"][0]:
        row = {}
        for side in ("A", "B"):
            row[side] = {f: median([run[name][f] for run in runs[side] if isinstance(run[name].get(f), float)])
                         for f in AB_FIELDS}
        row["b_over_a"] = {f: row["B"][f] / row["A"][f] for f in AB_FIELDS if row["A"][f] and row["B"][f]}
        rows[name] = row
        print(f"{Path(name).name[:40]:40s} host {row['A']['host_us']:7.1f} -> {row['B']['host_us']:7.1f} us  "
              f"trial {row['A']['trial_ms']:.4f} -> {row['B']['trial_ms']:.4f} ms  "
              f"(B/A {row['b_over_a'].get('trial_ms', float('nan')):.3f})  kernels {row['A']['kernel_ms']:.4f} ms")
    doc = {"format": "ucutlass-bench-launch-overhead-ab", "version": 1, "date": started.isoformat(),
           **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
           "driver": provenance.driver_version(), "gpu": provenance.gpu_name(), "problem": args.problem,
           "calls": args.calls, "rounds": args.rounds, "a": f"without {var}", "b": args.env_ab,
           "results": rows, "runs": runs}
    provenance.write_result(args.out, "launch-overhead-ab", started, doc, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
