#!/usr/bin/env bash
# Runs several bench/device_steps.sh streams at once, one GPU each, on a machine with several GPUs,
# so one device call does the work of several: stream i sees only GPU i (CUDA_VISIBLE_DEVICES) and
# gets an equal share of the cores for its builds (DEVICE_JOBS), minus two left for the timing
# processes. Each stream writes its JSONs to OUT/results/gpuI and its log to OUT/gpuI.log; at the end
# everything under OUT/results is packed into OUT/results.tgz (the device tool brings back 8 files).
#
#   bench/device_parallel.sh OUT "[VAR=VALUE ...] STEP[:SECS] ..." ["[VAR=VALUE ...] STEP[:SECS] ..." ...]
#
# Leading VAR=VALUE words set that stream's environment only (later ones set it for the steps after
# them, see bench/device_steps.sh), e.g. two campaigns side by side:
#   "OPTIMIZE_OUT=opt_v01 OPTIMIZE_FLAGS=--profile=kernelbench-v0.1 optimize:540" "OPTIMIZE_OUT=opt_kb optimize:540"
#
# Steps that time kernels run beside another stream's builds: each timing process keeps its own
# cores, and results record the command, so a reader can see what ran alongside (gpuI.log).
set -u
out=${1:?usage: bench/device_parallel.sh OUT "STEPS for GPU 0" ["STEPS for GPU 1" ...]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
streams=$#
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$streams" -gt "${gpus:-0}" ]; then
  echo "device_parallel: $streams streams but $gpus GPUs" >&2
  exit 2
fi
share=$(( ($(nproc) - 2) / streams ))
[ "$share" -ge 1 ] || share=1
mkdir -p "$out/results"
pids=()
i=0
for stream in "$@"; do
  vars=() steps=()
  for word in $stream; do
    if [ ${#steps[@]} -eq 0 ] && [[ $word =~ ^[A-Z_][A-Z0-9_]*= ]]; then vars+=("$word"); else steps+=("$word"); fi
  done
  env "${vars[@]}" CUDA_VISIBLE_DEVICES=$i DEVICE_JOBS=$share TMPDIR="$(mktemp -d "/tmp/stream$i.XXXX")" \
    "$root/bench/device_steps.sh" "$out/results/gpu$i" "${steps[@]}" >"$out/gpu$i.log" 2>&1 &
  pids+=($!)
  i=$((i + 1))
done
rc=0
for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
tar -czf "$out/results.tgz" -C "$out/results" . && rm -rf "$out/results"
exit $rc
