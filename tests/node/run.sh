#!/usr/bin/env bash
# Node tests against the packed npm package: build pkg/, `npm pack` it, install the tarball into a
# temporary project, and run Node's test runner there (so `import 'olm-catalog'` goes through the
# real `exports` map), plus a TypeScript check of the published types.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
OLM_TEST_HOOKS=1 scripts/build-pkg.sh
cargo build --release --bin olm-catalog
# The VS Code extension's dependencies (its server's LSP library, vsce for vscode.test.mjs).
(cd editors/vscode && npm ci --silent --no-audit --no-fund)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd pkg && npm pack --silent --pack-destination "$tmp" >/dev/null)
cd "$tmp"
npm init -y >/dev/null
npm pkg set type=module
# typescript: type-checks tests/node/types-check.ts against the published index.d.ts.
npm install --silent --no-audit --no-fund ./olm-catalog-*.tgz typescript@5 >/dev/null
cp "$repo"/tests/node/*.test.mjs "$repo"/tests/node/markdown.mjs "$repo"/tests/node/lsp-client.mjs "$repo"/tests/node/types-check.ts .
npx tsc --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 types-check.ts
REPO="$repo" NATIVE_CLI="${CARGO_TARGET_DIR:-$repo/target}/release/olm-catalog" node --test --test-reporter=spec ./*.test.mjs
