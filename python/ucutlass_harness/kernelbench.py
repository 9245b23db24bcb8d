"""KernelBench run directories, eval_results.json and baseline JSON files."""

import json
import os
import re

from . import problem, scores

KERNEL_FILE = re.compile(r"^level_(\d+)_problem_(\d+)_sample_(\d+)_kernel\.py$")


class RunError(Exception):
    pass


def scan_run(run_dir):
    """[(level, problem_id, sample_id, path)] for every kernel file of a run, sorted."""
    if not os.path.isdir(run_dir):
        raise RunError(f"{run_dir}: not a directory")
    found = []
    for name in os.listdir(run_dir):
        m = KERNEL_FILE.match(name)
        if m:
            found.append((int(m.group(1)), int(m.group(2)), int(m.group(3)), os.path.join(run_dir, name)))
    return sorted(found)


def problem_index(problems_dir, level=None):
    """Map problem id -> file. `problems_dir` is a level folder, or has level<L>/ subfolders."""
    if not os.path.isdir(problems_dir):
        raise RunError(f"{problems_dir}: not a directory")
    base = problems_dir
    if level is not None:
        sub = os.path.join(problems_dir, f"level{level}")
        if os.path.isdir(sub):
            base = sub
    index = {}
    for name in sorted(os.listdir(base)):
        pid = problem.problem_id_from_name(name)
        if name.endswith(".py") and pid is not None:
            if pid in index:
                raise RunError(f"{base}: problem id {pid} appears twice ({index[pid]} and {name})")
            index[pid] = os.path.join(base, name)
    return index


def plan(run_dir, problems_dir):
    """Pair each kernel file of a run with its problem file; unknown ids are reported, not fatal."""
    entries, missing = [], []
    cache = {}
    for level, pid, sid, path in scan_run(run_dir):
        if level not in cache:
            cache[level] = problem_index(problems_dir, level)
        prob = cache[level].get(pid)
        if prob is None:
            missing.append({"level": level, "problem_id": pid, "sample_id": sid, "file": path})
        else:
            entries.append({"level": level, "problem_id": pid, "sample_id": sid, "file": path, "problem": prob})
    return entries, missing


def to_kernelbench_entry(sample_id, result):
    """One eval result in KernelBench's eval_results.json entry shape."""
    verdict = result.get("verdict", "crashed")
    timing = result.get("timing") or {}
    cand = timing.get("candidate") or {}
    device = result.get("device") or {}
    fired = [s["name"] for s in result.get("signals", []) if s.get("fired") and s.get("kind") == "gaming"]
    metadata = {"verdict": verdict, "gaming_signals": fired, "hardware": device.get("name"),
                "device": "cuda:0"}
    if result.get("error"):
        metadata["error"] = result["error"].get("message")
        metadata["error_phase"] = result["error"].get("phase")
    compiled = verdict not in ("compile_error",)
    correct = verdict == "ok"
    runtime = cand.get("mean_ms", -1.0) if correct else -1.0
    stats = {}
    if correct and cand:
        stats = {"mean": cand["mean_ms"], "std": cand["std_ms"], "min": cand["min_ms"], "max": cand["max_ms"],
                 "num_trials": cand["num_trials"], "hardware": device.get("name"), "device": "cuda:0",
                 "median": cand["median_ms"]}
    eager = (timing.get("eager") or {}).get("mean_ms")
    if eager is not None:
        metadata["eager_mean_ms"] = eager
    compiled_ms = (timing.get("compile") or {}).get("mean_ms")
    if compiled_ms is not None:
        metadata["compile_mean_ms"] = compiled_ms
    return {"sample_id": sample_id, "compiled": compiled, "correctness": correct, "metadata": metadata,
            "runtime": runtime, "runtime_stats": stats}


def read_baseline(path, level_key=None):
    """KernelBench baseline JSON -> {file name: mean ms}; picks `level_key` or the only level."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not data:
        raise RunError(f"{path}: not a baseline JSON object")
    if level_key is None:
        if len(data) != 1:
            raise RunError(f"{path}: several levels ({', '.join(data)}); name one")
        level_key = next(iter(data))
    if level_key not in data:
        raise RunError(f"{path}: no level {level_key!r} (has {', '.join(data)})")
    return {name: entry["mean"] for name, entry in data[level_key].items() if "mean" in entry}


def score(eval_results, problem_files, baseline=None):
    """fast_p and geomean over problems; best correct sample per problem.

    eval_results: {problem_id(str): [entry...]}; problem_files: {problem_id(int): path};
    baseline: {file name: mean ms} or None to use each entry's metadata.eager_mean_ms.
    Problems of `problem_files` with no entry count as incorrect.
    """
    rows = []
    per_problem = {}
    for pid in sorted(problem_files):
        entries = eval_results.get(str(pid), [])
        fname = os.path.basename(problem_files[pid])
        best = None
        for e in entries:
            if not e.get("correctness") or e.get("runtime", -1) <= 0:
                continue
            base = baseline.get(fname) if baseline is not None else e.get("metadata", {}).get("eager_mean_ms")
            if base is None:
                continue
            sp = base / e["runtime"]
            if best is None or sp > best:
                best = sp
        correct = any(e.get("correctness") for e in entries)
        rows.append((correct, best))
        per_problem[str(pid)] = {"file": fname, "correct": correct, "speedup": best}
    summary = scores.summarize_speedups(rows)
    summary["per_problem"] = per_problem
    return summary


def baseline_entry(stats, device_name):
    # timing_window (not in KernelBench's schema, which ignores extra keys): which event window the
    # figures are, so a consumer never compares a candidate with a baseline timed another way
    # (`ucutlass optimize --baselines` re-measures entries without it).
    entry = {"mean": stats["mean_ms"], "std": stats["std_ms"], "min": stats["min_ms"], "max": stats["max_ms"],
             "num_trials": stats["num_trials"], "median": stats["median_ms"], "hardware": device_name,
             "device": "cuda:0"}
    if stats.get("window"):
        entry["timing_window"] = stats["window"]
    return entry
