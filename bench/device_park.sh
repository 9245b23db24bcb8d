#!/usr/bin/env bash
# The device tool sends every tracked file of the checkout and refuses a tree over 64 MiB; the campaign
# stores in bench/results and tests/optimize/stores outgrew that (about 110 MB by 2026-12-04). A device
# call reads one file there, bench/results/baselines-h200.json (optimize's --baselines), so the two
# folders are moved into build/ (ignored, so it does not travel, and on the same disk, so the move is
# instant) for the call and put back before its results are collected:
#   bench/device_park.sh park     before the call (the baselines file stays)
#   bench/device_park.sh unpark   after it
# Parked, the tree shows those files deleted: commit nothing until unparked. The code's digests
# (bench/tree_digest.sh) leave these folders out, so a parked call is not marked dirty for them.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
parked=build/parked
keep=bench/results/baselines-h200.json
case ${1:-} in
  park)
    [ ! -e "$parked" ] || { echo "device_park: $parked exists: unpark first" >&2; exit 1; }
    mkdir -p "$parked"
    mv bench/results "$parked/results"
    mv tests/optimize/stores "$parked/stores"
    mkdir -p bench/results && cp "$parked/results/$(basename "$keep")" "$keep" ;;
  unpark)
    [ -d "$parked/results" ] && [ -d "$parked/stores" ] || { echo "device_park: nothing parked in $parked" >&2; exit 1; }
    rm -f "$keep" && rmdir bench/results
    mv "$parked/results" bench/results
    mv "$parked/stores" tests/optimize/stores
    rmdir "$parked" ;;
  *) echo "usage: bench/device_park.sh park | unpark" >&2; exit 2 ;;
esac
