#!/usr/bin/env bash
# Two promises of the npm package's WebAssembly, checked by `make test`:
# - size: the browsers' core module (pkg/dist/web, what every page loads first) is at most 250 KB
#   (256,000 bytes) once compressed with `gzip -9`, and the resolver's module at most 550 KB;
# - reproducibility: the same commit builds the same bytes. The core is built a second time from a
#   copy of the source tree in another directory, with a target directory of its own, and its
#   module and JS glue must be byte-identical to pkg/dist/web's (the nightly is pinned in
#   scripts/nightly-toolchain).
#
#   scripts/check-wasm.sh            both checks (builds pkg/dist/web first if it is missing)
#   scripts/check-wasm.sh --size     the size check alone
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
[ -f pkg/dist/web/olm_catalog_bg.wasm ] || scripts/build-pkg.sh --core

status=0
# budget MODULE BYTES: the module's gzip -9 size against its budget.
budget() {
  local f=$1 max=$2 gz
  [ -f "$f" ] || { echo "check-wasm: $f is missing (run scripts/build-pkg.sh)" >&2; status=1; return; }
  gz=$(gzip -9 -c "$f" | wc -c)
  if [ "$gz" -le "$max" ]; then
    echo "check-wasm: $f is $gz bytes gzipped, within its budget of $max ($((max - gz)) to spare)"
  else
    echo "check-wasm: $f is $gz bytes gzipped, $((gz - max)) over its budget of $max" >&2
    status=1
  fi
}
budget pkg/dist/web/olm_catalog_bg.wasm 256000
[ -f pkg/dist/web-resolver/olm_catalog_bg.wasm ] && budget pkg/dist/web-resolver/olm_catalog_bg.wasm 563200
[ "${1:-}" = --size ] && exit "$status"

# The second build, from a copy of the tree (tracked and new files, not what .gitignore ignores).
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"
done | tar --null -cf - -T - | tar -xf - -C "$copy"
# wasm-opt and wasm-dis from the repo's scripts/node_modules (npm `binaryen`), not installed again.
[ -d scripts/node_modules ] && ln -s "$repo/scripts/node_modules" "$copy/scripts/node_modules"
(cd "$copy" && env -u CARGO_TARGET_DIR scripts/build-pkg.sh --core >/dev/null)
for f in olm_catalog_bg.wasm olm_catalog.js; do
  a=$(sha256sum < "pkg/dist/web/$f" | cut -c1-64)
  b=$(sha256sum < "$copy/pkg/dist/web/$f" | cut -c1-64)
  if [ "$a" = "$b" ]; then
    echo "check-wasm: pkg/dist/web/$f built twice, the same bytes (sha256 $a)"
  else
    echo "check-wasm: pkg/dist/web/$f differs between two builds of the same tree ($a, $b)" >&2
    status=1
  fi
done
exit "$status"
