"""Command line: python3 -m ucutlass_harness <subcommand> ...

Exit codes: 0 the command ran (whatever the verdicts), 1 the command failed
(e.g. tracing failed), 2 usage error (bad flag, missing file). With --json the
result is one JSON document on stdout; errors are JSON too
({"format": "ucutlass-error", "error": ..., "verdict": ...}).
"""

import argparse
import concurrent.futures as cf
import json
import os
import queue
import re
import sys
import threading
import time

from . import cpu_split, kernelbench, problem, results, sanitize, static_check, tolerance, worker

USAGE_ERROR = 2


class UsageError(Exception):
    pass


def _emit(obj, args, human=None, out=None):
    text = json.dumps(obj, indent=1, sort_keys=False)
    if out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if getattr(args, "json", False) or human is None:
        print(text)
    else:
        print(human)


def _require_file(path, what):
    if not os.path.isfile(path):
        raise UsageError(f"{what} {path!r}: no such file")


def _add_eval_options(p):
    p.add_argument("--backend", choices=["cuda", "cutlass", "any"], default="cuda",
                   help="static rule set: cuda needs load_inline/cpp_extension, cutlass also cute::/cutlass::")
    p.add_argument("--profile", default=tolerance.DEFAULT_PROFILE, choices=sorted(tolerance.PROFILES))
    p.add_argument("--atol", type=float)
    p.add_argument("--rtol", type=float)
    p.add_argument("--trials", type=int, default=5, help="correctness trials")
    p.add_argument("--timing-trials", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--warmup-ms", type=float, default=None,
                   help="after --warmup calls, keep running untimed trials for this long so GPU clocks settle "
                        "(default 300; 0: off)")
    p.add_argument("--timing-min-ms", type=float, default=None,
                   help="time more than --timing-trials calls until this long has passed (default 1000; 0: off)")
    p.add_argument("--baselines", default="eager,compile", help="comma list of eager,compile or 'none'")
    p.add_argument("--no-timing", action="store_true")
    p.add_argument("--sol-ms", type=float, help="speed-of-light bound (ms): faster results are flagged")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--device", type=int, default=0)
    p.add_argument("--devices", help="batch/adversarial/kb-eval: evaluate on these GPUs at once, one worker per GPU "
                                     "(a comma list, or 'all' = every visible GPU); default: --device alone")
    p.add_argument("--device-type", choices=["cuda", "cpu"], default="cuda",
                   help="cpu runs the same checks with wall-clock timing (for tests without a GPU)")
    p.add_argument("--l2-flush", choices=["write", "read"], default="write",
                   help="how L2 is emptied before each timed call: write a buffer twice its size (default; "
                        "leaves L2 full of dirty lines) or read it (leaves clean lines; an A/B for timing noise)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per evaluation worker")
    p.add_argument("--ext-cache", help="TORCH_EXTENSIONS_DIR shared by workers (compile cache)")
    p.add_argument("--prebuild-jobs", type=int, default=None,
                   help="batch/adversarial/kb-eval: import (and so build) the solutions this many at a time "
                        "before the serial evaluations (default: min(8, CPUs); 0 or 1: off)")
    p.add_argument("--prebuild-timeout", type=float, default=900.0, help="seconds per solution import (build)")
    p.add_argument("--deadline", type=float, default=None,
                   help="batch: a Unix time after which no build or evaluation starts; those pairs get verdict "
                        "not_run and no result file (a campaign's wall budget, so a stop records what finished)")
    p.add_argument("--overlap-builds", action="store_true",
                   help="batch/adversarial: evaluate each solution as soon as its build ends, beside the other "
                        "builds (GPU busy during builds; two cores per GPU kept free of builds)")
    p.add_argument("--cpu-split", action="store_true",
                   help="with --overlap-builds: pin the evaluation workers to two whole cores per GPU and the "
                        "builds to the rest (cpu_split.py; off by default: bench/host_isolation.py measured no "
                        "gain in geomean on the H200 host)")


def _eval_task(args, prob, sol, overrides=None):
    """The worker task; `overrides` (a batch's per-pair "sol_ms", "baselines", "timing_min_ms") win over the flags."""
    if args.trials < 1 or args.timing_trials < 2:
        raise UsageError("--trials must be >= 1 and --timing-trials >= 2")
    over = overrides or {}
    baselines_text = over.get("baselines", args.baselines)
    baselines = [] if baselines_text == "none" else [b for b in baselines_text.split(",") if b]
    bad = [b for b in baselines if b not in ("eager", "compile")]
    if bad:
        raise UsageError(f"--baselines: unknown {bad}; use eager,compile or none")
    return {"kind": "eval", "problem": os.path.abspath(prob), "solution": os.path.abspath(sol),
            "problem_info": {"file": prob}, "solution_info": {"file": sol},
            "backend": args.backend, "profile": args.profile, "atol": args.atol, "rtol": args.rtol,
            "correct_trials": args.trials, "timing_trials": args.timing_trials, "warmup": args.warmup,
            "baselines": baselines, "timing": not args.no_timing, "sol_ms": over.get("sol_ms", args.sol_ms),
            "seed": args.seed, "device_index": args.device, "device_type": args.device_type,
            "l2_flush": getattr(args, "l2_flush", "write"), **_timing_options(args, over)}


def _timing_options(args, overrides=None):
    """The time-based timing options given (the harness defaults apply to the others); a batch pair's
    own "timing_min_ms" wins over the flag (the optimizer re-measures its written solutions in the
    harness's default window within a batch of attempts timed in a shorter one)."""
    out = {}
    over = overrides or {}
    for flag, key in (("--warmup-ms", "warmup_ms"), ("--timing-min-ms", "timing_min_ms")):
        ms = over.get(key, getattr(args, key, None))
        if key in over:
            flag = f"pair's {key}"
        if ms is None:
            continue
        if ms < 0:
            raise UsageError(f"{flag} must be >= 0")
        out[key] = ms
    return out


def _worker_env(args):
    env = {}
    if getattr(args, "ext_cache", None):
        os.makedirs(args.ext_cache, exist_ok=True)
        env["TORCH_EXTENSIONS_DIR"] = os.path.abspath(args.ext_cache)
    return env


def _check_problem(prob):
    _require_file(prob, "problem")
    try:
        problem.describe_problem(prob)
    except problem.ProblemError as e:
        raise UsageError(str(e)) from e


def _one_line(r):
    fired = [s["name"] for s in r.get("signals", []) if s.get("fired")]
    t = ((r.get("timing") or {}).get("candidate") or {}).get("median_ms")
    err = (r.get("error") or {}).get("message", "")
    return (f"{r.get('verdict')}" + (f"  median {t:.4f} ms" if t else "") +
            (f"  signals: {', '.join(fired)}" if fired else "") + (f"  error: {err[:200]}" if err else ""))


def cmd_eval(args):
    _check_problem(args.problem)
    _require_file(args.solution, "solution")
    result = worker.run_task(_eval_task(args, args.problem, args.solution), args.timeout, _worker_env(args))
    _emit(result, args, _one_line(result), args.out)
    return 0


def _read_pairs(path):
    _require_file(path, "pairs file")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    base = os.path.dirname(os.path.abspath(path))
    if text.lstrip().startswith("["):
        # Optional per pair: "sol_ms", "baselines" (one batch may hold several problems),
        # "timing_min_ms" (a re-measurement beside attempts) and "after_builds" (with --overlap-builds,
        # evaluated only once every build of the batch has ended).
        pairs = [(p["problem"], p["solution"],
                  {k: p[k] for k in ("sol_ms", "baselines", "timing_min_ms", "after_builds") if k in p})
                 for p in json.loads(text)]
    else:
        pairs = []
        for n, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2:
                raise UsageError(f"{path}:{n}: expected 'PROBLEM SOLUTION'")
            pairs.append((parts[0], parts[1], {}))
    return [(p if os.path.isabs(p) else os.path.join(base, p), s if os.path.isabs(s) else os.path.join(base, s), o)
            for p, s, o in pairs]


def _prebuild_jobs(args, solutions):
    """How many solutions to build at once before (or beside) the evaluations; 0 = no prebuild."""
    jobs = args.prebuild_jobs if getattr(args, "prebuild_jobs", None) is not None else min(8, os.cpu_count() or 1)
    return jobs if jobs > 1 and len(solutions) > 1 else 0


def _default_ext_cache(args, out_dir):
    """Prebuilt extensions must be where the workers look: out_dir/torch_extensions unless --ext-cache."""
    if not args.ext_cache:
        args.ext_cache = os.path.join(out_dir, "torch_extensions")


def _prebuild(args, solutions, out_dir, jobs, on_done=None, cpus=None):
    from . import prebuild
    t0 = time.monotonic()
    # Its own limit: a build may take longer than an evaluation is allowed (the first GPU run gave
    # --timeout 30 to a batch whose builds take ~60 s, and the builds were killed unfinished).
    built = prebuild.prebuild_all(solutions, jobs, args.ext_cache, args.prebuild_timeout,
                                  log=lambda m: print(m, file=sys.stderr, flush=True), on_done=on_done,
                                  deadline=getattr(args, "deadline", None), cpus=cpus)
    print(f"prebuild: {len(built)} solution(s), {jobs} at a time, {time.monotonic() - t0:.1f} s", file=sys.stderr)


def _maybe_prebuild(args, solutions, out_dir):
    """Build the solutions' extensions in parallel before serial evaluation (prebuild.py)."""
    jobs = _prebuild_jobs(args, solutions)
    if jobs:
        _default_ext_cache(args, out_dir)
        _prebuild(args, solutions, out_dir, jobs)


def eval_devices(args):
    """The GPUs evaluations run on: --devices "0,1" / "all" (every visible GPU), else --device alone."""
    spec = getattr(args, "devices", None)
    if not spec:
        return [args.device]
    devices = None
    if spec != "all":
        try:
            devices = [int(d) for d in spec.split(",") if d.strip()]
        except ValueError:
            raise UsageError(f"--devices {spec!r}: a comma list of GPU indices, or 'all'") from None
        if not devices or len(set(devices)) != len(devices) or min(devices) < 0:
            raise UsageError(f"--devices {spec!r}: a comma list of distinct GPU indices, or 'all'")
    if args.device_type != "cuda":
        return [args.device]  # the CPU mode has one device
    if devices is None:
        from . import gpu_env
        count = gpu_env.visible_gpu_count()
        return list(range(count)) if count > 0 else [args.device]
    return devices


def run_pairs(pairs, args, out_dir, label_of=None):
    """Evaluate (problem, solution) pairs, one fresh worker each; write one JSON per pair.

    With several devices (--devices), one worker per GPU runs at a time: each evaluation still has
    its GPU to itself (timing included), and the batch takes 1/N of the wall time. Records keep the
    pairs' order whatever order they finish in.

    With --overlap-builds, a pair is evaluated as soon as its solution's extension is built while the
    others still build, instead of after all of them: the GPUs stop idling through the builds. The
    builds then leave two cores per device to the evaluations; with --cpu-split the machine's CPUs are
    split (cpu_split.py), the evaluation workers pinned to theirs and the builds, compilers included, to
    the rest. Each record says how many builds were still running when its evaluation started and, in
    "cpu_split", which CPUs each side had (null: no split, everything shared them). A pair marked
    "after_builds" waits until every build has ended, so its timing sees an idle host: the optimizer's
    re-measurements of written solutions, whose figure is what a user running the solution alone sees
    (beside the builds, short host-bound programs measured up to 1.3x slower; docs/optimize.md).
    """
    os.makedirs(out_dir, exist_ok=True)
    devices = eval_devices(args)
    solutions = [pair[1] for pair in pairs]
    jobs = _prebuild_jobs(args, solutions)
    overlap = bool(jobs) and getattr(args, "overlap_builds", False)
    if jobs:
        _default_ext_cache(args, out_dir)
    env = _worker_env(args)
    cpus = cpu_split.split(len(devices)) if overlap and getattr(args, "cpu_split", False) else None
    if cpus:
        env[cpu_split.ENV] = cpu_split.format_list(cpus[0])
    split_record = {"eval": cpu_split.format_list(cpus[0]), "builds": cpu_split.format_list(cpus[1])} if cpus else None
    if jobs and not overlap:
        _prebuild(args, solutions, out_dir, jobs)
    records = [None] * len(pairs)
    done = [0]
    building = [0]
    lock = threading.Lock()
    ready = queue.Queue()  # pair indices whose solution is built (or needs no build), then one None per device

    deadline = getattr(args, "deadline", None)

    def evaluate_one(i, device):
        prob, sol, *rest = pairs[i]
        name = f"{i:03d}_{os.path.splitext(os.path.basename(sol))[0]}.json"
        builds_running = building[0]
        if deadline is not None and time.time() > deadline:
            # Not evaluated, so no result file: a resumed campaign must not take it for one that ran.
            with lock:
                records[i] = {"problem": prob, "solution": sol, "result_file": None, "verdict": "not_run",
                              "detail": "--deadline passed before this evaluation could start"}
                done[0] += 1
            return
        if not os.path.isfile(prob) or not os.path.isfile(sol):
            missing = prob if not os.path.isfile(prob) else sol
            result = results.error_result({"file": prob}, {"file": sol}, "runtime_error",
                                          f"{missing}: no such file", "load")
        else:
            task = _eval_task(args, prob, sol, rest[0] if rest else None)
            task["device_index"] = device
            if len(devices) > 1:
                task["concurrent_devices"] = len(devices)
            result = worker.run_task(task, args.timeout, env)
        if overlap:
            result["concurrent_builds"] = builds_running
            result["cpu_split"] = split_record
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
        rec = {"problem": prob, "solution": sol, "result_file": name, "verdict": result.get("verdict"),
               "median_ms": ((result.get("timing") or {}).get("candidate") or {}).get("median_ms"),
               "speedup_vs_eager": (result.get("speedup") or {}).get("vs_eager")}
        if overlap:
            rec["concurrent_builds"] = builds_running
        if label_of:
            rec.update(label_of(prob, sol, result))
        with lock:
            records[i] = rec
            done[0] += 1
            print(f"[{done[0]}/{len(pairs)}] {os.path.basename(sol)}: {_one_line(result)}", file=sys.stderr)

    def evaluator(device):
        while (i := ready.get()) is not None:
            evaluate_one(i, device)

    def feed():
        try:
            if overlap:
                by_solution = {}
                quiet = {i for i, pair in enumerate(pairs) if len(pair) > 2 and (pair[2] or {}).get("after_builds")}
                for i, sol in enumerate(solutions):
                    if i in quiet:
                        continue
                    if os.path.isfile(sol):
                        by_solution.setdefault(os.path.abspath(sol), []).append(i)
                    else:
                        ready.put(i)  # its evaluation records the missing file

                def built(path, _info):
                    with lock:
                        building[0] -= 1
                    for i in by_solution.get(path, []):
                        ready.put(i)
                # Every solution is built here, the quiet pairs' too (a cached one at once), and they
                # queue behind whatever was built last.
                building[0] = len({os.path.abspath(s) for s in solutions if os.path.isfile(s)})
                _prebuild(args, solutions, out_dir, max(1, jobs - 2 * len(devices)), on_done=built,
                          cpus=cpus[1] if cpus else None)
                for i in sorted(quiet):
                    ready.put(i)
            else:
                for i in range(len(pairs)):
                    ready.put(i)
        finally:
            for _ in devices:
                ready.put(None)

    with cf.ThreadPoolExecutor(max_workers=len(devices) + 1) as ex:
        futures = [ex.submit(evaluator, d) for d in devices] + [ex.submit(feed)]
        for f in futures:
            f.result()
    return records


def cmd_batch(args):
    pairs = _read_pairs(args.pairs)
    records = run_pairs(pairs, args, args.out_dir)
    verdicts = {}
    for r in records:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    summary = {"format": "ucutlass-batch-summary", "version": 1, "count": len(records),
               "verdicts": verdicts, "results": records}
    with open(os.path.join(args.out_dir, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
    _emit(summary, args, f"{len(records)} evaluated: {verdicts}")
    return 0


EXPECT_LINE = re.compile(r"^#\s*ucutlass-adversarial:\s*(.*)$", re.MULTILINE)


def read_expectation(path):
    """Parse '# ucutlass-adversarial: problem=REL expect=V1|V2' from a solution file."""
    with open(path, encoding="utf-8") as f:
        m = EXPECT_LINE.search(f.read())
    if not m:
        return None
    fields = dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)
    if "problem" not in fields or "expect" not in fields:
        raise UsageError(f"{path}: ucutlass-adversarial line needs problem= and expect=")
    prob = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), fields["problem"]))
    return {"problem": prob, "expect": fields["expect"].split("|")}


def judge(expect, result):
    """caught / missed / false_alarm / honest_ok for one adversarial or isolation case."""
    verdict = result.get("verdict", "")
    fired = {s["name"] for s in result.get("signals", []) if s.get("fired")}
    if expect == ["ok"]:
        return {"outcome": "honest_ok" if verdict == "ok" else "false_alarm", "exact": verdict == "ok"}
    gamed = [e for e in expect if e.startswith("gamed:")]
    if gamed:
        exact = any(e[6:] in fired for e in gamed) or verdict in expect
        return {"outcome": "caught" if verdict != "ok" else "missed", "exact": exact}
    return {"outcome": "caught" if verdict in expect else "missed", "exact": verdict in expect}


def cmd_adversarial(args):
    if not os.path.isdir(args.dir):
        raise UsageError(f"{args.dir}: not a directory")
    cases = []
    for name in sorted(os.listdir(args.dir)):
        path = os.path.join(args.dir, name)
        if name.endswith(".py") and os.path.isfile(path):
            exp = read_expectation(path)
            if exp:
                cases.append((path, exp))
    if not cases:
        raise UsageError(f"{args.dir}: no file with a '# ucutlass-adversarial:' line")
    expectations = {os.path.abspath(p): e for p, e in cases}

    def label(prob, sol, result):
        e = expectations[os.path.abspath(sol)]
        return dict(expect=e["expect"], **judge(e["expect"], result))

    out_dir = args.out_dir or os.path.join(os.path.dirname(os.path.abspath(args.out or ".")), "adversarial_results")
    records = run_pairs([(e["problem"], p) for p, e in cases], args, out_dir, label)
    counts = {}
    for r in records:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    report = {"format": "ucutlass-adversarial-report", "version": 1, "dir": args.dir, "counts": counts,
              "cases": records}
    _emit(report, args, f"{counts}", args.out)
    return 0


def cmd_trace(args):
    _check_problem(args.problem)
    from . import tracer
    try:
        graph = tracer.trace_problem(args.problem)
    except Exception as e:
        err = {"format": "ucutlass-error", "error": f"trace failed: {type(e).__name__}: {e}", "problem": args.problem}
        print(json.dumps(err))
        return 1
    if args.out:
        _emit(graph, args, f"wrote {args.out} ({len(graph['nodes'])} nodes)", args.out)
    else:
        print(json.dumps(graph, indent=1))
    return 0


def cmd_baselines(args):
    from . import baselines
    files = problem.list_problems(args.dir) if os.path.isdir(args.dir) else None
    if files is None:
        raise UsageError(f"{args.dir}: not a directory")
    modes = ["eager"] if args.only_eager else [m for m in args.modes.split(",") if m]
    bad = [m for m in modes if m not in ("eager", "compile")]
    if bad or not modes:
        raise UsageError(f"--modes: unknown {bad}; use eager,compile")
    if args.compile_jobs is not None and args.compile_jobs < 1:
        raise UsageError("--compile-jobs must be >= 1")
    task_extra = {"timing_trials": args.timing_trials, "warmup": args.warmup, "seed": args.seed,
                  "device_index": args.device, "device_type": args.device_type, **_timing_options(args)}
    levels = sorted({baselines.level_and_name(p, args.dir)[0] for p in files})
    prior, prior_report = {}, None
    base, ext = os.path.splitext(args.out)
    report_path = f"{base}.report{ext or '.json'}"
    if args.resume and os.path.isfile(args.out):
        with open(args.out, encoding="utf-8") as f:
            prior = json.load(f)
        try:
            with open(report_path, encoding="utf-8") as f:
                prior_report = json.load(f)
        except (OSError, ValueError):
            prior_report = None

    def done(path):
        # Timed already, with today's event window: an entry without `timing_window` was timed
        # start->end before the harness reported start->mid, so a resume times it again.
        level, name = baselines.level_and_name(path, args.dir)
        entries = [(prior.get(level if m == "eager" else f"{level}_{m}") or {}).get(name) for m in modes]
        return all(isinstance(e, dict) and "timing_window" in e for e in entries)

    already = [p for p in files if done(p)] if prior else []
    files = [p for p in files if p not in already]

    def write(table, failures, report, final):
        out = baselines.kernelbench_doc(table, levels, modes, kernelbench.baseline_entry)
        for key, entries in prior.items():
            if isinstance(entries, dict):
                out[key] = dict(sorted({**entries, **out.get(key, {})}.items()))
        report["out"] = args.out
        report["resumed_already_timed"] = len(already)
        report["final"] = final
        if final:
            timed = sum(len(v) for k, v in out.items() if not k.endswith("_compile"))
            _emit(out, args, f"wrote {args.out}: {timed} problems timed, {len(failures)} failed, "
                  f"{len(report['skipped'])} skipped (report {report_path})", args.out)
        else:  # checkpoint after each timed problem: a killed run keeps what it measured (--resume goes on)
            os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
            worker.write_json_atomic(args.out, out)
        worker.write_json_atomic(report_path, baselines.merge_reports(prior_report, report))
        if failures:
            worker.write_json_atomic(f"{base}.failures{ext or '.json'}", failures)

    table, failures, report = baselines.run_baselines(
        files, args.dir, modes, compile_jobs=args.compile_jobs, time_budget=args.time_budget,
        timeout=args.timeout, task_extra=task_extra, env_extra=_worker_env(args), cache_dir=args.compile_cache,
        log=lambda msg: print(msg, file=sys.stderr, flush=True),
        checkpoint=lambda t, f, r: write(t, f, r, False))
    write(table, failures, report, True)
    return 0


def cmd_kb_eval(args):
    try:
        entries, missing = kernelbench.plan(args.run_dir, args.problems)
    except kernelbench.RunError as e:
        raise UsageError(str(e)) from e
    levels = sorted({e["level"] for e in entries}) or [args.level or 1]
    problem_files = {}
    for lv in levels:
        problem_files.update(kernelbench.problem_index(args.problems, lv))
    out = args.out or os.path.join(args.run_dir, "eval_results.json")
    if args.dry_run:
        _emit({"entries": entries, "missing": missing}, args, f"{len(entries)} kernels, {len(missing)} unmatched")
        return 0
    if args.score_only:
        _require_file(out, "eval results")
        with open(out, encoding="utf-8") as f:
            eval_results = json.load(f)
    else:
        eval_results = {}
        _maybe_prebuild(args, [e["file"] for e in entries], os.path.dirname(os.path.abspath(out)))
        for e in entries:
            r = worker.run_task(_eval_task(args, e["problem"], e["file"]), args.timeout, _worker_env(args))
            eval_results.setdefault(str(e["problem_id"]), []).append(
                kernelbench.to_kernelbench_entry(e["sample_id"], r))
            print(f"problem {e['problem_id']} sample {e['sample_id']}: {_one_line(r)}", file=sys.stderr)
        with open(out, "w", encoding="utf-8") as f:
            json.dump(eval_results, f, indent=1)
    baseline = kernelbench.read_baseline(args.baseline, args.baseline_level) if args.baseline else None
    summary = kernelbench.score(eval_results, problem_files, baseline)
    summary.update({"format": "ucutlass-kb-summary", "version": 1, "eval_results": out,
                    "unmatched_kernels": missing,
                    "baseline": args.baseline or "eager time measured in each evaluation"})
    _emit(summary, args, json.dumps({k: summary[k] for k in ("fast_p", "geomean_speedup_correct")}))
    return 0


def cmd_static_check(args):
    _require_file(args.solution, "solution")
    with open(args.solution, encoding="utf-8") as f:
        report = static_check.check_source(f.read(), backend=args.backend, precision=args.precision)
    data = dict(report.to_json(), passed=not report.errors, file=args.solution)
    _emit(data, args, "passed" if not report.errors else "\n".join(f"{r}: {m}" for r, m in report.errors))
    return 0


def cmd_sanitize(args):
    _check_problem(args.problem)
    _require_file(args.solution, "solution")
    tools = args.tool or ["memcheck"]
    try:
        result = sanitize.sanitize(args.problem, args.solution, tools, args.timeout, args.seed, args.ext_cache,
                                   args.sanitizer, args.device_type)
    except sanitize.SanitizerMissing as e:
        raise UsageError(str(e)) from e
    runs = result["tools"]
    human = "; ".join(f"{t}: {r['verdict']}" + (f" ({r['errors']} error(s): {r['report'][0]})" if r["verdict"] == "errors"
                                                 and r["report"] else "") for t, r in runs.items())
    _emit(result, args, f"{result['verdict']} ({human})", args.out)
    return 0


def cmd_describe(args):
    try:
        d = problem.describe_problem(args.problem)
    except problem.ProblemError as e:
        raise UsageError(str(e)) from e
    _emit(d, args, json.dumps(d))
    return 0


def build_parser():
    p = argparse.ArgumentParser(prog="python3 -m ucutlass_harness", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("trace", help="problem -> op-graph JSON (CPU, meta tensors)")
    s.add_argument("problem")
    s.add_argument("--out")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_trace)

    s = sub.add_parser("eval", help="evaluate one solution in an isolated worker")
    s.add_argument("problem")
    s.add_argument("solution")
    s.add_argument("--out")
    s.add_argument("--json", action="store_true")
    _add_eval_options(s)
    s.set_defaults(fn=cmd_eval)

    s = sub.add_parser("batch", help="evaluate (problem, solution) pairs, one worker each")
    s.add_argument("pairs", help="JSON list of {problem, solution} or lines 'PROBLEM SOLUTION'")
    s.add_argument("--out-dir", required=True)
    s.add_argument("--json", action="store_true")
    _add_eval_options(s)
    s.set_defaults(fn=cmd_batch)

    s = sub.add_parser("baselines", help="time eager and torch.compile for every problem of a directory")
    s.add_argument("dir")
    s.add_argument("--out", required=True)
    s.add_argument("--modes", default="eager,compile")
    s.add_argument("--timing-trials", type=int, default=100)
    s.add_argument("--warmup", type=int, default=5)
    s.add_argument("--warmup-ms", type=float, default=None, help="time-based warm-up per mode (default 300)")
    s.add_argument("--timing-min-ms", type=float, default=None, help="timed window per mode at least (default 1000)")
    s.add_argument("--seed", type=int, default=42)
    s.add_argument("--device", type=int, default=0)
    s.add_argument("--device-type", choices=["cuda", "cpu"], default="cuda",
                   help="cpu: same flow with wall-clock timing (for tests without a GPU)")
    s.add_argument("--timeout", type=float, default=900.0, help="seconds per worker (either phase)")
    s.add_argument("--ext-cache")
    s.add_argument("--compile-jobs", type=int, default=None,
                   help="phase 1: concurrent torch.compile cache-warming workers (default min(8, cores))")
    s.add_argument("--compile-cache", help="TORCHINDUCTOR_CACHE_DIR shared by both phases "
                   "(default $TORCHINDUCTOR_CACHE_DIR, else a folder under the temp dir)")
    s.add_argument("--time-budget", type=float, default=None,
                   help="seconds: start no new problem (either phase) after this; skipped ones are reported")
    s.add_argument("--only-eager", action="store_true", help="eager only (no compile, no phase 1)")
    s.add_argument("--resume", action="store_true",
                   help="keep the problems --out already has (every mode) and run only the others, merged in")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_baselines)

    s = sub.add_parser("kb-eval", help="evaluate a KernelBench run directory, write eval_results.json")
    s.add_argument("run_dir")
    s.add_argument("--problems", required=True, help="KernelBench level folder or folder with level<L>/")
    s.add_argument("--level", type=int)
    s.add_argument("--out")
    s.add_argument("--baseline", help="KernelBench baseline JSON (default: eager time of each evaluation)")
    s.add_argument("--baseline-level", help="level key inside the baseline JSON")
    s.add_argument("--score-only", action="store_true", help="score an existing eval_results.json")
    s.add_argument("--dry-run", action="store_true", help="only list kernel -> problem pairing")
    s.add_argument("--json", action="store_true")
    _add_eval_options(s)
    s.set_defaults(fn=cmd_kb_eval)

    s = sub.add_parser("adversarial", help="run a suite of labelled gamed/honest solutions")
    s.add_argument("dir")
    s.add_argument("--out")
    s.add_argument("--out-dir")
    s.add_argument("--json", action="store_true")
    _add_eval_options(s)
    s.set_defaults(fn=cmd_adversarial)

    s = sub.add_parser("static-check", help="static rules on a solution source (no torch needed)")
    s.add_argument("solution")
    s.add_argument("--backend", choices=["cuda", "cutlass", "any"], default="cuda")
    s.add_argument("--precision", choices=["fp32"], help="the problem's precision: fp32 forbids fp16 downcasts")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_static_check)

    s = sub.add_parser("sanitize", help="run a solution's forward under compute-sanitizer (memcheck by default)")
    s.add_argument("problem")
    s.add_argument("solution")
    s.add_argument("--tool", action="append", choices=sanitize.TOOLS, help="repeatable (default memcheck)")
    s.add_argument("--timeout", type=float, default=600.0, help="seconds for all the tools' runs together")
    s.add_argument("--seed", type=int, default=42)
    s.add_argument("--ext-cache", help="TORCH_EXTENSIONS_DIR where the solution's extension was built")
    s.add_argument("--sanitizer", help="compute-sanitizer's path (default: PATH, then the CUDA toolkit's)")
    s.add_argument("--device-type", choices=["cuda", "cpu"], default="cuda",
                   help="cpu: the same flow without a GPU (for tests with a stand-in sanitizer)")
    s.add_argument("--out")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_sanitize)

    s = sub.add_parser("describe", help="static description of a problem file (no torch needed)")
    s.add_argument("problem")
    s.add_argument("--json", action="store_true")
    s.set_defaults(fn=cmd_describe)
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_worker":
        worker.worker_main(*argv[1:4])
    if argv and argv[0] == "_sanitize_child":
        sanitize.child_main(*argv[1:5])
    if argv and argv[0] == "_forkserver":
        from . import forkserver
        forkserver.server_main(argv[1])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return USAGE_ERROR if e.code not in (0, None) else 0
    try:
        return args.fn(args)
    except (UsageError, problem.ProblemError, tolerance.ToleranceError) as e:
        print(json.dumps({"format": "ucutlass-error", "error": str(e), "verdict": "usage_error"}))
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130
