// Node benchmark of the npm package: `validate` of community-v4.20 through the package, against
// baselines measured in the same run — the native CLI on the same input, and a bare parse inside
// wasm — and the .wasm transfer sizes (gzip -9), then the resolver. Ends with a table of the
// targets, each with its value and whether it is met. Targets: validate ≤ 0.20 s (issue 4), the
// core module ≤ 250 KB and the full one ≤ 550 KB gzipped (issue 15), resolve ≤ 50 ms (issue 6).
// Run: `make bench-node` (builds pkg/ and the native CLI first; the CLI is looked up in
// $CARGO_TARGET_DIR, default target/).
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import * as olm from '../../pkg/node.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const dir = join(process.env.CATALOGS_DIR ?? join(repo, '../shared/catalogs/fbc'), 'community-v4.20');
const runs = Number(process.env.BENCH_RUNS ?? 7);
const cli = join(process.env.CARGO_TARGET_DIR ?? join(repo, 'target'), 'release/olm-catalog');
/** The targets table: [what, value, target, met]. */
const targets = [];
const target = (what, value, unit, limit) => targets.push([what, `${value.toFixed(unit === 'ms' ? 1 : 0)} ${unit}`, `≤ ${limit} ${unit}`, value <= limit]);


function median(f) {
  f();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    f();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const files = olm.readCatalog(dir);
const mb = files.reduce((n, f) => n + f.content.length, 0) / 1e6;
const parse = median(() => olm.__parseOnly(files));
const validate = median(() => olm.validate(files));
const nativeCli = median(() => {
  const r = spawnSync(cli, ['validate', '--format', 'json', dir], { maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`native CLI failed: ${r.stderr}`);
});
const wasm = readFileSync(join(repo, 'pkg/dist/web/olm_catalog_bg.wasm'));
const full = readFileSync(join(repo, 'pkg/dist/web-full/olm_catalog_bg.wasm'));
const kb = (bytes) => bytes / 1024;
const [coreGz, fullGz] = [wasm, full].map((b) => kb(gzipSync(b, { level: 9 }).length));
console.log(`community-v4.20: ${mb.toFixed(1)} MB in ${files.length} files`);
console.log(`  wasm bare parse (baseline)  ${parse.toFixed(1)} ms  ${(mb / parse * 1e3).toFixed(1)} MB/s`);
console.log(`  wasm validate               ${validate.toFixed(1)} ms  ${(mb / validate * 1e3).toFixed(1)} MB/s  ${(validate / parse).toFixed(2)}x bare parse  (target ≤ 200 ms)`);
console.log(`  native CLI validate         ${nativeCli.toFixed(1)} ms  (whole process)  wasm/native ${(validate / nativeCli).toFixed(2)}x`);
console.log(`  olm_catalog_bg.wasm (core)  ${kb(wasm.length).toFixed(0)} KB raw, ${coreGz.toFixed(0)} KB gzipped (target ≤ 250 KB)`);
console.log(`  with the resolver (on demand) ${kb(full.length).toFixed(0)} KB raw, ${fullGz.toFixed(0)} KB gzipped (target ≤ 550 KB)`);
target('wasm validate, community-v4.20', validate, 'ms', 200);
target('core .wasm, gzipped', coreGz, 'KB', 250);
target('full .wasm (with the resolver), gzipped', fullGz, 'KB', 550);

// Resolver (issue 6): a subscription to every package of community-v4.20 (default channel),
// community-v4.16 attached as a second, lower-priority catalog. Target ≤ 50 ms in wasm.
// Baseline in the same run: the same problem through the native CLI's resolve (whole process,
// which also loads both catalogs).
const older = join(dirname(dir), 'community-v4.16');
const newCatalog = olm.loadCatalog(files);
const oldCatalog = olm.loadCatalog(olm.readCatalog(older));
const problem = {
  namespace: 'olm',
  catalogs: [
    { name: 'community-v4.20', namespace: 'olm', priority: 10, catalog: newCatalog },
    { name: 'community-v4.16', namespace: 'olm', priority: 0, catalog: oldCatalog },
  ],
  subscriptions: newCatalog.packages().map((p) => ({
    name: p.name, package: p.name, channel: p.defaultChannel ?? '', catalog: 'community-v4.20', catalogNamespace: 'olm',
  })),
};
const first = median(() => olm.resolve(problem));
const outcome = olm.resolve(problem);
const { mkdtempSync, writeFileSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const tmp = mkdtempSync(join(tmpdir(), 'olm-bench-'));
const problemFile = join(tmp, 'problem.json');
writeFileSync(problemFile, JSON.stringify({
  ...problem,
  catalogs: [
    { name: 'community-v4.20', namespace: 'olm', priority: 10, path: dir },
    { name: 'community-v4.16', namespace: 'olm', priority: 0, path: older },
  ],
}));
const nativeResolve = median(() => {
  spawnSync(cli, ['resolve', '--format', 'json', problemFile], { maxBuffer: 1 << 28 });
});
const satisfiable = {
  ...problem,
  subscriptions: problem.subscriptions.filter((s) => olm.resolve({ ...problem, subscriptions: [s] }).errorType === null),
};
const ok = median(() => olm.resolve(satisfiable));
console.log(`resolve: ${problem.subscriptions.length} subscriptions, community-v4.16 as a second catalog: ${outcome.errorType ?? `${outcome.install.length} installs`}`);
console.log(`  native CLI resolve (baseline, whole process incl. loading)  ${nativeResolve.toFixed(1)} ms`);
console.log(`  wasm resolve (catalogs loaded)                             ${first.toFixed(1)} ms  ${(first / nativeResolve).toFixed(2)}x baseline  (target ≤ 50 ms)`);
console.log(`  wasm resolve, ${satisfiable.subscriptions.length} satisfiable subscriptions          ${ok.toFixed(1)} ms  (${olm.resolve(satisfiable).install.length} installs)`);
target('wasm resolve, every package of community-v4.20', first, 'ms', 50);
newCatalog.free();
oldCatalog.free();

// Incremental re-validation (issue 15): an editing session on community-v4.20, then `update` of
// one file — a bundle version changed and changed back, so each update is a real change — for
// files of every size, the largest included. Baseline in the same run: the full `validate` above.
// Target: the median update ≤ 10 ms.
{
  const decoder = new TextDecoder();
  const bump = (t) => {
    const lines = t.split('\n');
    const i = lines.findIndex((l, j) => j > 0 && lines[j - 1].includes('packageName: ') && l.includes('version: '));
    if (i < 0) return null;
    lines[i] = lines[i].replace(/version: (\S+)/, 'version: $19');
    return lines.join('\n');
  };
  const t0 = process.hrtime.bigint();
  const session = olm.openCatalog(files);
  const open = Number(process.hrtime.bigint() - t0) / 1e6;
  const bySize = [...files].sort((x, y) => y.content.length - x.content.length);
  const picks = [0, 1, 2, 3, 4, 5].map((k) => bySize[Math.floor((k * (bySize.length - 1)) / 5)]);
  const all = [];
  console.log(`session (openCatalog) on community-v4.20: open ${open.toFixed(1)} ms  (${(open / validate).toFixed(2)}x validate)`);
  for (const f of picks) {
    const original = decoder.decode(f.content);
    const bumped = bump(original);
    if (bumped === null) continue;
    const times = [];
    for (let i = 0; i < 2 * runs; i++) {
      const t = process.hrtime.bigint();
      session.update(f.path, i % 2 === 0 ? bumped : original);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    all.push(...times);
    times.sort((a, b) => a - b);
    console.log(`  update ${f.path.padEnd(50)} ${times[Math.floor(times.length / 2)].toFixed(2)} ms  (${(f.content.length / 1024).toFixed(0)} KB)`);
  }
  all.sort((a, b) => a - b);
  const m = all[Math.floor(all.length / 2)];
  console.log(`  update, median of all ${m.toFixed(2)} ms  ${(validate / m).toFixed(1)}x faster than validate  ≤ 10 ms ${m <= 10 ? 'met' : 'NOT met'}`);
  target('wasm session update, median over files of every size', m, 'ms', 10);
  session.free();
}

console.log('\ntargets:');
const width = Math.max(...targets.map((t) => t[0].length));
for (const [what, value, limit, met] of targets) {
  console.log(`  ${what.padEnd(width)}  ${value.padStart(9)}  ${limit.padEnd(9)}  ${met ? 'met' : 'NOT met'}`);
}
// `make bench` collects every benchmark's targets into one table (scripts/bench-table.mjs).
if (process.env.BENCH_TARGETS) {
  const { appendFileSync } = await import('node:fs');
  appendFileSync(process.env.BENCH_TARGETS, targets.map(([what, value, limit, met]) => `${what} ${limit}\t${value}\t${met ? 'met' : 'NOT met'}\n`).join(''));
}
