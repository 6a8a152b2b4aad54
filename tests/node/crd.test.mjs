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

/** A catalog `p` whose 1.1.0 replaces 1.0.0, each bundle embedding `widgets.example.com` whose `spec.size` has this schema. */
function crdCatalog(oldSize, newSize) {
  const crd = (size) => Buffer.from(JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size } } } } } }],
    },
  })).toString('base64');
  const bundle = (v, size) => `---\nschema: olm.bundle\npackage: p\nname: p.v${v}\nimage: example.com/p:${v}\nproperties:\n- type: olm.package\n  value: {packageName: p, version: ${v}}\n- type: olm.bundle.object\n  value: {data: ${crd(size)}}\n`;
  const content = 'schema: olm.package\nname: p\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: p\nname: stable\nentries:\n- name: p.v1.0.0\n- name: p.v1.1.0\n  replaces: p.v1.0.0\n'
    + bundle('1.0.0', oldSize) + bundle('1.1.0', newSize);
  return [{ path: 'catalog.yaml', content }];
}

test('validate: crdSafety adds the CRD lints at their configured levels', () => {
  const files = crdCatalog({ type: 'integer' }, { type: 'string' });
  assert.ok(!olm.validate(files).diagnostics.some((d) => d.code.startsWith('crd-')));
  const r = olm.validate(files, { crdSafety: true });
  const found = r.diagnostics.filter((d) => d.code === 'crd-type');
  assert.equal(found.length, 1);
  assert.equal(found[0].severity, 'warning');
  assert.equal(found[0].pointer, '/entries/1/name');
  assert.equal(r.valid, true);
  const strict = olm.validate(files, { crdSafety: true, lint: ['crd-type=error'] });
  assert.equal(strict.valid, false);
  assert.ok(!olm.validate(files, { crdSafety: true, lint: ['crd-type=off'] }).diagnostics.some((d) => d.code === 'crd-type'));
  // Against itself as the baseline, nothing is new.
  assert.deepEqual(olm.validate(files, { crdSafety: true, baseline: files }).diagnostics, []);
});
