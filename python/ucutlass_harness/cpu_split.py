"""Cores of their own for the evaluations while extensions build beside them.

Why: a candidate's measured time includes the host's share of its call (Python, the binding, CUTLASS's
initialize, the launches), since the start event is recorded on an idle GPU before the call. With
--overlap-builds, up to 15 builds per GPU (each ninja running nvcc and g++ at once) shared every core
with the evaluation: on the H200 host, session 18 measured the same program's host time at a median of
73 us in one evaluation and 171 us in the next, and its trial time 0.239 ms against 0.317 ms. The
candidate was no slower; the evaluation had lost its core to the compilers. A user runs the solution on
a machine that is not compiling 15 kernels, so those times were both wrong and noisy.

So the machine's cores are split: the evaluations keep two cores per GPU (with their SMT siblings, so
that no compiler runs on the other half of an evaluation's core), the builds get the rest. Affinity is
inherited, so a build's nvcc, cicc, ptxas and g++ stay on the build cores. No split where too few cores
would be left to the builds: then everything shares, as before, and the record says so.

A process confines itself (`confine_from_env`) when UCUTLASS_CPUS names its cores; the parent sets the
variable for the workers and the build processes it starts.

Measured (bench/host_isolation.py, H200 host, 10 written solutions, one nvcc compile per CPU as the load,
2026-12-01): the split brought back the idle machine's time for the two GEMM programs whose re-measures had
shown the slowdown (level2/016 0.224 ms split, 0.296 shared, 0.240 idle; level2/002 0.246, 0.329, 0.245)
but not overall (geomean time over idle: shared 1.041, split 1.077; level1/026 0.352 split against 0.168
shared). So it is opt-in (batch --cpu-split) until a run with more rounds says more.
"""

import os

ENV = "UCUTLASS_CPUS"
EVAL_CORES_PER_DEVICE = 2
MIN_BUILD_CPUS = 2


def _siblings(cpu):
    """The logical CPUs sharing `cpu`'s physical core (itself included), from sysfs; {cpu} if unknown."""
    path = f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"
    try:
        with open(path, encoding="ascii") as f:
            return parse_list(f.read()) | {cpu}
    except (OSError, ValueError):
        return {cpu}


def parse_list(text):
    """'0-3,8,10-11' -> {0, 1, 2, 3, 8, 10, 11} (the kernel's cpulist format)."""
    cpus = set()
    for part in text.strip().split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        first, last = int(lo), int(hi or lo)
        if first < 0 or last < first:
            raise ValueError(f"bad CPU range {part!r}")
        cpus.update(range(first, last + 1))
    return cpus


def format_list(cpus):
    """The inverse of parse_list, with runs folded: {0, 1, 2, 5} -> '0-2,5'."""
    out, run = [], []
    for c in sorted(cpus):
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [c]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


def split(devices, allowed=None, siblings=_siblings):
    """(eval_cpus, build_cpus) for `devices` GPUs evaluating beside builds, or None (no split).

    The evaluations take whole physical cores from the top of `allowed` (this process's affinity by
    default), EVAL_CORES_PER_DEVICE per device; None when fewer than MIN_BUILD_CPUS would remain.
    """
    allowed = set(os.sched_getaffinity(0) if allowed is None else allowed)
    want = EVAL_CORES_PER_DEVICE * max(1, devices)
    evals, cores = set(), 0
    for cpu in sorted(allowed, reverse=True):
        if cores == want:
            break
        if cpu in evals:
            continue
        evals |= siblings(cpu) & allowed
        cores += 1
    builds = allowed - evals
    if cores < want or len(builds) < MIN_BUILD_CPUS:
        return None
    return evals, builds


def confine_from_env():
    """Restricts this process to UCUTLASS_CPUS (those of them it may use); the cores, or None."""
    text = os.environ.get(ENV, "").strip()
    if not text or not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpus = parse_list(text) & os.sched_getaffinity(0)
        if cpus:
            os.sched_setaffinity(0, cpus)
            return cpus
    except (OSError, ValueError):
        pass  # a bad list or a refused call leaves the process where it was; never a failure
    return None
