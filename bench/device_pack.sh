#!/usr/bin/env bash
# Packs what a device call needs into build/devcarry, compressed, so one `carry` path takes it all
# under the device tool's 64 MiB limit (the CUTLASS headers alone are 28 MB raw, 1.1 MB as xz):
#   src.tar.xz        git archive of HEAD (results name that commit; uncommitted edits do not travel;
#                     NO_SRC=1 leaves it out, below)
#   cutlass.tar.xz    the CUTLASS include trees ucutlass and the solutions compile against
#   ucutlass.xz       build/ucutlass, stripped
#   kernel-cache.tar.xz  build/devtree/build/kernel-cache, if present: kernels nvcc-built here by the
#                     checks' --build-only, found there under the same key (the device's checkout is
#                     /work/main as here, so the -I paths in the key match)
#   NAME.tar.xz       each extra folder given (e.g. a campaign's -o folder to resume: unpack the
#                     saved optimize_out.tgz somewhere, pass its opt_* folder, run with OPTIMIZE_OUT=opt_*)
#
#   bench/device_pack.sh [FOLDER ...]      then, on the device: bench/device_unpack.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dest=build/devcarry
rm -rf "$dest" && mkdir -p "$dest"
# NO_SRC=1 leaves the source out: the device's copy of the working tree is then the source (commit
# first), for when the tracked files (bench/results/campaigns' stores) and this folder outgrow the
# device tool's 64 MiB together.
[ -n "${NO_SRC:-}" ] || git archive HEAD | xz -T0 -6 >"$dest/src.tar.xz"
git rev-parse HEAD >"$dest/commit"
# With NO_SRC the device runs whatever working tree the call carries, which may be newer than this
# commit (session 18's host-isolation record named the commit packed before two later ones): the
# tracked code's digests travel, and device_unpack.sh marks the run dirty where the tree differs
# (bench/tree_digest.sh: what counts as code, and why uncommitted edits are flagged here).
[ -z "${NO_SRC:-}" ] || bench/tree_digest.sh write "$dest"
cutlass=${UCUTLASS_CUTLASS_DIR:-$root/.deps/nvidia-cutlass/cutlass_library/source}
tar -C "$cutlass" -cf - include tools/util/include | xz -T0 -6 >"$dest/cutlass.tar.xz"
strip -o "$dest/ucutlass" build/ucutlass && xz -T0 -6 "$dest/ucutlass"
if [ -d build/devtree/build/kernel-cache ]; then
  tar -C build/devtree/build -cf - kernel-cache | xz -T0 -6 >"$dest/kernel-cache.tar.xz"
fi
for folder in "$@"; do
  # Unpacked as build/devtree/<basename>, where a campaign's -o folder was (its evals name that path).
  tar -C "$(dirname "$folder")" -cf - --exclude torch_extensions "$(basename "$folder")" | xz -T0 -6 >"$dest/$(basename "$folder").tar.xz"
done
du -sh "$dest"/* | sed 's/^/device_pack: /'
du -sh "$dest" | sed 's/^/device_pack: total /'
