#!/usr/bin/env bash
# Builds the npm package's WebAssembly and JS glue with the wasm-bindgen CLI pinned in Cargo.lock
# (no download from GitHub), and prints the .wasm sizes. Two modules:
# - pkg/dist/{web,node}: the core (validation, graphs, paths), what browsers load first;
# - pkg/dist/{web,node}-full: everything, resolver and CEL included; Node uses it directly,
#   browsers load it on demand (`initResolver()`).
set -euo pipefail
cd "$(dirname "$0")/.."
# Whole-program LTO in one codegen unit for the modules: smaller and no slower (the native release
# profile keeps thin LTO for build speed). The two builds use separate target directories so that
# neither invalidates the other.
export CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
cargo build --lib --release --target wasm32-unknown-unknown --no-default-features --target-dir "${CARGO_TARGET_DIR:-target}/wasm-core"
# OLM_TEST_HOOKS=1 (the Node tests) adds the test-only hooks to the full module.
cargo build --lib --release --target wasm32-unknown-unknown ${OLM_TEST_HOOKS:+--features test-hooks}
core=${CARGO_TARGET_DIR:-target}/wasm-core/wasm32-unknown-unknown/release/olm_catalog.wasm
full=${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/olm_catalog.wasm
rm -rf pkg/dist
wasm-bindgen --target web --weak-refs --out-dir pkg/dist/web "$core"
wasm-bindgen --target web --weak-refs --out-dir pkg/dist/web-full "$full"
wasm-bindgen --target nodejs --weak-refs --out-dir pkg/dist/node-full "$full"
# The Node glue is CommonJS inside a "type": "module" package.
echo '{ "type": "commonjs" }' > pkg/dist/node-full/package.json
# wasm-opt -O3 (npm `binaryen`, scripts/package.json) shrinks each module and keeps its speed (-Oz
# is no smaller once gzipped and measurably slower on the resolver); the features are those rustc's
# wasm32-unknown-unknown target enables by default, so the output runs wherever the input did.
if [ ! -x scripts/node_modules/.bin/wasm-opt ] || [ scripts/package.json -nt scripts/node_modules/.package-lock.json ]; then
  npm install --prefix scripts --no-audit --no-fund --silent
fi
for f in pkg/dist/web/olm_catalog_bg.wasm pkg/dist/web-full/olm_catalog_bg.wasm pkg/dist/node-full/olm_catalog_bg.wasm; do
  scripts/node_modules/.bin/wasm-opt -O3 --enable-bulk-memory --enable-mutable-globals --enable-multivalue \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext "$f" -o "$f"
done
for f in pkg/dist/web/olm_catalog_bg.wasm pkg/dist/web-full/olm_catalog_bg.wasm; do
  raw=$(wc -c < "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  echo "build-pkg: $f $((raw / 1024)) KB raw, $((gz / 1024)) KB gzipped"
done
