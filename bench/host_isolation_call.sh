#!/usr/bin/env bash
# The device side of bench/host_isolation.py: builds the solutions' extensions, then measures each
# solution idle, beside a load of nvcc compiles, and beside the same load confined by cpu_split.py.
#
#   eval "$(bench/device_unpack.sh)"; cd build/devtree
#   bench/host_isolation_call.sh OUT PROFILE PROBLEM=SOLUTION [PROBLEM=SOLUTION ...]
set -eu
out=$1 profile=$2
shift 2
ext=$(mktemp -d)/ext
python3 - "$ext" "$@" <<'PY'
import sys
sys.path.insert(0, "python")
from ucutlass_harness import prebuild
ext, pairs = sys.argv[1], sys.argv[2:]
for sol, r in prebuild.prebuild_all([p.split("=", 1)[1] for p in pairs], 16, ext, 600).items():
    print(f"built {sol}: {r['status']} ({r['wall_s']} s)", file=sys.stderr)
PY
# The load compiles the largest kernel source among them again and again: what a campaign's builds run.
cu=$(ls -S "$ext"/ucutlass_src_*/*.cu | head -1)
cuda_home=$(python3 -c "from torch.utils.cpp_extension import CUDA_HOME; print(CUDA_HOME)")
c=$UCUTLASS_CUTLASS_DIR
load="$cuda_home/bin/nvcc -std=c++17 -O3 -DNDEBUG --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a"
load="$load -Xcudafe --diag_suppress=esa_on_defaulted_function_ignored -I$c/include -I$c/tools/util/include"
load="$load -c $cu -o /tmp/host_isolation_load_\$\$.o"
python3 bench/host_isolation.py "$profile" "$@" --ext-cache "$ext" --out "$out" --load-cmd "$load"
