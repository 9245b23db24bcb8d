#!/usr/bin/env python3
"""Records eager and torch.compile baselines of a problem folder on the current GPU.

    python3 bench/run_baselines.py [DIR] [--out FILE] [harness baselines flags...]

Runs `python3 -m ucutlass_harness baselines DIR --out FILE --resume ...` (so a suite too long for
one command finishes over several: run the same line again) and then appends this run's provenance
(date, command, commit, driver, GPU) to the report sidecar `<FILE stem>.report.json`. The baseline
file itself stays in KernelBench's format (level keys only), which is what KernelBench tools and
`ucutlass optimize --baselines` read. Default FILE: bench/results/baselines-<gpu>.json.
Exit status: the harness's.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=str(REPO / "problems"))
    ap.add_argument("--out")
    args, harness_flags = ap.parse_known_args()
    gpu = provenance.gpu_name()
    short = (gpu or "cpu").split()[-1].lower()
    out = Path(args.out or REPO / "bench" / "results" / f"baselines-{short}.json")
    started = provenance.now()
    env = dict(os.environ, PYTHONPATH=str(REPO / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "ucutlass_harness", "baselines", args.dir, "--out", str(out), "--resume",
           *harness_flags]
    report_path = out.with_name(out.stem + ".report" + (out.suffix or ".json"))

    def read_report():
        try:
            return json.loads(report_path.read_text())
        except (OSError, json.JSONDecodeError):
            return None

    # The harness rewrites the report on every run: keep the earlier runs' provenance.
    runs = (read_report() or {}).get("provenance_runs") or []
    rc = subprocess.run(cmd, env=env).returncode
    report = read_report() or {"note": "the harness wrote no report"}
    runs.append({"date": started.isoformat(), "finished": provenance.now().isoformat(), **provenance.command(),
                 "harness_command": cmd, "exit_code": rc, "git": provenance.git_state(), "host": provenance.host(),
                 "driver": provenance.driver_version(), "gpu": gpu})
    report["provenance_runs"] = runs
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(json.dumps(report, indent=1) + "\n")
    print(f"baselines: {out} (report {report_path}, run {len(runs)} recorded)", file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
