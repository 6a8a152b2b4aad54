#!/usr/bin/env bash
# Builds the npm package's WebAssembly and JS glue into pkg/dist/{web,node} with the wasm-bindgen
# CLI pinned in Cargo.lock (no download from GitHub), and prints the .wasm sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
# Whole-program LTO in one codegen unit for the module: smaller and no slower (the native release
# profile keeps thin LTO for build speed).
CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  cargo build --lib --release --target wasm32-unknown-unknown
wasm=target/wasm32-unknown-unknown/release/olm_catalog.wasm
rm -rf pkg/dist
wasm-bindgen --target web --weak-refs --out-dir pkg/dist/web "$wasm"
wasm-bindgen --target nodejs --weak-refs --out-dir pkg/dist/node "$wasm"
# The Node glue is CommonJS inside a "type": "module" package.
echo '{ "type": "commonjs" }' > pkg/dist/node/package.json
raw=$(wc -c < pkg/dist/web/olm_catalog_bg.wasm)
gz=$(gzip -9 -c pkg/dist/web/olm_catalog_bg.wasm | wc -c)
echo "build-pkg: olm_catalog_bg.wasm $((raw / 1024)) KB raw, $((gz / 1024)) KB gzipped"
