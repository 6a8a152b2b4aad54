#!/usr/bin/env bash
# Run the cargo-fuzz targets of fuzz/ for SECONDS each (default 10), each on a scratch copy of its
# committed seed corpus (fuzz/corpus/TARGET), so runs never change the repository. Fails on the
# first crash, hang (-timeout=10 s per input) or out-of-memory (-rss_limit_mb=2048); the input
# that failed is kept in fuzz/artifacts/TARGET/ (git-ignored) and the command to reproduce it is
# printed.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      e.g. scripts/fuzz.sh 600 resolve
#
# Needs the pinned nightly toolchain (scripts/nightly-toolchain) and cargo-fuzz (`cargo install
# cargo-fuzz`). Targets are built with
# optimizations, debug assertions and overflow checks, and no sanitizer (the crate has no
# `unsafe`); FUZZ_ARGS adds libFuzzer options (e.g. FUZZ_ARGS=-jobs=2).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-10}
[ $# -gt 0 ] && shift
all=(load_json load_yaml validate versions constraint resolve render_bundle)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz not found: cargo install cargo-fuzz" >&2; exit 1; }
# The pinned nightly (scripts/nightly-toolchain), as the WebAssembly build uses.
nightly=$(cat "$root/scripts/nightly-toolchain")
rustup run "$nightly" rustc -V >/dev/null 2>&1 || { echo "the nightly toolchain is needed: rustup toolchain install $nightly" >&2; exit 1; }

build_flags=(--release --debug-assertions --sanitizer none)
# One worker thread for the loader's and validator's parallel loops: inputs are small, and the
# runs share the machine.
export RAYON_NUM_THREADS=${RAYON_NUM_THREADS:-1}

cd "$root/fuzz"
cargo "+$nightly" fuzz build "${build_flags[@]}"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t" "artifacts/$t"
  [ -d "corpus/$t" ] && cp -R "corpus/$t/." "$scratch/$t/"
  echo "== $t: ${seconds}s"
  if ! cargo "+$nightly" fuzz run "${build_flags[@]}" "$t" "$scratch/$t" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 ${FUZZ_ARGS:-} \
      2>"$scratch/$t.log"; then
    # The panic (or libFuzzer's timeout / out-of-memory report), then the failing input.
    grep -E -A4 "panicked at|ERROR: libFuzzer|==ERROR" "$scratch/$t.log" | head -n 30 >&2 || true
    grep -E -A2 "^Failing input" "$scratch/$t.log" >&2 || true
    echo "fuzz target $t failed; reproduce with: (cd fuzz && cargo +$nightly fuzz run ${build_flags[*]} $t artifacts/$t/<file>)" >&2
    exit 1
  fi
  grep -E '^stat::number_of_executed_units|^Done' "$scratch/$t.log" | sed "s/^/   $t: /" || true
done
echo "fuzz: ${#targets[@]} target(s), ${seconds}s each, no crash"
