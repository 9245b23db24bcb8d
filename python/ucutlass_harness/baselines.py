"""`baselines`: eager and torch.compile times for every problem of a directory, in two phases.

Phase 1 (parallel, CPU-bound) warms torch.compile's on-disk caches: up to `compile_jobs`
fresh workers at a time each compile one problem's model and run it once (under no_grad,
with the same seed, device, inputs and module name as phase 2, so the FX graph / AOT
autograd cache keys match). Their only GPU work is that single forward; nothing they do is
timed for the output. Phase 2 (serial, GPU otherwise idle) runs the usual isolated timing
worker per problem; its torch.compile now hits the warm cache, and the compile wall time
of the first call is recorded in both phases (plus inductor's cache hit/miss counters) so
the report shows whether the cache worked. Triton's per-kernel autotune results are not
cached (`autotune_local_cache` off in both phases): phase 2 autotunes on the idle GPU, as a
serial cold run would.

`--time-budget` stops starting new problems (either phase) once exceeded; every problem
not started is listed under "skipped" in the report. The output keeps KernelBench's
baseline format; the per-problem phase details go to a sidecar `<out>.report.json`.
"""

import concurrent.futures as cf
import os
import tempfile
import threading
import time

from . import problem, worker

REPORT_FORMAT = "ucutlass-baselines-report"
REPORT_VERSION = 1
CACHE_COUNTERS = (("inductor", "fxgraph_cache_hit"), ("inductor", "fxgraph_cache_miss"),
                  ("inductor", "fxgraph_cache_bypass"), ("aot_autograd", "autograd_cache_hit"),
                  ("aot_autograd", "autograd_cache_miss"), ("aot_autograd", "autograd_cache_bypass"))


def default_compile_jobs():
    return max(1, min(8, os.cpu_count() or 1))


def default_cache_dir():
    return os.environ.get("TORCHINDUCTOR_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), f"ucutlass-inductor-cache-{os.getuid() if hasattr(os, 'getuid') else 'user'}")


def cache_env(cache_dir, compile_threads=None):
    env = {"TORCHINDUCTOR_CACHE_DIR": os.path.abspath(cache_dir), "TORCHINDUCTOR_FX_GRAPH_CACHE": "1",
           "TORCHINDUCTOR_AUTOGRAD_CACHE": "1"}
    if compile_threads:
        env["TORCHINDUCTOR_COMPILE_THREADS"] = str(int(compile_threads))
    return env


def level_and_name(path, root):
    """(KernelBench level key, file key): the first subfolder under `root`, else root's own name."""
    rel = os.path.relpath(path, root)
    parts = rel.split(os.sep)
    if len(parts) > 1:
        return parts[0], "/".join(parts[1:])
    return os.path.basename(os.path.normpath(os.path.abspath(root))), rel


# ---- worker side (needs torch) ------------------------------------------------------------

def _setup(task, progress, phase):
    import torch
    import torch._inductor.config as inductor_config
    from . import evaluate
    progress.phase(phase)
    inductor_config.autotune_local_cache = False
    cuda = task.get("device_type", "cuda") == "cuda"
    device = torch.device("cuda", int(task.get("device_index", 0))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    prob = problem.load_module(task["problem"], "problem")
    seed = int(task.get("seed", 42))
    torch.manual_seed(seed)
    init_inputs = list(prob.get_init_inputs())
    torch.manual_seed(seed)
    model = prob.Model(*init_inputs).to(device)
    inputs = evaluate.make_inputs(prob, seed, "problem", device)
    ev = evaluate.Evaluation(task, progress)
    ev.current_phase = phase
    return torch, evaluate, device, prob, model, inputs, ev


def _cache_counts():
    from torch._dynamo.utils import counters
    return {name: int(counters[group][name]) for group, name in CACHE_COUNTERS if counters[group][name]}


def _first_compiled_call(torch, ev, model, inputs):
    """torch.compile the model and run it once (this compiles); returns (compiled, seconds, counters)."""
    from torch._dynamo.utils import counters
    counters.clear()
    compiled = torch.compile(model)
    t0 = time.perf_counter()
    with torch.no_grad():
        compiled(*inputs)
    ev.sync()
    return compiled, time.perf_counter() - t0, _cache_counts()


def _device_info(torch, device):
    if device.type == "cuda":
        from . import gpu_env
        return gpu_env.device_info(torch, device.index)
    return {"name": "cpu"}


def warm_task(task, progress):
    """Phase 1: compile (and run once) the problem's model; nothing is timed for the output."""
    torch, evaluate, device, prob, model, inputs, ev = _setup(task, progress, "baseline_warm")
    _, seconds, cache = _first_compiled_call(torch, ev, model, inputs)
    from . import results
    return {"format": results.RESULT_FORMAT, "version": results.RESULT_VERSION, "problem": task["problem"],
            "solution": None, "signals": [], "verdict": "ok", "torch_version": torch.__version__,
            "device": _device_info(torch, device), "compile_first_call_s": round(seconds, 3),
            "compile_cache": cache}


def time_task(task, progress):
    """Phase 2: time the reference model eagerly and with torch.compile (GPU otherwise idle)."""
    torch, evaluate, device, prob, model, inputs, ev = _setup(task, progress, "baseline")
    from . import results
    flush = evaluate.l2_flush_buffer(device) if device.type == "cuda" else None
    trials, warmup = int(task.get("timing_trials", 100)), int(task.get("warmup", 5))
    out = {"problem": task["problem"], "device": _device_info(torch, device),
           "torch_version": torch.__version__, "verdict": "ok", "signals": [],
           "format": results.RESULT_FORMAT, "version": results.RESULT_VERSION, "solution": None}
    for mode in task.get("modes", ["eager", "compile"]):
        try:
            fn = model
            if mode == "compile":
                fn, seconds, cache = _first_compiled_call(torch, ev, model, inputs)
                out["compile_first_call_s"] = round(seconds, 3)
                out["compile_cache"] = cache
            stats = ev.time_callable(fn, inputs, trials, warmup, flush, None)
            stats.pop("audit_out")
            stats.pop("l2_reset_method")
            evaluate.settle_reported(stats, evaluate.side_work(stats))
            out[mode] = stats
        except Exception as e:
            out[mode] = {"error": f"{type(e).__name__}: {str(e)[:500]}"}
    return out


# ---- orchestration (no torch) -------------------------------------------------------------

def _error_text(r):
    err = r.get("error")
    if isinstance(err, dict):
        return err.get("message") or r.get("verdict")
    return err or r.get("verdict")


class Budget:
    def __init__(self, seconds, clock):
        self.seconds, self.clock, self.start = seconds, clock, clock()

    def elapsed(self):
        return self.clock() - self.start

    def exceeded(self):
        return self.seconds is not None and self.elapsed() >= self.seconds

    def reason(self):
        return f"time budget {self.seconds:g} s exceeded ({self.elapsed():.1f} s elapsed)"


def run_baselines(files, root, modes, *, compile_jobs=None, time_budget=None, timeout=900.0,
                  task_extra=None, env_extra=None, cache_dir=None, runner=None, clock=time.monotonic,
                  log=None, checkpoint=None):
    """Both phases over `files`; returns (KernelBench baseline doc, failures, report).

    `runner(task, timeout, env) -> result dict` defaults to worker.run_task (tests pass a fake);
    `checkpoint(table, failures, report)` is called after each problem of phase 2.
    """
    runner = runner or worker.run_task
    log = log or (lambda msg: None)
    compile_jobs = max(1, int(compile_jobs or default_compile_jobs()))
    cache_dir = cache_dir or default_cache_dir()
    budget = Budget(time_budget, clock)
    base_task = dict(task_extra or {})
    keys = {path: level_and_name(path, root) for path in files}
    label = {path: f"{keys[path][0]}/{keys[path][1]}" for path in files}
    per_problem = {label[p]: {} for p in files}
    skipped = []
    report = {"format": REPORT_FORMAT, "version": REPORT_VERSION, "dir": root, "modes": list(modes),
              "compile_jobs": compile_jobs, "time_budget_s": time_budget, "cache_dir": os.path.abspath(cache_dir),
              "problems": per_problem, "skipped": skipped}

    def task_for(path, kind, **extra):
        return dict(base_task, kind=kind, problem=os.path.abspath(path), problem_info={"file": path}, **extra)

    # Phase 1: warm the compile caches, compile_jobs workers at a time.
    warm = "compile" in modes
    t1 = clock()
    if warm:
        threads = max(1, (os.cpu_count() or 1) // compile_jobs)
        env1 = dict(env_extra or {}, **cache_env(cache_dir, threads))
        report["phase1"] = {"jobs": compile_jobs, "compile_threads_per_job": threads}
        lock = threading.Lock()
        done_count = [0]

        def warm_one(path):
            r = runner(task_for(path, "baseline_warm"), timeout, env1)
            rec = {"status": "ok" if r.get("verdict") == "ok" else "failed",
                   "compile_first_call_s": r.get("compile_first_call_s"),
                   "compile_cache": r.get("compile_cache"),
                   "worker_wall_s": (r.get("worker") or {}).get("wall_s")}
            if rec["status"] != "ok":
                rec["verdict"], rec["error"] = r.get("verdict"), _error_text(r)
            with lock:
                per_problem[label[path]]["warm"] = rec
                done_count[0] += 1
                log(f"[warm {done_count[0]}/{len(files)}] {label[path]}: {rec['status']}"
                    + (f" compile {rec['compile_first_call_s']} s" if rec["compile_first_call_s"] is not None
                       else f" ({rec.get('error')})"))

        with cf.ThreadPoolExecutor(max_workers=compile_jobs) as ex:
            pending, todo = set(), iter(files)
            while True:
                for path in todo:
                    if budget.exceeded():
                        skipped.append({"problem": label[path], "phase": "warm", "reason": budget.reason()})
                        per_problem[label[path]]["warm"] = {"status": "skipped"}
                        continue
                    pending.add(ex.submit(warm_one, path))
                    if len(pending) >= compile_jobs:
                        break
                if not pending:
                    break
                finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for f in finished:
                    f.result()
        report["phase1"]["wall_s"] = round(clock() - t1, 3)

    # Phase 2: time each problem alone, one fresh worker each.
    env2 = dict(env_extra or {}, **cache_env(cache_dir)) if warm else dict(env_extra or {})
    table, failures, device, t2 = {}, {}, None, clock()
    for i, path in enumerate(files):
        level, name = keys[path]
        rec = per_problem[label[path]]
        if budget.exceeded():
            skipped.append({"problem": label[path], "phase": "time", "reason": budget.reason()})
            rec["time"] = {"status": "skipped"}
            continue
        r = runner(task_for(path, "baseline", modes=list(modes)), timeout, env2)
        device = device or (r.get("device") or {}).get("name")
        if r.get("torch_version"):
            report.setdefault("torch_version", r["torch_version"])
        trec = {"status": "ok", "worker_wall_s": (r.get("worker") or {}).get("wall_s")}
        if warm:
            trec["compile_first_call_s"] = r.get("compile_first_call_s")
            trec["compile_cache"] = r.get("compile_cache")
        for mode in modes:
            stats = r.get(mode)
            if isinstance(stats, dict) and "mean_ms" in stats:
                key = level if mode == "eager" else f"{level}_{mode}"
                table.setdefault(key, {})[name] = (stats, r.get("device") or {})
                trec[f"{mode}_mean_ms"] = stats["mean_ms"]
            else:
                trec["status"] = "failed"
                msg = stats.get("error") if isinstance(stats, dict) else _error_text(r)
                failures.setdefault(label[path], {})[mode] = msg
                trec.setdefault("errors", {})[mode] = msg
        rec["time"] = trec
        extra = ""
        if warm:
            w = (rec.get("warm") or {}).get("compile_first_call_s")
            extra = f" compile first call {trec['compile_first_call_s']} s (phase 1: {w} s)"
        log(f"[{i + 1}/{len(files)}] {label[path]}: {r.get('verdict')}{extra}")
        if checkpoint:
            report["device"] = device
            checkpoint(table, failures, report)
    report["phase2"] = {"wall_s": round(clock() - t2, 3)}
    report["device"] = device
    report["wall_s"] = round(budget.elapsed(), 3)
    report["complete"] = not skipped
    return table, failures, report


def merge_reports(prior, current):
    """The report of a resumed run: problems timed by earlier runs keep their records (this run
    only holds the problems it ran), and each earlier run's phase figures move to "earlier_runs"."""
    if not isinstance(prior, dict) or prior.get("format") != REPORT_FORMAT:
        return current
    merged = dict(current)
    problems = {k: v for k, v in (prior.get("problems") or {}).items() if v and (v.get("time") or {}).get("status")
                not in (None, "skipped")}
    problems.update({k: v for k, v in (current.get("problems") or {}).items() if v})
    merged["problems"] = dict(sorted(problems.items()))
    earlier = list(prior.get("earlier_runs") or [])
    earlier.append({k: prior[k] for k in ("phase1", "phase2", "wall_s", "compile_jobs", "time_budget_s", "device",
                                         "torch_version", "complete") if k in prior})
    merged["earlier_runs"] = earlier
    return merged


def kernelbench_doc(table, levels, modes, entry_fn):
    """{level: {...}, level_compile: {...}} in KernelBench's baseline format, every level present."""
    doc = {}
    for level in levels:
        for mode in modes:
            key = level if mode == "eager" else f"{level}_{mode}"
            doc[key] = {name: entry_fn(stats, dev.get("name")) for name, (stats, dev) in
                        sorted(table.get(key, {}).items())}
    return doc
