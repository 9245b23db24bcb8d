"""Where a bench result came from: command line, date, git commit, tool versions.

Every field is read from the machine at run time; a field that cannot be read
is None, never a guess.
"""

import datetime
import os
import pathlib
import platform
import shlex
import subprocess
import sys
from pathlib import Path

from ucutlass_cli import REPO


def _output(cmd, cwd=None):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=30, cwd=cwd)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def now():
    return datetime.datetime.now(datetime.timezone.utc)


def file_stamp(t):
    """A date-and-time stamp safe in file names: 2026-12-01-143005."""
    return t.strftime("%Y-%m-%d-%H%M%S")


def result_path(out, name, started):
    """Where a bench writes its result: `out` itself when it names a file, else
    `out/<name>-<stamp>.json` (bench/results/ by default), or `<stamp>-2`, `-3`... where a result of
    the same second is there already (three replays of one shell line once overwrote each other, and a
    recorded result is never replaced by a stamped one); the folder is created."""
    out = Path(out)
    if out.is_dir() or not out.suffix:
        stamp, n = file_stamp(started), 1
        out = out / f"{name}-{stamp}.json"
        while out.exists():
            n += 1
            out = out.parent / f"{name}-{stamp}-{n}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def write_result(out, name, started, doc, indent=1):
    """Writes a bench's result document where result_path says, says so, and returns the path."""
    import json
    path = result_path(out, name, started)
    path.write_text(json.dumps(doc, indent=indent) + "\n")
    print(f"wrote {path}")
    return path


def _commit_from_files():
    """HEAD's commit read from .git itself, for a machine without the git program."""
    git_dir = REPO / ".git"
    try:
        head = (git_dir / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head
        ref = head[5:]
        if (git_dir / ref).is_file():
            return (git_dir / ref).read_text().strip()
        for line in (git_dir / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0]
    except OSError:
        pass
    return None


# Data, not code: the same paths bench/tree_digest.sh leaves out of a device call's digest.
DATA_PATHS = ("bench/results", "tests/optimize/stores")


def git_state():
    """Commit and dirtiness of the checkout: from git; else from the .git folder (the device machine
    may lack the git program); else from $UCUTLASS_GIT_COMMIT (and $UCUTLASS_GIT_DIRTY), set by whoever
    launched the run."""
    # safe.directory: the device machine runs as root over a copy owned by another user.
    git = ["git", "-c", "safe.directory=*"]
    # Only this tree's own repository counts: an archive unpacked inside another checkout (the device
    # runs build/devtree inside a copy of the working tree) would otherwise report that checkout's
    # HEAD, as the 2026-11-30 device runs did (e89a63d, dirty, for commit e47a672).
    top = _output(git + ["rev-parse", "--show-toplevel"], cwd=REPO)
    own = bool(top) and pathlib.Path(top).resolve() == REPO.resolve()
    commit = _output(git + ["rev-parse", "HEAD"], cwd=REPO) if own else None
    if commit:
        # dirty: the code differs from the commit. The data a result is computed from (run stores,
        # earlier results) is reported apart: a collect step rewrites the stores before it summarises
        # them, so counting them made every summary dirty while its code was the commit's (session 24).
        code = _output(git + ["status", "--porcelain", "--untracked-files=no", "--", "."]
                       + [":!" + d for d in DATA_PATHS], cwd=REPO)
        data = _output(git + ["status", "--porcelain", "--untracked-files=no", "--"] + list(DATA_PATHS), cwd=REPO)
        return {"commit": commit, "dirty": bool(code), "data_modified": bool(data), "source": "git"}
    commit = _commit_from_files() if (REPO / ".git").exists() else None
    if commit:
        return {"commit": commit, "dirty": None, "source": ".git files (no git program)"}
    env = os.environ.get("UCUTLASS_GIT_COMMIT")
    # UCUTLASS_GIT_DIRTY: 1 where the launcher found the tree differing from that commit, 0 where it
    # checked and it did not, unset where nobody checked.
    flag = os.environ.get("UCUTLASS_GIT_DIRTY")
    source = "UCUTLASS_GIT_COMMIT"
    if not env:
        # A later call on the still-warm machine that skips the unpack and runs a bench script directly
        # (not through device_steps.sh, which sources it) has the environment in the tree's .device-env
        # alone: session 33's sanitize follow-up wrote a record with no commit for want of it.
        saved = device_env(REPO / ".device-env")
        env, flag, source = saved.get("UCUTLASS_GIT_COMMIT"), saved.get("UCUTLASS_GIT_DIRTY"), ".device-env"
    return {"commit": env or None, "dirty": {"1": True, "0": False}.get(flag) if env else None,
            "source": source if env else None}


def device_env(path):
    """The NAME=VALUE pairs of bench/device_unpack.sh's `export ...` line saved at `path`; {} without it."""
    try:
        line = pathlib.Path(path).read_text().strip()
    except OSError:
        return {}
    words = line.split()
    if not words or words[0] != "export":
        return {}
    return dict(w.split("=", 1) for w in words[1:] if "=" in w)


def nvcc_version():
    out = _output(["nvcc", "--version"]) or _output(["/usr/local/cuda/bin/nvcc", "--version"])
    if not out:
        return None
    lines = [line for line in out.splitlines() if "release" in line]
    return lines[-1].strip() if lines else out.splitlines()[-1]


def driver_version():
    out = _output(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"])
    return out.splitlines()[0].strip() if out else None


def gpu_name():
    out = _output(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"])
    return out.splitlines()[0].strip() if out else None


def command():
    """The exact command line that started this process."""
    argv = [os.path.basename(sys.executable)] + sys.argv
    return {"command": shlex.join(argv), "argv": sys.argv, "cwd": os.getcwd()}


def host():
    return {"hostname": platform.node(), "python": platform.python_version(), "cpu_count": os.cpu_count()}
