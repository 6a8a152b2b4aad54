// Node benchmark of the npm package: `validate` of community-v4.20 through the package, against
// baselines measured in the same run — the native CLI on the same input, and a bare parse inside
// wasm — and the .wasm sizes. Target (issue 4): validate ≤ 0.20 s, ≤ 400 KB gzipped.
// Run: `make bench-node` (builds pkg/ and the native CLI first).
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
  const r = spawnSync(join(repo, 'target/release/olm-catalog'), ['validate', '--format', 'json', dir], { maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`native CLI failed: ${r.stderr}`);
});
const wasm = readFileSync(join(repo, 'pkg/dist/web/olm_catalog_bg.wasm'));
console.log(`community-v4.20: ${mb.toFixed(1)} MB in ${files.length} files`);
console.log(`  wasm bare parse (baseline)  ${parse.toFixed(1)} ms  ${(mb / parse * 1e3).toFixed(1)} MB/s`);
console.log(`  wasm validate               ${validate.toFixed(1)} ms  ${(mb / validate * 1e3).toFixed(1)} MB/s  ${(validate / parse).toFixed(2)}x bare parse  (target ≤ 200 ms)`);
console.log(`  native CLI validate         ${nativeCli.toFixed(1)} ms  (whole process)  wasm/native ${(validate / nativeCli).toFixed(2)}x`);
console.log(`  olm_catalog_bg.wasm         ${(wasm.length / 1024).toFixed(0)} KB raw, ${(gzipSync(wasm, { level: 9 }).length / 1024).toFixed(0)} KB gzipped (target ≤ 400 KB)`);
