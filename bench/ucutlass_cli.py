"""The ucutlass executable as the benches use it: `check --json` and `build --json`.

Both benches treat the executable as a black box and keep its JSON as is, so a
result file shows exactly what the compiler said. Anything that is not the
documented JSON (a crash, a usage error, unparsable output) raises HarnessError.
"""

import json
import os
import shlex
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_EXE = REPO / "build" / "ucutlass"
# check and build exit 0 when everything is fine and 1 when some program is not;
# anything else means the command itself failed.
_OK_CODES = (0, 1)


class HarnessError(Exception):
    """The bench could not do its job (as opposed to a kernel failing a test)."""


def find_exe(arg=None):
    exe = Path(arg or os.environ.get("UCUTLASS_EXE") or DEFAULT_EXE)
    if not exe.is_file() or not os.access(exe, os.X_OK):
        raise HarnessError(f"ucutlass executable not found at {exe}; build it with scripts/build or pass --ucutlass")
    return exe.resolve()


def _run_json(cmd, timeout=None):
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise HarnessError(f"{shlex.join(map(str, cmd[:3]))} ... timed out after {timeout} s") from e
    seconds = time.monotonic() - start
    if proc.returncode not in _OK_CODES:
        raise HarnessError(f"{shlex.join(map(str, cmd[:3]))} ... exited {proc.returncode}:\n"
                           f"{proc.stderr[-4000:]}{proc.stdout[-2000:]}")
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise HarnessError(f"{shlex.join(map(str, cmd[:3]))} ... printed no JSON ({e}):\n{proc.stdout[-2000:]}"
                           f"{proc.stderr[-2000:]}") from e
    return doc, seconds, proc.stderr


def check(exe, files):
    """`ucutlass check --json FILES`: one record per file, in order (file, ok, diagnostics, hash, kernels)."""
    files = [str(f) for f in files]
    if not files:
        return []
    doc, _, _ = _run_json([str(exe), "check", "--json", *files])
    records = doc.get("files")
    if not isinstance(records, list) or len(records) != len(files):
        raise HarnessError(f"ucutlass check --json returned {len(records or [])} records for {len(files)} files")
    return records


def build(exe, files, jobs, cache_dir=None, timeout=None):
    """`ucutlass build --json -j JOBS FILES`: the whole JSON document plus the command and its wall time."""
    cmd = [str(exe), "build", "--json", "-j", str(jobs)]
    if cache_dir:
        cmd += ["--cache-dir", str(cache_dir)]
    cmd += [str(f) for f in files]
    doc, seconds, stderr = _run_json(cmd, timeout=timeout)
    results = doc.get("results")
    if not isinstance(results, list) or len(results) != len(files):
        raise HarnessError(f"ucutlass build --json returned {len(results or [])} results for {len(files)} files")
    doc["command"] = shlex.join(cmd)
    doc["wall_seconds"] = seconds
    doc["stderr_tail"] = stderr[-4000:]
    return doc


def find_prebuilt(directory, program_hash):
    """(library, manifest) for `program_hash` anywhere under `directory` (a `build -o` folder or a
    kernel cache), or None."""
    name = f"libucutlass_{program_hash}.so"
    for lib in sorted(Path(directory).rglob(name)):
        manifest = lib.with_name(f"ucutlass_{program_hash}.json")
        return str(lib.resolve()), str(manifest.resolve()) if manifest.is_file() else None
    return None
