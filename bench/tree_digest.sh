#!/usr/bin/env bash
# Whether a device call ran the code of the commit its results name (NO_SRC packs, device_pack.sh):
#   bench/tree_digest.sh write DEST     here, in the checkout: DEST/tree.sha256 (the tracked code's
#                                       digests) and DEST/dirty-at-pack if the code has uncommitted edits
#   bench/tree_digest.sh check DEST TREE  there: prints 1 if TREE is not that commit's code, else 0
#
# Only code is hashed, not bench/results or tests/optimize/stores: those are data a call reads or
# appends to, and are moved out of the checkout before packing to keep the carry under 64 MiB
# (sessions 22-23 hashed them too, so every such call was marked dirty for files it never ran).
# The digests are of the working tree, which is what travels; edits not yet committed would match
# there and pass as the commit, so they are recorded here instead.
set -eu
# The same data paths as bench/provenance.py's DATA_PATHS (whose dirty flag counts code alike).
code=(-- . ':!bench/results' ':!tests/optimize/stores')
case ${1:-} in
  write)
    dest=$2
    rm -f "$dest/dirty-at-pack"
    git ls-files -z "${code[@]}" | xargs -0 sha256sum >"$dest/tree.sha256"
    if [ -n "$(git status --porcelain --untracked-files=no "${code[@]}")" ]; then
      : >"$dest/dirty-at-pack"
      echo "device_pack: uncommitted edits: the device's results will say dirty" >&2
    fi ;;
  check)
    dest=$2 tree=$3
    if [ -f "$dest/dirty-at-pack" ] || ! (cd "$tree" && sha256sum --quiet --status -c "$dest/tree.sha256" 2>/dev/null); then
      echo 1
    else
      echo 0
    fi ;;
  *) echo "usage: bench/tree_digest.sh write DEST | check DEST TREE" >&2; exit 2 ;;
esac
