// Browser benchmark of the site's archive open (issue 35: "the browser's archive open of a 57 MB
// catalog image within 1.5× its validate from files"). The 57 MB `olm.bundle.object` catalog of
// benches/common/mod.rs (`bundle_object_catalog`, made here the same way when that benchmark has
// not left it in the temp directory) is built into a catalog image by real tools, as
// tests/e2e/images.test.mjs does: umoci makes the image (the catalog in /configs, the
// `operators.operatorframework.io.index.configs.v1` label), skopeo writes its docker-archive (what
// `docker save` writes: layers uncompressed) and oci-archive (gzip layers) forms. In one headless
// Chromium page the three are opened in alternation — the catalog's folder picked as a folder
// (validate from files), each tarball picked as one file — each timed by the page itself from the
// pick to the report shown (`data-loaded-ms`, what the e2e tests wait for), after a warm-up of each
// (the tools' module, which reads images, is fetched on the first archive); the best of `runs`
// each. Prints both times and the ratio to the target (≤ 1.5×) and records the rows in
// $BENCH_TARGETS when set (scripts/bench-table.mjs prints them).
// Run after `scripts/build-site.sh`: `make bench-browser`, or `node tests/e2e/bench-archive.mjs`.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, newPage, fbc } from './serve.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const LIMIT = 1.5;

/**
 * The 57 MB catalog as `bundle_object_catalog()` makes it: community-v4.16's package files (in
 * path order) copied under new package names (`<name>-copyN`, every `: <name>` line value
 * renamed) to `<name>-copyN/catalog.yaml` until the total reaches 57,000,000 bytes; `.complete`
 * written last. Reused when already complete.
 */
function bundleObjectCatalog() {
  const TARGET = 57_000_000;
  const dir = join(tmpdir(), 'olm-catalog-bench-bundle-object-57mb');
  if (existsSync(join(dir, '.complete'))) return dir;
  const source = [];
  const walk = (d, rel) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(full).isDirectory()) walk(full, r);
      else source.push({ path: r, content: readFileSync(full) });
    }
  };
  walk(join(fbc, 'community-v4.16'), '');
  rmSync(dir, { recursive: true, force: true });
  let total = 0;
  for (let copy = 0; total < TARGET; copy++) {
    for (const f of source) {
      const slash = f.path.indexOf('/');
      if (slash < 0) continue;
      const pkg = f.path.slice(0, slash);
      const name = `${pkg}-copy${copy}`;
      const renamed = Buffer.from(f.content.toString('utf8').replaceAll(`: ${pkg}\n`, `: ${name}\n`));
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'catalog.yaml'), renamed);
      total += renamed.length;
      if (total >= TARGET) break;
    }
  }
  writeFileSync(join(dir, '.complete'), '');
  return dir;
}

const catalog = bundleObjectCatalog();
const scratch = mkdtempSync(join(tmpdir(), 'olm-bench-archive-'));
const at = (p) => join(scratch, p);
// The folder both sides read: the catalog without the `.complete` mark.
const folder = at('configs');
const sh = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The catalog image, by umoci, in its docker-archive and oci-archive forms, by skopeo. */
function buildImages() {
  sh('cp', ['-a', catalog, folder]);
  rmSync(join(folder, '.complete'));
  const image = `${at('layout')}:cat`;
  sh('umoci', ['init', '--layout', at('layout')]);
  sh('umoci', ['new', '--image', image]);
  sh('umoci', ['unpack', '--image', image, at('unpacked')]);
  sh('cp', ['-a', folder, at('unpacked/rootfs/configs')]);
  sh('umoci', ['repack', '--image', image, at('unpacked')]);
  sh('umoci', ['config', '--image', image, '--config.label', 'operators.operatorframework.io.index.configs.v1=/configs']);
  rmSync(at('unpacked'), { recursive: true, force: true });
  writeFileSync(at('policy.json'), '{"default":[{"type":"insecureAcceptAnything"}]}');
  const copy = (to) => sh('skopeo', ['--policy', at('policy.json'), 'copy', '-q', `oci:${image}`, to]);
  copy(`docker-archive:${at('docker.tar')}:example.com/cat:v1`);
  copy(`oci-archive:${at('oci.tar')}:cat`);
  rmSync(at('layout'), { recursive: true, force: true });
}

/** Pick `path` in `input` and wait for the report; the page's own time (ms) and the summary. */
async function open(page, input, path) {
  const before = await page.evaluate(() => document.body.dataset.loaded ?? '');
  await page.setInputFiles(input, path);
  try {
    await page.waitForFunction((b) => (document.body.dataset.loaded ?? '') !== b, before, { timeout: 600000, polling: 50 });
  } catch (e) {
    throw new Error(`not loaded: ${await page.textContent('#summary')}`, { cause: e });
  }
  return page.evaluate(() => ({ ms: Number(document.body.dataset.loadedMs), summary: document.querySelector('#summary').textContent }));
}

const mb = (f) => statSync(f).size / 1e6;
let server;
let browser;
try {
  buildImages();
  const sides = [
    ['folder (validate from files)', '#pick-folder', folder],
    ['docker-archive', '#pick-files', at('docker.tar')],
    ['oci-archive', '#pick-files', at('oci.tar')],
  ];
  server = await serve();
  browser = await launch();
  const { page, errors } = await newPage(browser);
  await page.goto(server.base);
  const best = sides.map(() => Infinity);
  const summaries = [];
  for (let i = 0; i <= runs; i++) { // run 0: the warm-up of each side
    for (const [k, [, input, path]] of sides.entries()) {
      const { ms, summary } = await open(page, input, path);
      if (i > 0) best[k] = Math.min(best[k], ms);
      summaries[k] = summary;
    }
  }
  if (new Set(summaries).size !== 1) throw new Error(`the archives do not show the folder's report:\n${summaries.join('\n')}`);
  if (errors.length) throw new Error(`the page reported errors: ${errors.join('; ')}`);
  const load = loadavg()[0];
  console.log(`site: the 57 MB olm.bundle.object catalog (${catalog}) in Chromium, pick to report shown, best of ${runs} runs each in alternation (load ${load.toFixed(1)}):`);
  console.log(`  ${summaries[0]}`);
  const rows = [];
  for (const [k, [what, , path]] of sides.entries()) {
    const size = k === 0 ? '' : `  (${mb(path).toFixed(1)} MB tarball)`;
    if (k === 0) { console.log(`  ${what.padEnd(30)} ${best[k].toFixed(0).padStart(6)} ms`); continue; }
    const ratio = best[k] / best[0];
    const met = ratio <= LIMIT;
    console.log(`  ${what.padEnd(30)} ${best[k].toFixed(0).padStart(6)} ms  ${ratio.toFixed(2)}x the folder  (≤ ${LIMIT}x ${met ? 'met' : 'NOT met'})${size}`);
    rows.push([`site: ${what} open of the 57 MB catalog image ≤ ${LIMIT}× its folder (validate from files), Chromium`, `${ratio.toFixed(2)} × (${best[k].toFixed(0)} ms ÷ ${best[0].toFixed(0)} ms, load ${load.toFixed(1)})`, met]);
  }
  // `make bench` collects every benchmark's targets into one table (scripts/bench-table.mjs).
  if (process.env.BENCH_TARGETS) {
    appendFileSync(process.env.BENCH_TARGETS, rows.map(([what, value, met]) => `${what}\t${value}\t${met ? 'met' : 'NOT met'}\n`).join(''));
  }
} finally {
  await browser?.close();
  server?.close();
  rmSync(scratch, { recursive: true, force: true });
}
