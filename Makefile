# The two commands a newcomer needs (see README.md):
#   make serve   build everything and serve the site on http://localhost:$(PORT)
#   make test    run every test
# Both install what they need first (`make setup`).

PORT ?= 8080
CARGO ?= cargo
CONFORMANCE_DIR ?= $(abspath ../shared/conformance)
export CONFORMANCE_DIR

.PHONY: all setup build test serve site bench clean

all: build

## setup: check and install the toolchain pieces the build needs.
setup:
	@command -v $(CARGO) >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)"; exit 1; }
	@command -v python3 >/dev/null || { echo "python3 not found (used to serve the site): apt-get install -y python3"; exit 1; }

build: setup
	$(CARGO) build --release

## test: unit tests, conformance suites, real catalogs, CLI; the benchmark is compiled, not run.
test: setup
	$(CARGO) test
	$(CARGO) bench --no-run

## site: the static site in www/dist (for now: the CLI's report on the bundled example catalog).
site: build
	scripts/build-site.sh

serve: site
	@echo "serving http://localhost:$(PORT)"
	cd www/dist && python3 -m http.server $(PORT) --bind 127.0.0.1

bench: setup
	$(CARGO) bench

clean:
	$(CARGO) clean
	rm -rf www/dist
