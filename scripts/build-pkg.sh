#!/usr/bin/env bash
# Builds the npm package's WebAssembly and JS glue with the wasm-bindgen CLI pinned in Cargo.lock
# (no download from GitHub), and prints the .wasm sizes. Five modules:
# - pkg/dist/web: the core (`--no-default-features`: validation, graphs, paths), what browsers
#   load first;
# - pkg/dist/web-picture: the picture module, `crates/graph-picture` alone (`pictureOptions`,
#   `drawPicture`, `drawSvg`, `layoutGraph`: the pictures of the channel graphs
#   and paths the core computes), which browsers
#   load on demand (`initPicture()`); a small crate, so its build takes seconds;
# - pkg/dist/web-resolver: the core with the resolver and CEL (`--no-default-features --features
#   cel`: `resolve`, `resolveText`, `resolveV1`), which browsers load on demand (`initResolver()`);
# - pkg/dist/web-tools: the core with the tools (`--no-default-features --features tools`: render,
#   templates, diffs, edits, OperatorGroup checks, RBAC previews, Mermaid, DOT, packageDeps, the
#   editing session `openCatalog`, formatDiagnostics), which browsers load on demand (`initTools()`;
#   `initResolver()` loads it too unless told otherwise). No tool calls the resolver, so no
#   browser call needs both;
# - pkg/dist/node-full: everything (the default features, `picture` among them), which Node uses
#   directly.
# Five cargo builds (each in its own target directory, so none invalidates another; two at a
# time, see `lane` below): after a change to the crate each compiles the crate alone, 40 s to
# 1.8 min per module on this machine, and the wasm-opt passes take a few minutes more
# (docs/performance.md, "WebAssembly size").
#
# `scripts/build-pkg.sh --browsers` builds the four browsers' modules alone and leaves
# pkg/dist/node-full as it is: the site (scripts/build-site.sh) uses no other, and Node's module,
# built for speed, is the longest build (3–4 min after a change to the crate).
# `scripts/build-pkg.sh --core` builds the core alone (pkg/dist/web), for scripts/check-wasm.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
node_module=1
others=1
case "${1:-}" in
  "") ;;
  --browsers) node_module= ;;
  --core) node_module= others= ;;
  *) echo "usage: scripts/build-pkg.sh [--browsers|--core]" >&2; exit 2 ;;
esac
# The modules are the bindings crate's cdylib (crates/wasm, `olm-catalog-wasm`), its features
# choosing what each holds. Cargo.toml's `wasm` profile: whole-program LTO in one codegen unit,
# which is smaller and no slower; opt-level 3, because "s" or "z" cut 15 % of the gzipped size
# but slow validation by about 20 %; cold crates (the tools, CEL, SHA-224, ...) are at "z" there,
# one `[profile.wasm.package.NAME]` each, and crates/format's `sort.rs` keeps sorting to one
# shared routine (docs/performance.md, "WebAssembly size"). The native release profile is
# untouched. The builds use separate target directories so that none invalidates another.
#
# The standard library is rebuilt with the modules (nightly `-Zbuild-std`, from the toolchain's
# `rust-src`; no download of a prebuilt wasm std): with `optimize_for_size` (its smaller sort,
# formatting and collection code) and `panic=immediate-abort` (a panic traps at once, with no
# message formatting; the façade reports it as `internal-panic` as before, but the console shows
# no panic message). Together −56 KB gzipped on the core module and no slower
# (docs/performance.md, "WebAssembly size"). `-Zlocation-detail=none` leaves out the source
# locations (file, line, column) that panics would name: with `immediate-abort` nothing prints
# them (−0.3 KB gzipped on the core).
# The nightly is pinned in scripts/nightly-toolchain (one dated nightly, so that the same commit
# builds the same bytes: scripts/check-wasm.sh builds the core twice and compares);
# OLM_WASM_TOOLCHAIN overrides it. It is installed with `rust-src` when missing.
toolchain=${OLM_WASM_TOOLCHAIN:-$(cat scripts/nightly-toolchain)}
if ! rustup run "$toolchain" rustc -V >/dev/null 2>&1; then
  rustup toolchain install "$toolchain" --profile minimal --component rust-src
elif ! rustup component list --toolchain "$toolchain" --installed | grep -q '^rust-src'; then
  rustup component add rust-src --toolchain "$toolchain"
fi
# RUSTFLAGS replaces `.cargo/config.toml`'s `target.wasm32-unknown-unknown.rustflags` (cargo uses
# one source of flags, not both), so its `+simd128` is repeated here: without it the modules
# silently lose WebAssembly SIMD (memchr/memmem, line counting and UTF-8 checks fall back to
# scalar code; docs/performance.md, "WebAssembly against native").
wasm_build() {
  RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Ctarget-feature=+simd128" cargo "+$toolchain" build -p olm-catalog-wasm --lib --profile wasm \
    --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size "$@"
}
# Separate target directories from the stable builds too (different flags and standard library).
out=${CARGO_TARGET_DIR:-target}/wasm-pkg
build_core() { wasm_build --no-default-features --target-dir "$out/core"; }
# The picture module: the picture crate's library as a cdylib with its bindings (the crate is an
# rlib for olm-catalog, which must not export them from the browsers' modules).
build_picture() {
  RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Ctarget-feature=+simd128" cargo "+$toolchain" rustc \
    -p olm-graph-picture --lib --crate-type cdylib --features bindings --profile wasm --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size --target-dir "$out/picture"
}
build_resolver() { wasm_build --no-default-features --features cel --target-dir "$out/resolver"; }
build_tools() { wasm_build --no-default-features --features tools --target-dir "$out/tools"; }
# Node's module has no size target, so it is built for speed alone (docs/performance.md,
# "WebAssembly against native"):
# `--cfg olm_wasm_speed` (the standard library's stable sort at each call site, crates/format's
# `sort.rs`), the cold crates at opt-level 3 (`size_crates_at_3`, not Cargo.toml's "z"), the
# standard library without `optimize_for_size` and its `core` at opt-level 3 (not
# .cargo/config.toml's "z"), and below, wasm-opt inlines more. The browsers' modules keep the size-minded build above.
# Also for Node's module alone (docs/performance.md, "WebAssembly against native"): LLVM inlines more (`-inline-threshold=NODE_INLINE`, default 225: 6–10 % fewer
# instructions in a validation and a resolution), and the module is built without bulk memory
# (`-Ctarget-cpu=mvp` and the other features rustc enables by default), so that copies of run-time
# lengths call crates/wasm/src/copy.rs's `memcpy`, which copies short ones inline, instead of `memory.copy`,
# which V8 runs as a call into C.
# OLM_TEST_HOOKS=1 (the Node tests) adds the test-only hooks to Node's module.
NODE_INLINE=1000
# The crates Cargo.toml compiles for size in the `wasm` profile, which Node's module compiles at 3.
size_crates_at_3=()
for c in olm-catalog-tools olm-catalog-indexignore olm-catalog-lints olm-catalog-cel; do size_crates_at_3+=(--config "profile.wasm.package.$c.opt-level=3"); done
build_node() {
  RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Ctarget-cpu=mvp -Ctarget-feature=+simd128,+mutable-globals,+sign-ext,+nontrapping-fptoint,+multivalue,+reference-types -Cllvm-args=-inline-threshold=$NODE_INLINE --cfg olm_wasm_speed" \
    cargo "+$toolchain" --config 'profile.wasm.package.core.opt-level=3' "${size_crates_at_3[@]}" build -p olm-catalog-wasm \
    --lib --profile wasm --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort ${OLM_TEST_HOOKS:+--features test-hooks} \
    --target-dir "$out/full"
}
# The builds run in two lanes at once. Each ends in a long step on one core (the crate's code
# generation in one unit, with whole-program LTO), and the other lane uses the second core
# meanwhile: after a change to the crate, 4.8 min one after the other, 2.9 min in two lanes (the
# cached wasm-opt outputs of an unchanged module not counted).
lane() { for b in "$@"; do "build_$b" || return 1; done; }
lane ${node_module:+node} core & first=$!
lane ${others:+picture resolver tools} & second=$!
status=0
wait "$first" || status=$?
wait "$second" || status=$?
[ "$status" = 0 ] || { echo "build-pkg: a cargo build failed (see above)" >&2; exit "$status"; }
built() { echo "$out/$1/wasm32-unknown-unknown/wasm/olm_catalog_wasm.wasm"; }
rm -rf pkg/dist/web
# `--out-name olm_catalog`: the package's JS imports olm_catalog.js and olm_catalog_bg.wasm.
wasm-bindgen --target web --weak-refs --out-name olm_catalog --out-dir pkg/dist/web "$(built core)"
if [ -n "$others" ]; then
  rm -rf pkg/dist/web-picture pkg/dist/web-resolver pkg/dist/web-tools
  wasm-bindgen --target web --weak-refs --out-dir pkg/dist/web-picture "$out/picture/wasm32-unknown-unknown/wasm/olm_graph_picture.wasm"
  wasm-bindgen --target web --weak-refs --out-name olm_catalog --out-dir pkg/dist/web-resolver "$(built resolver)"
  wasm-bindgen --target web --weak-refs --out-name olm_catalog --out-dir pkg/dist/web-tools "$(built tools)"
fi
if [ -n "$node_module" ]; then
  rm -rf pkg/dist/node-full
  wasm-bindgen --target nodejs --weak-refs --out-name olm_catalog --out-dir pkg/dist/node-full "$(built full)"
  # The Node glue is CommonJS inside a "type": "module" package.
  echo '{ "type": "commonjs" }' > pkg/dist/node-full/package.json
fi
# wasm-opt -O3 (npm `binaryen`, scripts/package.json) shrinks each module and keeps its speed (-Os,
# -Oz and --converge are within 0.1 % of it once gzipped, and -Oz is measurably slower on the
# resolver); the features are those rustc's wasm32-unknown-unknown target enables by default and
# SIMD (enabled above), so the output runs wherever the input did.
if [ ! -x scripts/node_modules/.bin/wasm-opt ] || [ scripts/package.json -nt scripts/node_modules/.package-lock.json ]; then
  npm install --prefix scripts --no-audit --no-fund --silent
fi
modules="pkg/dist/web/olm_catalog_bg.wasm${others:+ pkg/dist/web-picture/olm_graph_picture_bg.wasm pkg/dist/web-resolver/olm_catalog_bg.wasm pkg/dist/web-tools/olm_catalog_bg.wasm}${node_module:+ pkg/dist/node-full/olm_catalog_bg.wasm}"
# `--low-memory-unused` lets wasm-opt fold a constant added to an address into the access's offset
# (`i32.load offset=C`), which differs from the wrapping `i32.add` only for an address within 1 KB
# of 4 GiB, one Rust code never computes (its pointers stay inside the module's memory, far below
# that): −2.2 KB gzipped on the core (docs/performance.md, "WebAssembly size").
# wasm-opt's outputs are kept by a hash of their input and options (in $out/opt-cache), so that a
# module that did not change is not optimized again: `make test` builds the browsers' modules
# twice (in the Node tests' package, then the site's), and a changed branch often leaves a module
# as it was.
mkdir -p "$out/opt-cache"
for f in $modules; do
  # Node's module: functions with loops inlined too, and larger ones (-ifwl -fimfs 400 -aimfs 20):
  # 4 % fewer instructions in a validation, +200 KB gzipped (no size target for Node's module).
  # The resolver crate's functions are kept out of that inlining (`--no-inline`, a pass that must
  # come before -O3): wasm-opt otherwise inlines every function with one caller, whatever its
  # size, and folded the whole resolution (snapshot, variables, solver, picks) into a few huge
  # functions that V8's optimizing tier compiles worse: the resolution alone 7-8 % slower
  # (0.70 against 0.765 ms, `__resolveCount`), validation and graphs unchanged.
  inline=() noinline=()
  [ "$f" = pkg/dist/node-full/olm_catalog_bg.wasm ] && inline=(-ifwl -fimfs 400 -aimfs 20) noinline=('--no-inline=*olm_catalog_resolve*')
  opts=("${noinline[@]}" -O3 --low-memory-unused "${inline[@]}" --enable-simd --enable-bulk-memory --enable-mutable-globals --enable-multivalue
    --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext --strip-debug --strip-producers)
  key=$( (cat "$f"; echo "${opts[*]}"; scripts/node_modules/.bin/wasm-opt --version) | sha256sum | cut -c1-32)
  if [ -f "$out/opt-cache/$key.wasm" ]; then
    cp "$out/opt-cache/$key.wasm" "$f"
  else
    scripts/node_modules/.bin/wasm-opt "${opts[@]}" "$f" -o "$f"
    cp "$f" "$out/opt-cache/$key.wasm"
  fi
done
# The cache keeps the last 20 outputs.
ls -t "$out/opt-cache"/*.wasm | tail -n +21 | xargs -r rm -f
for f in $modules; do
  # The byte scans are vectorized (see wasm_build); a module without one SIMD instruction means the
  # flag was lost again. The picture module scans no bytes.
  if [ "$f" != pkg/dist/web-picture/olm_graph_picture_bg.wasm ]; then
    simd=$(scripts/node_modules/.bin/wasm-dis "$f" | grep -c 'i8x16\.' || true)
    [ "$simd" -gt 0 ] || { echo "build-pkg: $f has no SIMD instructions" >&2; exit 1; }
  fi
  raw=$(wc -c < "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  echo "build-pkg: $f $((raw / 1024)) KB raw, $((gz / 1024)) KB gzipped"
done
