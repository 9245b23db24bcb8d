"""Tolerance profiles and per-problem overrides.

A profile maps the reference output's dtype to (atol, rtol). The problem file
may override with a comment line such as ``# ucutlass: tolerance=1e-3`` or
``# ucutlass: atol=1e-3 rtol=1e-2``; a CLI flag overrides both.
"""

import re
from dataclasses import dataclass

PROFILES = {
    # KernelBench main branch: fp32 1e-4, half types 1e-2.
    "kernelbench": {"float32": 1e-4, "float64": 1e-4, "float16": 1e-2, "bfloat16": 1e-2,
                    "float8_e4m3fn": 1e-1, "float8_e5m2": 1e-1},
    # KernelBench v0 / v0.1: 1e-2 everywhere.
    "kernelbench-v0.1": {"float32": 1e-2, "float64": 1e-2, "float16": 1e-2, "bfloat16": 1e-2,
                         "float8_e4m3fn": 1e-1, "float8_e5m2": 1e-1},
}
DEFAULT_PROFILE = "kernelbench"

_OVERRIDE_LINE = re.compile(r"^\s*#\s*ucutlass:\s*(.*)$")
_KEY_VALUE = re.compile(r"(tolerance|atol|rtol)\s*=\s*([0-9.eE+-]+)")


class ToleranceError(ValueError):
    pass


@dataclass(frozen=True)
class Tolerance:
    atol: float
    rtol: float
    profile: str
    source: str  # "profile", "problem-comment" or "cli"

    def to_json(self):
        return {"profile": self.profile, "atol": self.atol, "rtol": self.rtol, "source": self.source}


def parse_override(source_text):
    """Return {"atol": x, "rtol": y} from ``# ucutlass:`` comments, or {}."""
    found = {}
    for line in source_text.splitlines():
        m = _OVERRIDE_LINE.match(line)
        if not m:
            continue
        for key, value in _KEY_VALUE.findall(m.group(1)):
            try:
                number = float(value)
            except ValueError as e:
                raise ToleranceError(f"bad tolerance value {value!r} in line: {line.strip()}") from e
            if number < 0:
                raise ToleranceError(f"negative tolerance in line: {line.strip()}")
            if key == "tolerance":
                found["atol"] = found["rtol"] = number
            else:
                found[key] = number
    return found


def resolve(dtype_name, profile=DEFAULT_PROFILE, problem_override=None, cli_atol=None, cli_rtol=None):
    """Pick (atol, rtol) for an output of dtype `dtype_name` ("float32", ...)."""
    if profile not in PROFILES:
        raise ToleranceError(f"unknown tolerance profile {profile!r}; known: {', '.join(sorted(PROFILES))}")
    table = PROFILES[profile]
    base = table.get(dtype_name, table["float32"])
    atol = rtol = base
    source = "profile"
    if problem_override:
        atol = problem_override.get("atol", atol)
        rtol = problem_override.get("rtol", rtol)
        source = "problem-comment"
    if cli_atol is not None or cli_rtol is not None:
        atol = cli_atol if cli_atol is not None else atol
        rtol = cli_rtol if cli_rtol is not None else rtol
        source = "cli"
    return Tolerance(atol=atol, rtol=rtol, profile=profile, source=source)
