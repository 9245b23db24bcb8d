"""Measures the local GPU's ceilings for ucutlass's Speed-of-Light engine.

`python3 -m ucutlass_calibrate` prints one JSON GPU profile (format
"ucutlass-gpu-profile", source "measured") on stdout; `ucutlass calibrate`
runs it and stores the result. Progress and problems go to stderr.
"""
