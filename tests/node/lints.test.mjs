// Configurable lints, baselines and the OLM v1 lints through the npm package: the JS options of
// `validate`, and the Node CLI's flags agreeing with the native CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const native = process.env.NATIVE_CLI;
const catalogs = join(repo, '../shared/catalogs/fbc');
const cli = join(process.cwd(), 'node_modules/.bin/olm-catalog');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// Head 1.0.0 replaces the higher 2.0.0: head-not-highest, version-goes-backwards (warnings),
// unreachable-entry (a note by default).
const BACKWARDS = `schema: olm.package
name: foo
defaultChannel: stable
---
schema: olm.channel
package: foo
name: stable
entries:
- name: foo.v2.0.0
- name: foo.v1.0.0
  replaces: foo.v2.0.0
---
schema: olm.bundle
package: foo
name: foo.v2.0.0
image: quay.io/foo/bundle:v2.0.0
properties:
- type: olm.package
  value: {packageName: foo, version: 2.0.0}
---
schema: olm.bundle
package: foo
name: foo.v1.0.0
image: quay.io/foo/bundle:v1.0.0
properties:
- type: olm.package
  value: {packageName: foo, version: 1.0.0}
`;
const files = [{ path: 'foo/catalog.yaml', content: BACKWARDS }];
const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object'
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);
const levels = (r) => r.diagnostics.map((d) => `${d.severity}[${d.code}]`);

test('validate: default levels, config as text or object, per-package levels, lint settings', () => {
  const plain = olm.validate(files);
  assert.equal(plain.passed, true);
  assert.deepEqual(plain.diagnostics.map((d) => d.severity).sort(), ['note', 'warning', 'warning']);
  const yaml = 'lints:\n  unreachable-entry: off\npackages:\n  foo:\n    head-not-highest: error\n';
  const r = olm.validate(files, { config: yaml });
  assert.deepEqual(levels(r).sort(), ['error[head-not-highest]', 'warning[version-goes-backwards]']);
  assert.equal(r.valid, false);
  const o = olm.validate(files, { config: { lints: { 'version-goes-backwards': 'note' } }, lint: ['head-not-highest=off'] });
  assert.deepEqual(levels(o).sort(), ['note[unreachable-entry]', 'note[version-goes-backwards]']);
  assert.equal(olm.validate(files, { denyWarnings: true }).passed, false);
  assert.equal(olm.validate(files, { config: 'denyWarnings: true\nlints: {head-not-highest: note, version-goes-backwards: note}\n' }).passed, true);
});

test('validate: opm errors cannot be configured', () => {
  assert.throws(() => olm.validate(files, { config: 'lints:\n  duplicate-bundle: off\n' }), (e) => {
    assert.equal(e.code, 'invalid-config');
    assert.match(e.message, /config:2:3: error\[lint-config-invalid\]: duplicate-bundle is one of opm validate's errors/);
    assert.equal(e.diagnostics[0].code, 'lint-config-invalid');
    return true;
  });
  assert.throws(() => olm.validate(files, { lint: ['invalid-image=off'] }), /invalid-image is one of opm validate's errors/);
});

test('validate: a baseline hides what the old catalog had; olmV1 switches the OLM v1 lints on', () => {
  const v416 = olm.readCatalog(join(catalogs, 'community-v4.16'));
  const v420 = olm.readCatalog(join(catalogs, 'community-v4.20'));
  assert.deepEqual(olm.validate(v416, { baseline: v416 }).diagnostics, []);
  const all = olm.validate(v420).diagnostics.length;
  const fresh = olm.validate(v420, { baseline: v416 }).diagnostics.length;
  assert.equal(fresh, all - olm.validate(v416).diagnostics.length);
  const v1 = olm.validate(v420, { olmV1: true }).diagnostics.filter((d) => d.code.startsWith('olmv1-'));
  assert.ok(v1.some((d) => d.code === 'olmv1-no-all-namespaces'));
  assert.equal(olm.validate(v420).diagnostics.filter((d) => d.code.startsWith('olmv1-')).length, 0);
});

test('Node CLI: the lint flags and the config walk behave as the native CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-lints-'));
  mkdirSync(join(dir, 'repo/catalog/foo'), { recursive: true });
  writeFileSync(join(dir, 'repo/catalog/foo/catalog.yaml'), BACKWARDS);
  writeFileSync(join(dir, 'repo/.olm-catalog.yaml'), 'packages:\n  foo:\n    head-not-highest: error\n');
  writeFileSync(join(dir, 'bad.yaml'), 'lints:\n  invalid-image: off\n');
  const catalog = join(dir, 'repo/catalog');
  const v416 = join(catalogs, 'community-v4.16');
  const cases = [
    [catalog],
    [catalog, '--lint', 'head-not-highest=note', '--deny-warnings'],
    [catalog, '--lint', 'head-not-highest=note', '--lint', 'version-goes-backwards=off', '--deny-warnings'],
    [catalog, '--config', join(dir, 'bad.yaml')],
    [catalog, '--lint', 'nope=off'],
    [join(catalogs, 'community-v4.20'), '--baseline', v416],
    [v416, '--baseline', v416],
    [join(catalogs, 'community-v4.20'), '--olm-v1', '--format', 'json'],
  ];
  for (const args of cases) {
    const n = run(cli, ['validate', ...args]);
    const r = run(native, ['validate', ...args]);
    assert.equal(n.code, r.code, `exit code of ${args.join(' ')}`);
    // JSON keys come out in another order natively (serde sorts them): compare the values.
    const value = (o) => (args.includes('json') ? sortKeys(JSON.parse(o)) : o);
    assert.deepEqual(value(n.out), value(r.out), `output of ${args.join(' ')}`);
    assert.equal(n.err.split('\n')[0], r.err.split('\n')[0], `error of ${args.join(' ')}`);
  }
  assert.equal(run(cli, ['validate', catalog]).code, 1);
  const sarif = JSON.parse(run(cli, ['validate', '--format', 'sarif', join(catalogs, 'community-v4.16')]).out);
  assert.ok(sarif.runs[0].results.some((x) => x.level === 'note'));
});
