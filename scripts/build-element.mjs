// Builds the single-file `<olm-upgrade-graph>` for a `<script type="module">` tag:
// pkg/dist/element/olm-upgrade-graph.js (the element, its worker, the core module's JS glue and
// the CSS, bundled and minified by esbuild) and olm_catalog_bg.wasm and olm_graph_picture_bg.wasm
// (the picture module) beside it (run
// scripts/build-pkg.sh first). Prints the script's size gzipped, the element's budget being 60 KB
// (the layout is in the .wasm, which is not counted), and records it as a target in
// $BENCH_TARGETS when set (scripts/bench-table.mjs prints the targets).
import { appendFileSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
// esbuild is the site's (www/package.json): build-site.sh installs it.
const { build } = createRequire(join(repo, 'www/package.json'))('esbuild');
const out = join(repo, 'pkg/dist/element');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(repo, 'pkg/element-bundle.js')],
  outfile: join(out, 'olm-upgrade-graph.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(repo, 'pkg/dist/web/olm_catalog_bg.wasm'), join(out, 'olm_catalog_bg.wasm'));
copyFileSync(join(repo, 'pkg/dist/web-picture/olm_graph_picture_bg.wasm'), join(out, 'olm_graph_picture_bg.wasm'));

export const BUDGET_KB = 60;
const js = readFileSync(join(out, 'olm-upgrade-graph.js'));
const gz = gzipSync(js, { level: 9 }).length / 1024;
const wasm = readFileSync(join(out, 'olm_catalog_bg.wasm'));
const wasmGz = gzipSync(wasm, { level: 9 }).length / 1024;
const pictureGz = gzipSync(readFileSync(join(out, 'olm_graph_picture_bg.wasm')), { level: 9 }).length / 1024;
const met = gz <= BUDGET_KB;
console.log(`build-element: ${out}/olm-upgrade-graph.js ${(js.length / 1024).toFixed(1)} KB raw, ${gz.toFixed(1)} KB gzipped (JS and CSS; budget ${BUDGET_KB} KB: ${met ? 'met' : 'NOT met'}); olm_catalog_bg.wasm ${(wasmGz).toFixed(0)} KB gzipped, olm_graph_picture_bg.wasm ${pictureGz.toFixed(0)} KB gzipped`);
if (process.env.BENCH_TARGETS) {
  appendFileSync(process.env.BENCH_TARGETS, `<olm-upgrade-graph> JS+CSS gzipped ≤ ${BUDGET_KB} KB\t${gz.toFixed(1)} KB\t${met ? 'met' : 'NOT met'}\n`);
}
