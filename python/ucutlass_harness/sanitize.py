"""A solution's forward pass under NVIDIA's compute-sanitizer: gaming pattern 14's defence.

A kernel that reads or writes past its buffers can still pass the harness: the bytes it reads may hold
the reference's freed output, or an out-of-bounds write may land in memory nobody compares. The
harness's trials do not see that; compute-sanitizer's memcheck does (racecheck: shared-memory hazards,
initcheck: reads of global memory never written, synccheck: barrier misuse).

`sanitize(problem, solution, tools)` runs, for each tool, a fresh child process under
`compute-sanitizer --tool T` that builds the ModelNew exactly as the harness does (same seed, same
init inputs, the problem distribution's inputs on the GPU) and calls it twice, so both a solution's
first call and its cached-launch path run instrumented. The child runs with PyTorch's caching allocator
off (PYTORCH_NO_CUDA_MEMORY_CACHING=1): every tensor is its own allocation, so an access past one
tensor's end is past an allocation's end, which is what memcheck can see; inside the cache's large
blocks it could not.

Per tool the verdict is one of
  clean              the tool ran to its summary and reported no error
  errors             it reported errors (the first report lines are kept)
  candidate_failed   the solution raised (import, build, construction, forward) with no tool error
  tool_failed        the tool never reached its summary (e.g. an unsupported device)
  timeout            the run outlasted its seconds and was killed with its process group
and the result's verdict is clean only where every tool's is. A sanitizer that cannot be found raises
SanitizerMissing: no verdict is made up for a check that did not run.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

from . import prebuild

TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")
# compute-sanitizer's exit status where the tool found errors (--error-exitcode); the child's own
# failures exit CHILD_FAILED, so the two never read alike.
ERRORS_EXIT = 86
CHILD_FAILED = 3
REPORT_LINES = 20
CHILD_MARK = "sanitize child: "  # the child's failure line (stderr), its exception after it

_ERROR_SUMMARY = re.compile(r"^=+ ERROR SUMMARY: (\d+) errors?", re.M)
_RACE_SUMMARY = re.compile(r"^=+ RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", re.M)
_TOOL_LINE = re.compile(r"^=+ ?(.*)$")


class SanitizerMissing(Exception):
    """No compute-sanitizer executable where one was looked for."""


def find_sanitizer(explicit=None):
    """The compute-sanitizer to run: `explicit`, else $UCUTLASS_COMPUTE_SANITIZER, else the PATH's, else
    the CUDA toolkit's (beside nvcc, $CUDA_HOME/bin, /usr/local/cuda/bin)."""
    looked = []
    candidates = [explicit] if explicit else []
    if not explicit:
        candidates.append(os.environ.get("UCUTLASS_COMPUTE_SANITIZER"))
        candidates.append(shutil.which("compute-sanitizer"))
        nvcc = shutil.which("nvcc")
        if nvcc:
            candidates.append(os.path.join(os.path.dirname(os.path.realpath(nvcc)), "compute-sanitizer"))
        for home in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
            if home:
                candidates.append(os.path.join(home, "bin", "compute-sanitizer"))
    for c in candidates:
        if not c:
            continue
        looked.append(c)
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    raise SanitizerMissing("compute-sanitizer not found (looked at " + (", ".join(looked) or "nothing") +
                           "); it ships with the CUDA toolkit: give its path with --sanitizer")


def command(sanitizer, tool, problem_path, solution_path, seed, device="cuda", python=None):
    """The argv of one tool's run: the sanitizer, then this package's child under the same Python."""
    if tool not in TOOLS:
        raise ValueError(f"unknown sanitizer tool {tool!r}; one of {', '.join(TOOLS)}")
    return [sanitizer, "--tool", tool, "--error-exitcode", str(ERRORS_EXIT), "--print-limit", str(REPORT_LINES),
            "--target-processes", "all",
            python or sys.executable, "-m", "ucutlass_harness", "_sanitize_child", problem_path, solution_path, str(seed),
            device]


def child_env(ext_cache=None, base=None):
    """The child's environment: this package importable, the caching allocator off, and the solution's
    extensions found where the campaign built them (`ext_cache`, its TORCH_EXTENSIONS_DIR)."""
    env = dict(os.environ if base is None else base)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    env["PYTORCH_NO_CUDA_MEMORY_CACHING"] = "1"
    if ext_cache:
        env["TORCH_EXTENSIONS_DIR"] = os.path.abspath(ext_cache)
    return env


def parse_report(text):
    """compute-sanitizer's output -> errors (None when no summary line), racecheck's warnings, and the
    first report lines (its "=========" lines, the summary and the tool's opening banner left out: the banner
    says nothing about the run and took the first of the few lines kept)."""
    errors, warnings = None, None
    race = _RACE_SUMMARY.search(text)
    summary = _ERROR_SUMMARY.search(text)
    if race:
        errors, warnings = int(race.group(2)), int(race.group(3))
    if summary:
        errors = max(errors or 0, int(summary.group(1)))
    report = []
    for line in text.splitlines():
        m = _TOOL_LINE.match(line)
        if not m or m.group(1).strip() in ("", "COMPUTE-SANITIZER") or "SUMMARY:" in line:
            continue
        report.append(m.group(1).strip())
        if len(report) == REPORT_LINES:
            break
    return {"errors": errors, "warnings": warnings, "report": report}


def tool_verdict(returncode, parsed, timed_out, child_failed=False):
    """`child_failed`: the child printed its failure line (CHILD_MARK), so it ran and the solution failed,
    whatever the tool printed after it: a child that fails before its first CUDA call may leave the tool
    with nothing instrumented and no summary line. Without the mark and the summary the tool did not run
    the program through: compute-sanitizer 2025.2 on a machine with no CUDA driver prints "Target
    application terminated before first instrumented API call" and exits 255 without starting it (seen
    here), which is tool_failed."""
    if timed_out:
        return "timeout"
    if parsed["errors"]:
        return "errors"
    if returncode == ERRORS_EXIT:
        return "errors"
    if child_failed:
        return "candidate_failed"
    if parsed["errors"] is None:
        return "tool_failed"
    if returncode != 0:
        return "candidate_failed"
    return "clean"


def run_tool(argv, env, timeout):
    """One tool's run, its process group killed at `timeout` seconds."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            start_new_session=True)
    timed_out = False
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = proc.communicate()
    parsed = parse_report(out or "")
    child_failed = any(line.startswith(CHILD_MARK) for line in (out or "").splitlines())
    verdict = tool_verdict(proc.returncode, parsed, timed_out, child_failed)
    tail = [line for line in (out or "").splitlines() if not _TOOL_LINE.match(line)][-REPORT_LINES:]
    return {"verdict": verdict, "returncode": proc.returncode, "errors": parsed["errors"],
            "warnings": parsed["warnings"], "report": parsed["report"], "child_output_tail": tail,
            "wall_s": round(time.monotonic() - t0, 3)}


def sanitize(problem_path, solution_path, tools=("memcheck",), timeout=600.0, seed=42, ext_cache=None,
             sanitizer=None, device="cuda"):
    """Every tool's run over one solution, and the overall verdict (clean only if each is). `device` "cpu"
    runs the same flow without a GPU (for tests with a stand-in sanitizer)."""
    exe = find_sanitizer(sanitizer)
    env = child_env(ext_cache)
    deadline = time.monotonic() + timeout
    runs = {}
    for tool in tools:
        left = deadline - time.monotonic()
        if left <= 0:
            runs[tool] = {"verdict": "timeout", "returncode": None, "errors": None, "warnings": None, "report": [],
                          "child_output_tail": [], "wall_s": 0.0}
            continue
        runs[tool] = run_tool(command(exe, tool, os.path.abspath(problem_path), os.path.abspath(solution_path), seed,
                                     device), env, left)
        if runs[tool]["verdict"] == "timeout" and (lock := prebuild.release_killed_build(ext_cache, solution_path)):
            runs[tool]["released_build_lock"] = lock
    verdict = "clean" if all(r["verdict"] == "clean" for r in runs.values()) else next(
        r["verdict"] for r in runs.values() if r["verdict"] != "clean")
    return {"format": "ucutlass-sanitize", "version": 1, "problem": problem_path, "solution": solution_path, "seed": seed,
            "sanitizer": exe, "tools": runs, "verdict": verdict}


def child_main(problem_path, solution_path, seed, device="cuda"):
    """The instrumented process: the harness's construction of the ModelNew, then two forward calls."""
    try:
        import torch

        from . import evaluate, problem
        seed = int(seed)
        prob = problem.load_module(problem_path, "problem")
        torch.manual_seed(seed)
        init_inputs = list(prob.get_init_inputs())
        solution = problem.load_module(solution_path, "solution")
        torch.manual_seed(seed)
        model = solution.ModelNew(*init_inputs).to(device)
        inputs = evaluate.make_inputs(prob, seed, "problem", device)
        with torch.no_grad():
            for _ in range(2):
                model(*inputs)
        if torch.device(device).type == "cuda":
            torch.cuda.synchronize()
    except Exception as e:  # the solution's failure, reported as such: the tool's verdict stays its own
        print(f"{CHILD_MARK}{type(e).__name__}: {str(e)[-2000:]}", file=sys.stderr)
        sys.exit(CHILD_FAILED)
    sys.exit(0)
