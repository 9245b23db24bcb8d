#!/usr/bin/env python3
"""The GEMM acceptance bench: DSL kernels against PyTorch on the GPU, with verdicts.

    python3 bench/run_gemm_bench.py [--only ITEM ...] [--trials N] [--out FILE|DIR] [--prebuilt DIR]
                                    [--dry-run] [--jobs N] [--cache-dir DIR]

Steps: `ucutlass check` every program in bench/gemm_acceptance/ (a file
ITEM.VARIANT.dsl is one candidate configuration for acceptance item ITEM);
`ucutlass build --json` them, or find their libraries under --prebuilt; then,
per item, a child process (gemm_measure.py) loads the libraries with ctypes and
measures every candidate beside the PyTorch baseline. The fastest correct
candidate is the item's best; the item passes when it meets the item's
thresholds. Writes bench/results/gemm-<date>.json (every figure, the command,
commit and versions) and prints a table last.

Exit status: 0 when the bench ran (whatever the verdicts), 1 on a harness error
(the compiler's JSON unreadable, a library missing, a measuring process
crashed), 2 on a usage error. --dry-run stops before the GPU step.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
import ucutlass_cli  # noqa: E402
from ucutlass_cli import REPO, HarnessError  # noqa: E402

PROGRAMS = REPO / "bench" / "gemm_acceptance"
RESULTS = REPO / "bench" / "results"
MEASURE = Path(__file__).resolve().parent / "gemm_measure.py"
FP32_EAGER = "PyTorch fp32 eager (allow_tf32 = False)"


class UsageError(HarnessError):
    """The command line asks for something that does not exist (exit 2)."""


def item(title, distribution, baseline, rel_l2_max, speedup_min, strict=False, allclose=None):
    """One acceptance item. Correct = no NaN/Inf and relative L2 error vs float64 <= rel_l2_max on every
    correctness draw, and (when given) allclose at (atol, rtol) on the draw from the item's own
    distribution. Fast = torch time / kernel time >= speedup_min (> when strict)."""
    return {"title": title, "distribution": distribution, "baseline": baseline,
            "criteria": {"rel_l2_max": rel_l2_max, "allclose": allclose, "speedup_min": speedup_min,
                         "speedup_strict": strict}}


ITEMS = {
    "bf16_8192": item("bf16 8192^3, >= 95 % of torch.matmul", "normal", "torch.matmul, bf16", 1e-2, 0.95,
                      allclose=[1e-2, 1e-2]),
    "tf32_4096": item("fp32 4096^3 on TF32, rel err <= 1e-3, >= 6x fp32 eager", "uniform01", FP32_EAGER, 1e-3, 6.0),
    "large_k": item("256x256x524288 TF32, >= 3x fp32 eager", "uniform01", FP32_EAGER, 1e-3, 3.0),
    "small_k": item("32768x32768x64 TF32, >= 2x fp32 eager", "uniform01", FP32_EAGER, 1e-3, 2.0),
    "linear_3xtf32": item("nn.Linear-like 1024x8192x8192 3xTF32 (sm80), allclose 1e-4 vs f64, > fp32 eager",
                          "linear", FP32_EAGER, 1e-4, 1.0, strict=True, allclose=[1e-4, 1e-4]),
    "batched_bf16": item("batched 128x(512x1024x2048) bf16, > torch.bmm bf16", "normal", "torch.matmul (bmm), bf16",
                         1e-2, 1.0, strict=True, allclose=[1e-2, 1e-2]),
    "batched_tf32": item("batched 128x(512x1024x2048) fp32 on TF32, > fp32 eager", "uniform01", FP32_EAGER, 1e-3, 1.0,
                         strict=True),
    "bias_relu": item("relu(x W^T + b) 1024x8192x8192 TF32, > F.linear+relu fp32 eager", "linear", FP32_EAGER, 1e-3,
                      1.0, strict=True),
    # Issue 5's fusion benchmark: the MLP up-projection of a 4096-token batch, bias and GELU in the epilogue,
    # against PyTorch's addmm (bias folded in, as nn.Linear runs) followed by F.gelu.
    "bias_gelu_bf16": item("gelu(x W^T + b) bf16 4096x16384x4096, > addmm + F.gelu bf16 eager", "normal",
                           "torch.addmm + F.gelu, bf16", 1e-2, 1.0, strict=True, allclose=[1e-2, 1e-2]),
}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="an item (bf16_8192) or one candidate file stem (bf16_8192.t128x256_c2x1); repeatable")
    p.add_argument("--trials", type=int, default=100, help="timed rounds per runner (default 100, at least 50)")
    p.add_argument("--warmup", type=int, default=10, help="untimed calls per runner before timing")
    p.add_argument("--seed", type=int, default=20261201, help="first seed of the operand draws")
    p.add_argument("--out", help="result file, or a folder for gemm-<date>.json (default bench/results/)")
    p.add_argument("--prebuilt", metavar="DIR",
                   help="take libucutlass_<hash>.so from DIR (a `build -o` folder or a kernel cache) instead of building")
    p.add_argument("--dry-run", action="store_true", help="check and build, print the plan, stop before the GPU")
    p.add_argument("--no-build", action="store_true", help="with --dry-run: check only")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="parallel nvcc processes")
    p.add_argument("--cache-dir", help="kernel cache for ucutlass build (default: its own)")
    p.add_argument("--ucutlass", help="the ucutlass executable (default build/ucutlass)")
    p.add_argument("--programs", default=str(PROGRAMS), help="folder of ITEM.VARIANT.dsl programs")
    p.add_argument("--item-timeout", type=float, default=900, help="seconds one item's measuring process may take")
    args = p.parse_args(argv)
    if args.trials < 1 or args.warmup < 0:
        p.error("--trials must be >= 1 and --warmup >= 0")
    return args


def discover(folder, only):
    """Candidate files grouped by item, filtered by --only."""
    files = sorted(Path(folder).glob("*.dsl"))
    if not files:
        raise HarnessError(f"no .dsl programs in {folder}")
    by_item = {}
    for f in files:
        name = f.name.split(".")[0]
        if name not in ITEMS:
            raise HarnessError(f"{f}: no acceptance item named '{name}' (known: {', '.join(ITEMS)})")
        if only and name not in only and f.stem not in only:
            continue
        by_item.setdefault(name, []).append(f)
    unknown = [o for o in only if o not in ITEMS and not any(o == f.stem for f in files)]
    if unknown:
        raise UsageError(f"--only {', '.join(unknown)}: no such item or program")
    return {name: by_item[name] for name in ITEMS if name in by_item}


def rel(path):
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def attach_libraries(candidates, args, exe, report):
    """Sets candidate['library'] (or a build error) for every candidate that passed check."""
    todo = [c for c in candidates if c["check"]["ok"]]
    if args.prebuilt:
        report["libraries"] = {"source": "prebuilt", "dir": str(Path(args.prebuilt).resolve())}
        for c in todo:
            found = ucutlass_cli.find_prebuilt(args.prebuilt, c["hash"])
            if found:
                c["library"], c["manifest"] = found
            else:
                c["error"] = f"no libucutlass_{c['hash']}.so under {args.prebuilt}"
                report["harness_errors"].append(f"{c['file']}: {c['error']}")
        return
    if args.dry_run and args.no_build:
        report["libraries"] = {"source": "none (--no-build)"}
        return
    doc = ucutlass_cli.build(exe, [REPO / c["file"] for c in todo], args.jobs, args.cache_dir)
    report["libraries"] = {"source": "build", "command": doc["command"], "wall_seconds": doc["wall_seconds"],
                           "cache_dir": doc.get("cache_dir"), "nvcc": doc.get("nvcc"),
                           "cutlass_dir": doc.get("cutlass_dir")}
    for c, r in zip(todo, doc["results"]):
        c["build"] = {k: r.get(k) for k in ("ok", "stage", "cached", "seconds")}
        if r.get("ok"):
            c["library"], c["manifest"] = r["library"], r.get("manifest")
        else:
            c["build"]["log"] = r.get("log")
            c["error"] = f"build failed at {r.get('stage')}"


def run_item(name, plan_path, args):
    """One item's measuring process; its JSON, or a record of how it died."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out_path = Path(f.name)
    cmd = [sys.executable, str(MEASURE), str(plan_path), name, str(out_path)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.item_timeout)
        rc, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc, stderr = None, (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    try:
        result = json.loads(out_path.read_text()) if out_path.stat().st_size else None
    except (OSError, json.JSONDecodeError):
        result = None
    finally:
        out_path.unlink(missing_ok=True)
    if result is None:
        why = "timed out" if rc is None else f"exited {rc} without a result"
        result = {"item": name, "harness_error": f"measuring process {why}; stderr tail:\n{stderr[-3000:]}"}
    result["worker"] = {"returncode": rc, "stderr_tail": stderr[-3000:]}
    return result


def verdict(spec, measured):
    """Best candidate (fastest correct) and pass/fail against the item's thresholds."""
    crit = spec["criteria"]
    runners = measured.get("runners", {})
    torch_ms = runners.get("torch", {}).get("timing", {}).get("median_ms")
    dsl = {k: r for k, r in runners.items() if r.get("kind") == "dsl"}
    for r in dsl.values():
        if torch_ms and "timing" in r:
            r["speedup_vs_torch"] = torch_ms / r["timing"]["median_ms"]
    timed = [k for k, r in dsl.items() if "timing" in r]
    correct = [k for k in timed if dsl[k].get("correct")]
    pool = correct or timed
    best = min(pool, key=lambda k: dsl[k]["timing"]["median_ms"]) if pool else None
    v = {"best": best, "best_correct": bool(best and dsl[best].get("correct")), "torch_median_ms": torch_ms,
         "speedup": dsl[best].get("speedup_vs_torch") if best else None, "required_speedup": crit["speedup_min"],
         "strict": crit["speedup_strict"]}
    s = v["speedup"]
    v["fast_enough"] = bool(s is not None and (s > crit["speedup_min"] if crit["speedup_strict"]
                                               else s >= crit["speedup_min"]))
    v["passed"] = v["best_correct"] and v["fast_enough"]
    if "harness_error" in measured or measured.get("errors"):
        v["note"] = "incomplete measurement, see errors"
    return v


def fmt(x, spec="{:.3g}"):
    return "-" if x is None else spec.format(x)


def print_tables(report):
    print("\ncandidates (correctness on every draw; times are medians of CUDA-event trials)")
    head = f"{'item':<14} {'runner':<36} {'ok':<5} {'rel_l2':>9} {'ms':>9} {'TFLOP/s':>8} {'x torch':>8}"
    print(head)
    print("-" * len(head))
    for it in report["items"]:
        runners = it.get("measured", {}).get("runners", {})
        for name, r in runners.items():
            rels = [c["rel_l2_err"] for c in r.get("correctness", []) if c.get("rel_l2_err") is not None]
            ok = "ERR" if "error" in r else ("yes" if r.get("correct") else "no" if "correct" in r else "-")
            t = r.get("timing", {})
            print(f"{it['name']:<14} {name[:36]:<36} {ok:<5} {fmt(max(rels) if rels else None, '{:.2e}'):>9} "
                  f"{fmt(t.get('median_ms'), '{:.4f}'):>9} {fmt(r.get('tflops'), '{:.1f}'):>8} "
                  f"{fmt(r.get('speedup_vs_torch'), '{:.2f}'):>8}")
        for c in it["candidates"]:
            if c.get("error") and c["kernel"] not in runners:
                print(f"{it['name']:<14} {c['kernel'][:36]:<36} {'ERR':<5} {c['error']}")
    print("\nacceptance (best = fastest correct candidate)")
    head = f"{'item':<14} {'best':<36} {'x torch':>8} {'need':>7} {'result':<6} what"
    print(head)
    print("-" * len(head))
    for it in report["items"]:
        v = it.get("verdict", {})
        need = (">" if v.get("strict") else ">=") + fmt(v.get("required_speedup"), "{:g}")
        res = "PASS" if v.get("passed") else "FAIL"
        if v.get("best") and not v.get("best_correct"):
            res = "FAIL*"
        print(f"{it['name']:<14} {str(v.get('best') or '-')[:36]:<36} {fmt(v.get('speedup'), '{:.2f}'):>8} "
              f"{need:>7} {res:<6} {it['title']}")
    passed = sum(1 for it in report["items"] if it.get("verdict", {}).get("passed"))
    print(f"\n{passed}/{len(report['items'])} items pass; FAIL* = no candidate was correct")
    if report["harness_errors"]:
        print(f"{len(report['harness_errors'])} harness error(s):")
        for e in report["harness_errors"]:
            print("  " + e.splitlines()[0] if e else "  ?")


def print_plan(report):
    print(f"{'item':<14} {'candidate':<40} {'hash':<17} library")
    for it in report["items"]:
        for c in it["candidates"]:
            lib = c.get("library") or c.get("error") or ("check failed" if not c["check"]["ok"] else "(not built)")
            print(f"{it['name']:<14} {Path(c['file']).name:<40} {str(c.get('hash'))[:16]:<17} {lib}")


def output_path(args, stamp):
    name = f"gemm-{stamp}.json"
    if not args.out:
        return RESULTS / name
    out = Path(args.out)
    return out / name if out.is_dir() else out


def main(argv):
    args = parse_args(argv)
    started = provenance.now()
    report = {"format": "ucutlass-gemm-bench", "version": 1, "date": started.isoformat(),
              **provenance.command(), "git": provenance.git_state(), "host": provenance.host(),
              "nvcc": provenance.nvcc_version(), "driver": provenance.driver_version(),
              "settings": {"trials": args.trials, "warmup": args.warmup, "seed": args.seed,
                           "timing": "CUDA events per call; a 2x-L2 buffer zeroed and a ~100 us GPU spin before each "
                                     "call; runners interleaved round by round; median",
                           "correctness": "float64 reference; two fresh draws: the item's distribution (rel. L2 bound "
                                          "and allclose), N(0,1) (rel. L2 bound)"},
              "harness_errors": [], "items": []}
    try:
        exe = ucutlass_cli.find_exe(args.ucutlass)
        by_item = discover(args.programs, args.only)
        files = [f for fs in by_item.values() for f in fs]
        checks = dict(zip(files, ucutlass_cli.check(exe, files)))
        candidates = []
        for name, fs in by_item.items():
            it = {"name": name, **ITEMS[name], "candidates": []}
            for f in fs:
                ck = checks[f]
                kernels = ck.get("kernels") or [{}]
                c = {"file": rel(f), "kernel": kernels[0].get("name", f.stem), "hash": ck.get("hash"),
                     "check": {"ok": ck["ok"], "diagnostics": ck.get("diagnostics")},
                     "canonical": kernels[0].get("canonical")}
                if len(kernels) != 1:
                    c["error"] = f"{len(kernels)} kernels in one candidate file; expected 1"
                    c["check"]["ok"] = False
                elif not ck["ok"]:
                    c["error"] = "ucutlass check rejected it"
                it["candidates"].append(c)
                candidates.append(c)
            report["items"].append(it)
        attach_libraries(candidates, args, exe, report)
        if args.dry_run:
            print_plan(report)
            if args.out:
                write(report, output_path(args, provenance.file_stamp(started)))
            return 1 if report["harness_errors"] else 0
        measure_all(report, args)
    except UsageError as e:
        print(f"run_gemm_bench: {e}", file=sys.stderr)
        return 2
    except HarnessError as e:
        report["harness_errors"].append(str(e))
        print(f"run_gemm_bench: {e}", file=sys.stderr)
    report["seconds"] = (provenance.now() - started).total_seconds()
    if args.dry_run and not args.out:
        return 1
    if report["items"] and not args.dry_run:
        print_tables(report)
    path = output_path(args, provenance.file_stamp(started))
    write(report, path)
    print(f"wrote {rel(path)}")
    return 1 if report["harness_errors"] else 0


def measure_all(report, args):
    plan = {"trials": args.trials, "warmup": args.warmup, "seed": args.seed, "items": {}}
    for it in report["items"]:
        cands = [{"file": c["file"], "kernel": c["kernel"], "library": c["library"]}
                 for c in it["candidates"] if c.get("library") and not c.get("error")]
        plan["items"][it["name"]] = {"distribution": it["distribution"], "baseline": it["baseline"],
                                     "criteria": it["criteria"], "candidates": cands}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(plan, f)
        plan_path = Path(f.name)
    try:
        for it in report["items"]:
            if not plan["items"][it["name"]]["candidates"]:
                it["verdict"] = {"passed": False, "note": "no candidate built"}
                continue
            print(f"measuring {it['name']} ({len(plan['items'][it['name']]['candidates'])} candidates) ...",
                  file=sys.stderr, flush=True)
            measured = run_item(it["name"], plan_path, args)
            it["measured"] = measured
            if "harness_error" in measured:
                report["harness_errors"].append(f"{it['name']}: {measured['harness_error']}")
            # A library that will not load is the environment's fault; a kernel that breaks CUDA is the kernel's.
            for e in measured.get("errors", []):
                if e["kind"] == "load":
                    report["harness_errors"].append(f"{it['name']}: {e['message']}")
            report.setdefault("environment", measured.get("environment"))
            it["verdict"] = verdict(it, measured)
    finally:
        plan_path.unlink(missing_ok=True)


def write(report, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, default=str) + "\n")


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
