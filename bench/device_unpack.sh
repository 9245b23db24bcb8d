#!/usr/bin/env bash
# The device side of bench/device_pack.sh: unpacks build/devcarry into build/devtree (the commit's
# tree, with build/ucutlass and the prebuilt kernel cache), the CUTLASS headers where the key of that
# cache expects them, and each extra folder into build/devtree. Prints the environment to export.
#
#   eval "$(bench/device_unpack.sh)"; cd build/devtree; bench/device_parallel.sh $OUT ...
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
carry=$root/build/devcarry
tree=$root/build/devtree
cutlass=$root/.deps/nvidia-cutlass/cutlass_library/source
mkdir -p "$tree/build" "$cutlass"
if [ -f "$carry/src.tar.xz" ]; then
  xz -dc "$carry/src.tar.xz" | tar -x -C "$tree"
else  # packed with NO_SRC=1: the carried working tree is the source
  tar -C "$root" --exclude=./build --exclude=./.deps --exclude=./.git -cf - . | tar -x -C "$tree"
fi
xz -dc "$carry/cutlass.tar.xz" | tar -x -C "$cutlass"
xz -dc "$carry/ucutlass.xz" >"$tree/build/ucutlass" && chmod +x "$tree/build/ucutlass"
[ -f "$carry/kernel-cache.tar.xz" ] && xz -dc "$carry/kernel-cache.tar.xz" | tar -x -C "$tree/build"
for extra in "$carry"/*.tar.xz; do
  case $(basename "$extra") in src.tar.xz|cutlass.tar.xz|kernel-cache.tar.xz) continue ;; esac
  xz -dc "$extra" | tar -x -C "$tree"
done
dirty=0  # the carried tree differs from the packed commit's code (NO_SRC, device_pack.sh)
[ ! -f "$carry/tree.sha256" ] || dirty=$("$root/bench/tree_digest.sh" check "$carry" "$tree")
env_line="export UCUTLASS_GIT_COMMIT=$(cat "$carry/commit") UCUTLASS_GIT_DIRTY=$dirty UCUTLASS_CUTLASS_DIR=$cutlass PYTHONUNBUFFERED=1"
# Kept in the tree too: a later call on the still-warm machine that skips the unpack gets the same
# environment from bench/device_steps.sh (2026-11-30: a resumed campaign without it built nothing).
echo "$env_line" >"$tree/.device-env"
echo "$env_line"
