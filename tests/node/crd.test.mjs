// `crdSafety` through the packed npm package: the same result as the native CLI's
// `crd-safety --format json` on a real catalog, options, and a catalog without CRDs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const native = process.env.NATIVE_CLI;
const fbc = join(repo, '../shared/catalogs/fbc');

function nativeCrdSafety(catalog, ...flags) {
  const r = spawnSync(native, ['crd-safety', catalog, '--format', 'json', ...flags], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, json: JSON.parse(r.stdout) };
}

test('crdSafety: equals the native CLI; a dropped stored version is refused by both OLMs', () => {
  const catalog = join(fbc, 'community-v4.16');
  const files = olm.readCatalog(catalog);
  const js = olm.crdSafety(files, { package: 'koku-metrics-operator' });
  const cli = nativeCrdSafety(catalog, '--package', 'koku-metrics-operator');
  assert.equal(cli.code, 1);
  assert.deepEqual(js, cli.json);
  assert.equal(js.safe, false);
  const edge = js.edges.find((e) => e.from === 'koku-metrics-operator.v0.9.4' && e.to === 'koku-metrics-operator.v0.9.5');
  const rules = edge.findings.map((f) => f.rule);
  assert.ok(rules.includes('storedVersionRemoval') && rules.includes('olmV0StoredVersion'), rules.join());
  const later = olm.crdSafety(files, { package: 'koku-metrics-operator', from: 'koku-metrics-operator.v0.9.5' });
  assert.ok(later.edges.every((e) => e.from !== 'koku-metrics-operator.v0.9.4'));
});

test('crdSafety: a catalog without CRDs says so once; bad options are invalid input', () => {
  const files = olm.readCatalog(join(fbc, 'community-v4.20'));
  const r = olm.crdSafety(files, { package: 'kube-green' });
  assert.equal(r.bundlesWithCrds, 0);
  assert.deepEqual(r.findings.map((f) => f.code), ['crd-none-in-catalog']);
  assert.throws(() => olm.crdSafety(files, { package: 'no-such-package' }), { code: 'invalid-input' });
  assert.throws(() => olm.crdSafety(files, { packages: 'kube-green' }), { code: 'invalid-input' });
});
