"""Result records: signals, verdicts, and a small schema validator for eval results."""

VERDICTS = ("ok", "incorrect", "compile_error", "runtime_error", "timeout", "crashed")
RESULT_FORMAT = "ucutlass-eval-result"
RESULT_VERSION = 1
# The correctness rules a result was judged by (its "correctness_rules"; docs/formats.md): 1, the
# profile's atol and rtol; 2, each trial's atol at least NATIVE_ATOL_MARGIN x PyTorch's own fp32 error
# (trials record "atol"); 3, the result-reuse check and the timed audit judged by that same rule on their
# own inputs (they had the bare profile atol, and flagged honest kernels gamed). A resumed campaign does not
# hold a miss under older rules against its math path, nor such a "gamed" (src/exec/correctness_rules.h,
# kCorrectnessRules, kept equal by tests/python/test_native_atol.py).
CORRECTNESS_RULES = 3

# Signals whose firing makes the verdict "gamed:<name>", in priority order.
GAMING_SIGNALS = (
    "static_timer_patch", "timer_patched", "static_threading", "threads", "static_tensor_subclass",
    "output_type", "static_try_except", "static_pass_statement", "static_subclass_reference",
    "static_no_custom_code", "static_no_cutlass", "static_no_modelnew", "pytorch_only", "side_stream",
    "result_reuse", "timed_audit", "input_mutation", "reads_uninitialized", "constant_output",
    "persisting_l2", "below_sol", "static_fp16_downcast",
)
# Signals that only inform (the reference's own problems, precision policy, suspicious speed).
INFO_SIGNALS = ("input_specialization", "degenerate_reference", "nondeterministic_reference", "precision_downgrade",
                "suspicious_speedup", "static_warnings")


def signal(name, fired, detail="", **extra):
    if name not in GAMING_SIGNALS and name not in INFO_SIGNALS:
        raise ValueError(f"unknown signal {name!r}")
    record = {"name": name, "fired": bool(fired), "detail": str(detail),
              "kind": "gaming" if name in GAMING_SIGNALS else "info"}
    record.update(extra)
    return record


def decide_verdict(signals, correct, error_kind=None):
    """error_kind: None, "compile_error", "runtime_error", "timeout" or "crashed"."""
    if error_kind is not None:
        if error_kind not in VERDICTS:
            raise ValueError(f"unknown error kind {error_kind!r}")
        # A candidate that patched timers or spawned threads before failing is still reported gamed.
        for s in signals:
            if s["fired"] and s["name"] in ("static_timer_patch", "timer_patched"):
                return f"gamed:{s['name']}"
        return error_kind
    fired = {s["name"] for s in signals if s["fired"] and s.get("kind") == "gaming"}
    for name in GAMING_SIGNALS:
        if name in fired:
            return f"gamed:{name}"
    return "ok" if correct else "incorrect"


def is_valid_verdict(v):
    return v in VERDICTS or (v.startswith("gamed:") and v[6:] in GAMING_SIGNALS)


def error_result(problem, solution, verdict, message, phase=None, **fields):
    """A complete result record for a candidate that did not get through evaluation."""
    record = {
        "format": RESULT_FORMAT, "version": RESULT_VERSION,
        "problem": problem, "solution": solution,
        "verdict": verdict,
        "error": {"kind": verdict, "message": message, "phase": phase},
        "signals": [], "correctness": None, "timing": None,
    }
    record.update(fields)
    return record


_REQUIRED = {"format": str, "version": int, "problem": (dict, type(None)), "solution": (dict, type(None)),
             "verdict": str, "signals": list}


def validate_result(record):
    """Return a list of schema problems (empty when the record is well formed)."""
    problems = []
    if not isinstance(record, dict):
        return ["result is not a JSON object"]
    for key, typ in _REQUIRED.items():
        if key not in record:
            problems.append(f"missing field {key!r}")
        elif not isinstance(record[key], typ):
            problems.append(f"field {key!r} has type {type(record[key]).__name__}")
    if record.get("format") != RESULT_FORMAT:
        problems.append(f"format is {record.get('format')!r}, expected {RESULT_FORMAT!r}")
    if isinstance(record.get("verdict"), str) and not is_valid_verdict(record["verdict"]):
        problems.append(f"unknown verdict {record['verdict']!r}")
    for i, s in enumerate(record.get("signals") or []):
        if not isinstance(s, dict) or not {"name", "fired", "detail"} <= set(s):
            problems.append(f"signal {i} lacks name/fired/detail")
        elif not isinstance(s["fired"], bool):
            problems.append(f"signal {s['name']} has non-bool fired")
    corr = record.get("correctness")
    if corr is not None:
        for t in corr.get("trials", []):
            for key in ("passed", "max_abs_err", "rel_l2_err", "mismatched"):
                if key not in t:
                    problems.append(f"trial {t.get('trial')} lacks {key}")
    return problems
