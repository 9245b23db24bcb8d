#!/usr/bin/env python3
"""Records a labelled suite of gamed / honest / crashing solutions, evaluated on the current GPU.

    python3 bench/run_adversarial.py DIR [--out FILE|DIR] [harness eval flags...]

Runs `python3 -m ucutlass_harness adversarial DIR` (every solution with a `# ucutlass-adversarial:`
line, each in a fresh isolated worker, extensions prebuilt in parallel first) and writes
bench/results/<DIR name>-<date>.json: the harness's report (per case: expected verdicts or signals,
the verdict and signals it got, caught / missed / false_alarm / honest_ok) with the date, command,
commit, driver and GPU. Used for tests/adversarial (integrity signals) and tests/isolation
(crash, illegal address, hang and out-of-memory candidates followed by honest ones).
Exit status: 0 when every case came out as labelled (no miss, no false alarm), else 1; 2 on usage.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import provenance  # noqa: E402
from ucutlass_cli import REPO  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    args, harness_flags = ap.parse_known_args()
    started = provenance.now()
    suite = Path(args.dir).resolve().name
    env = dict(os.environ, PYTHONPATH=str(REPO / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory(prefix="ucutlass_adv_") as tmp:
        report_file = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "ucutlass_harness", "adversarial", args.dir, "--out", str(report_file),
               "--out-dir", str(Path(tmp) / "cases"), *harness_flags]
        proc = subprocess.run(cmd, env=env)
        try:
            report = json.loads(report_file.read_text())
        except (OSError, json.JSONDecodeError):
            report = None
        for case in (report or {}).get("cases", []):  # what each verdict rests on, kept with the record
            try:
                full = json.loads((Path(tmp) / "cases" / case["result_file"]).read_text())
            except (OSError, KeyError, json.JSONDecodeError):
                continue
            case["signals_fired"] = {s["name"]: s.get("detail", "") for s in full.get("signals", []) if s.get("fired")}
            case["error"] = full.get("error")
            case["worker"] = {k: v for k, v in (full.get("worker") or {}).items() if k != "stdout_tail"}
            case["kernels"] = full.get("kernels")
    counts = (report or {}).get("counts") or {}
    doc = {"format": "ucutlass-bench-adversarial", "version": 1, "date": started.isoformat(),
           "finished": provenance.now().isoformat(), **provenance.command(), "harness_command": cmd,
           "exit_code": proc.returncode, "git": provenance.git_state(), "host": provenance.host(),
           "driver": provenance.driver_version(), "gpu": provenance.gpu_name(), "suite": suite, "counts": counts,
           "report": report}
    out = provenance.result_path(args.out, suite, started)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    bad = counts.get("missed", 0) + counts.get("false_alarm", 0)
    print(f"{suite}: {counts} -> {out}", file=sys.stderr)
    return 1 if report is None or bad else 0


if __name__ == "__main__":
    sys.exit(main())
