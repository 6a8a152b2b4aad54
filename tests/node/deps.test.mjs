// `packageDeps` through the packed npm package: the same view as the native CLI's
// `deps --format json`, structured errors, and the heads-only option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const native = process.env.NATIVE_CLI;
const community = join(repo, '../shared/catalogs/fbc/community-v4.20');

function nativeDeps(pkg, ...flags) {
  const r = spawnSync(native, ['deps', community, '--package', pkg, '--format', 'json', ...flags], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, json: JSON.parse(r.stdout) };
}

test('packageDeps: equals the native CLI for packages with and without unmet requirements', () => {
  const catalog = olm.loadCatalog(olm.readCatalog(community));
  try {
    for (const [pkg, code] of [['alloydb-omni-operator', 1], ['rabbitmq-messaging-topology-operator', 0], ['rabbitmq-cluster-operator', 0]]) {
      const js = olm.packageDeps(catalog, { package: pkg });
      const cli = nativeDeps(pkg);
      assert.equal(cli.code, code, pkg);
      assert.deepEqual(js, cli.json, pkg);
      const heads = catalog.packageDeps({ package: pkg, headsOnly: true });
      assert.deepEqual(heads, nativeDeps(pkg, '--heads-only').json, `${pkg} heads only`);
      assert.ok(heads.bundles.every((b) => b.headOf.length > 0));
    }
    const alloy = olm.packageDeps(catalog, { package: 'alloydb-omni-operator' });
    assert.equal(alloy.summary.unsatisfied, 4);
    assert.deepEqual(alloy.requirements.map((r) => r.status), ['unsatisfied', 'unsatisfied', 'unsatisfied', 'unsatisfied']);
    const cluster = olm.packageDeps(catalog, { package: 'rabbitmq-cluster-operator' });
    assert.deepEqual([...new Set(cluster.requiredBy.map((r) => r.package))], ['rabbitmq-messaging-topology-operator']);
  } finally {
    catalog.free();
  }
});

test('packageDeps: an unknown package or bad options are structured errors', () => {
  const catalog = olm.loadCatalog([{ path: 'c.yaml', content: 'schema: olm.package\nname: foo\n' }]);
  try {
    assert.throws(() => olm.packageDeps(catalog, { package: 'nope' }), (e) => e instanceof Error && e.code === 'unknown-package' && /no package "nope"/.test(e.message));
    assert.throws(() => olm.packageDeps(catalog, { pkg: 'foo' }), (e) => e instanceof Error && e.code === 'invalid-input');
    assert.throws(() => olm.packageDeps({}, { package: 'foo' }), (e) => e instanceof Error && e.code === 'invalid-input');
    assert.deepEqual(olm.packageDeps(catalog, { package: 'foo' }).requirements, []);
  } finally {
    catalog.free();
  }
});

test('deps: the Node CLI prints what the native one prints, with the same exit codes', () => {
  const cli = join(process.cwd(), 'node_modules/.bin/olm-catalog');
  for (const args of [
    ['--package', 'alloydb-omni-operator'],
    ['--package', 'rabbitmq-cluster-operator'],
    ['--package', 'rabbitmq-messaging-topology-operator', '--heads-only'],
    ['--package', 'alloydb-omni-operator', '--format', 'json'],
    ['--package', 'nope'],
  ]) {
    const node = spawnSync(cli, ['deps', community, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const rust = spawnSync(native, ['deps', community, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(node.status, rust.status, args.join(' '));
    assert.equal(node.stdout, rust.stdout, args.join(' '));
  }
  const text = olm.packageDepsText(olm.loadCatalog(olm.readCatalog(community)), { package: 'alloydb-omni-operator' });
  assert.equal(text.failed, true);
  assert.match(text.text, /\[UNSATISFIED\] package cert-manager >=1\.12\.2 \(olm\.package\.required\)/);
});
