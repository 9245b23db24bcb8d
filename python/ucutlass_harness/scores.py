"""Timing statistics and benchmark scores (fast_p, geometric mean)."""

import math

FAST_P_THRESHOLDS = (0.0, 0.5, 0.8, 1.0, 1.5, 2.0)


def percentile(sorted_values, q):
    """Linear-interpolated percentile, q in [0, 100], of an ascending list."""
    if not sorted_values:
        raise ValueError("percentile of an empty list")
    if len(sorted_values) == 1:
        return sorted_values[0]
    pos = (len(sorted_values) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = math.ceil(pos)
    frac = pos - lo
    return sorted_values[lo] * (1.0 - frac) + sorted_values[hi] * frac


def timing_stats(times_ms, discard_first=True):
    """Summarize per-trial times (ms). The first trial is dropped when asked."""
    values = list(times_ms[1:] if discard_first and len(times_ms) > 1 else times_ms)
    if not values:
        raise ValueError("no timing trials")
    ordered = sorted(values)
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    p10 = percentile(ordered, 10)
    p90 = percentile(ordered, 90)
    return {
        "num_trials": n,
        "median_ms": percentile(ordered, 50),
        "mean_ms": mean,
        "std_ms": math.sqrt(var),
        "min_ms": ordered[0],
        "max_ms": ordered[-1],
        "p10_ms": p10,
        "p90_ms": p90,
        "spread": (p90 / p10) if p10 > 0 else None,
    }


def geomean(values):
    values = list(values)
    if not values:
        return None
    if any(v <= 0 for v in values):
        raise ValueError("geomean needs positive values")
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fast_p(entries, thresholds=FAST_P_THRESHOLDS):
    """entries: list of (correct: bool, speedup: float|None), one per problem.

    fast_p = fraction of ALL problems that are correct and have speedup > p.
    fast_0 is therefore the correctness rate (speedup > 0 for any timed result).
    """
    entries = list(entries)
    total = len(entries)
    out = {}
    for p in thresholds:
        hits = sum(1 for correct, speedup in entries
                   if correct and speedup is not None and speedup > p)
        if p == 0.0:
            hits = sum(1 for correct, _ in entries if correct)
        out[format_p(p)] = (hits / total) if total else 0.0
    return out


def format_p(p):
    return f"fast_{p:g}"


def summarize_speedups(entries):
    """fast_p table plus geomean speedup over correct problems with a speedup."""
    entries = list(entries)
    correct_speedups = [s for c, s in entries if c and s is not None and s > 0]
    return {
        "num_problems": len(entries),
        "num_correct": sum(1 for c, _ in entries if c),
        "fast_p": fast_p(entries),
        "geomean_speedup_correct": geomean(correct_speedups),
    }
