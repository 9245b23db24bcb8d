#!/usr/bin/env bash
# Compiles emitted C API translation units with nvcc, one shared object each,
# and reports wall time and errors. Usage:
#   tests/nvcc/run.sh [-j N] [CASE_DIR...]
# A CASE_DIR holds one program's emitted files (ucutlass_<hash>_capi.cu and its
# header); by default every tests/golden/* case. The architecture comes from
# the manifest: sm80 programs build PTX of compute_80 into Hopper SASS (sm_80
# SASS alone would not run on the H200), everything else sm_90a.
# Each SM90 kernel takes ~45 s on 2 cores; run at most 2 at once on a shared machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cutlass=${UCUTLASS_CUTLASS_DIR:-$root/.deps/nvidia-cutlass/cutlass_library/source}
jobs=1
if [ "${1:-}" = "-j" ]; then jobs=$2; shift 2; fi
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("$root"/tests/golden/*/)
out=${UCUTLASS_NVCC_OUT:-$root/build/nvcc}
mkdir -p "$out"

compile_one() {
  local dir=${1%/} cu manifest arch name log start rc
  cu=$(ls "$dir"/ucutlass_*_capi.cu)
  manifest=${cu%_capi.cu}.json
  name=$(basename "$dir")
  if grep -q '"arch": "sm80"' "$manifest"; then arch="-gencode=arch=compute_80,code=sm_90"
  else arch="-gencode=arch=compute_90a,code=sm_90a"; fi
  log=$out/$name.log
  start=$(date +%s)
  rc=0
  nvcc -std=c++17 -O3 -DNDEBUG -DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1 --expt-relaxed-constexpr -Xcudafe --diag_suppress=esa_on_defaulted_function_ignored \
    $arch -I"$cutlass/include" -I"$cutlass/tools/util/include" -shared -Xcompiler -fPIC \
    -o "$out/$name.so" "$cu" >"$log" 2>&1 || rc=$?
  local secs=$(( $(date +%s) - start ))
  local warnings
  warnings=$(grep -c -i 'warning' "$log" || true)
  if [ $rc -eq 0 ]; then echo "PASS $name ${secs}s ($warnings warning lines, log $log)"
  else echo "FAIL $name ${secs}s (log $log)"; grep -m 5 -i 'error' "$log" || true; fi
  return $rc
}
export -f compile_one
export cutlass out
printf '%s\n' "${cases[@]}" | xargs -P "$jobs" -I{} bash -c 'compile_one "$@"' _ {}
