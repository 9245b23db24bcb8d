"""The solution text `ucutlass optimize --no-gpu` writes for a cached suite graph, and the Python helpers it
carries, so tests run the code that ships rather than a copy of it."""
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXE = REPO / "build" / "ucutlass"


def write(fixture, out, *flags):
    """modelnew.py of tests/optimize/graphs/FIXTURE.json, written under OUT with the optimize FLAGS."""
    if not EXE.exists():
        pytest.skip("build/ucutlass not built")
    subprocess.run([str(EXE), "optimize", str(REPO / "tests" / "optimize" / "graphs" / f"{fixture}.json"), *flags,
                    "--no-gpu", "--no-compile", "-o", str(out)], check=True, capture_output=True, timeout=120)
    return (Path(out) / fixture / "modelnew.py").read_text()


def helpers(text, first, torch):
    """The helper definitions from `def FIRST(` up to class ModelNew, executed with `torch` in scope."""
    m = re.search(rf"^def {first}\(.*?(?=^class ModelNew)", text, re.S | re.M)
    assert m, f"no {first} helpers in the solution"
    ns = {"torch": torch}
    exec(m.group(0), ns)
    return ns
