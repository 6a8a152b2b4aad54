#!/usr/bin/env bash
# Builds the static site into www/dist: the npm package's browsers' WebAssembly
# (`scripts/build-pkg.sh --browsers`: the site loads no other; Node's module is left as it is), the
# site's npm dependencies, the single-file <olm-upgrade-graph> (scripts/build-element.mjs, also
# served by the site for the Embed snippet), and the esbuild bundle with the bundled example
# catalogs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-pkg.sh --browsers
cd www
if [ ! -d node_modules ] || [ package.json -nt node_modules ]; then
  npm install --no-audit --no-fund --silent
fi
node ../scripts/build-element.mjs
node build.mjs
