# The two commands a newcomer needs (see README.md):
#   make serve   build everything and serve the site on http://localhost:$(PORT)
#   make test    run every test
# Both install what they need first (`make setup`).

PORT ?= 8080
CARGO ?= cargo
CONFORMANCE_DIR ?= $(abspath ../shared/conformance)
export CONFORMANCE_DIR
# The wasm-bindgen CLI must match the library version pinned in Cargo.lock.
WASM_BINDGEN_VERSION := $(shell grep -A1 '^name = "wasm-bindgen"$$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
export CHROMEDRIVER ?= /usr/bin/chromedriver

.PHONY: all setup build pkg test bench-build test-rust test-wasm test-node test-e2e test-fuzz serve site bench bench-node clean

all: build

## setup: install the toolchain pieces the build and tests need (idempotent).
setup:
	@command -v $(CARGO) >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)"; exit 1; }
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "node and npm are needed: apt-get install -y nodejs npm"; exit 1; }
	@command -v python3 >/dev/null || { echo "python3 not found (used to serve the site): apt-get install -y python3"; exit 1; }
	@rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
	@# The npm package's modules rebuild the standard library for size (scripts/build-pkg.sh).
	@rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src' || \
		rustup toolchain install nightly --profile minimal --component rust-src
	@[ "$$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $(WASM_BINDGEN_VERSION)" ] || \
		$(CARGO) install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

build: setup
	$(CARGO) build --release

## pkg: the npm package in pkg/ (WebAssembly for the web and Node targets).
pkg: setup
	scripts/build-pkg.sh

## test: Rust unit/conformance/real-catalog/CLI tests, the bindings in Node and Chromium, the
## packed npm package under Node's test runner; benchmarks are compiled, not run.
test: setup bench-build test-rust test-wasm test-node test-e2e test-fuzz

bench-build:
	$(CARGO) bench --no-run

test-rust:
	$(CARGO) test --workspace

test-wasm:
	$(CARGO) test --target wasm32-unknown-unknown --test wasm_node
	$(CARGO) test --target wasm32-unknown-unknown --test wasm_browser

test-node:
	tests/node/run.sh

## test-e2e: the site in headless Chromium (playwright-core, Debian's chromium).
test-e2e: site build
	node --test --test-concurrency=1 --test-reporter=spec tests/e2e/*.test.mjs

## test-fuzz: every cargo-fuzz target of fuzz/ for 5 s on a copy of its seed corpus (nightly
## toolchain and cargo-fuzz, installed when missing); fails on any crash, hang or out-of-memory.
test-fuzz:
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz
	scripts/fuzz.sh 5

## site: the static site in www/dist (the npm package's wasm, bundled with esbuild, offline).
site: setup
	scripts/build-site.sh

serve: site
	@echo "serving http://localhost:$(PORT)"
	cd www/dist && python3 -m http.server $(PORT) --bind 127.0.0.1

## bench: every benchmark, native and in Node, then one table of the issue's targets (each
## benchmark records its own in target/bench-targets.tsv; scripts/bench-table.mjs prints them).
bench: setup pkg build
	@mkdir -p target && rm -f target/bench-targets.tsv
	$(CARGO) bench
	$(CARGO) build --release --example native_phases
	BENCH_TARGETS=$(CURDIR)/target/bench-targets.tsv node tests/node/bench.mjs
	@node scripts/bench-table.mjs

## bench-node: the Node benchmark alone; its native side is examples/native_phases.rs.
bench-node: pkg
	$(CARGO) build --release --example native_phases
	node tests/node/bench.mjs

clean:
	$(CARGO) clean
	rm -rf www/dist pkg/dist
