#!/usr/bin/env python3
"""Stands in for NVIDIA's compute-sanitizer where there is none (this machine has no GPU): takes the
tool's options, runs the rest of its command line, prints the summary line the real tool prints, and
exits as it would (its --error-exitcode where it found errors, else the program's own status).
STAND_IN_ERRORS=N plays a tool that found N errors. Only the harness's side is under test with it."""
import os
import subprocess
import sys

args = sys.argv[1:]
code = int(args[args.index("--error-exitcode") + 1])
program = args[args.index("--target-processes") + 2:]
rc = subprocess.run(program).returncode
errors = int(os.environ.get("STAND_IN_ERRORS", "0"))
print("========= COMPUTE-SANITIZER")
if errors:
    print("========= Invalid __global__ read of size 16 bytes")
print(f"========= ERROR SUMMARY: {errors} error{'s' if errors != 1 else ''}")
sys.exit(code if errors else rc)
