#!/usr/bin/env python3
"""Records `ucutlass calibrate` on the current GPU as a bench result.

    python3 bench/run_calibrate.py [--ucutlass build/ucutlass] [--out FILE|DIR]

Runs `ucutlass calibrate --json`, which measures the GPU's ceilings and compares each with the
datasheet and with shared/facts/gpu.md's figures, and writes bench/results/calibrate-<date>.json
with the command, commit, driver and every figure the tool printed (nothing typed by hand).
Exit status: the calibrate command's, or 2 on a usage error.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ucutlass", default=str(REPO / "build" / "ucutlass"))
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    started = provenance.now()
    cmd = [args.ucutlass, "calibrate", "--json", "--timeout", str(args.timeout)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        report = None
    result = {
        "format": "ucutlass-bench-calibrate", "version": 1,
        "date": started.isoformat(), **provenance.command(), "git": provenance.git_state(),
        "host": provenance.host(), "driver": provenance.driver_version(), "nvcc": provenance.nvcc_version(),
        "tool_command": cmd, "exit_code": proc.returncode, "report": report,
        "stderr_tail": proc.stderr[-4000:],
    }
    out = provenance.result_path(args.out, "calibrate", started)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(proc.stderr[-2000:], file=sys.stderr)
    print(json.dumps(report, indent=1)[:6000] if report else proc.stdout[-3000:])
    print(f"wrote {out}")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
