// `validate` cuts its small blocks from a region of pages in front of the module's allocator
// (crates/wasm/src/region.rs): pages are reused when all their blocks are freed and handed back when
// the call ends. Its reports must not depend on what ran before: the same files give the same
// report every time, whatever other calls (which allocate outside the region and keep their
// results) ran between, and catalogs loaded before and after still answer the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const catalogs = join(process.env.REPO, '../shared/catalogs/fbc');
const names = ['openshift-optional-v4.17', 'community-v4.20', 'kube-descheduler', 'community-v4.16'];

test('validate: the same report every time, between loads, sessions and other validations', () => {
  const files = Object.fromEntries(names.map((n) => [n, olm.readCatalog(join(catalogs, n))]));
  const first = Object.fromEntries(names.map((n) => [n, JSON.stringify(olm.validate(files[n]))]));
  // A catalog kept alive across the validations below (its model lives outside any region).
  const kept = olm.loadCatalog(files['openshift-optional-v4.17']);
  const packages = JSON.stringify(kept.packages());
  const session = olm.openCatalog(files['kube-descheduler'], {});
  for (let round = 0; round < 3; round++) {
    for (const n of names) {
      assert.equal(JSON.stringify(olm.validate(files[n])), first[n], `${n}, round ${round}`);
      // Calls outside a region, whose results stay alive, between two validations.
      const loaded = olm.loadCatalog(files[n]);
      assert.ok(loaded.packages().length > 0);
      const path = files['kube-descheduler'][0].path;
      session.update(path, files['kube-descheduler'][0].content);
    }
    assert.equal(JSON.stringify(kept.packages()), packages);
  }
  assert.deepEqual(session.report(), olm.validate(files['kube-descheduler']));
});

test('validate: small inputs and a failing one between large ones', () => {
  const big = olm.readCatalog(join(catalogs, 'community-v4.20'));
  const expected = JSON.stringify(olm.validate(big));
  const small = [{ path: 'p/catalog.yaml', content: 'schema: olm.package\nname: p\ndefaultChannel: stable\n' }];
  const smallReport = JSON.stringify(olm.validate(small));
  for (let i = 0; i < 3; i++) {
    assert.equal(JSON.stringify(olm.validate(small)), smallReport);
    assert.throws(() => olm.validate([{ path: 1, content: 'x' }]));
    assert.equal(JSON.stringify(olm.validate(big)), expected);
  }
});

// `resolve` and `resolveText` cut their small blocks from a region too (crates/wasm/src/lib.rs,
// `RESOLVE_REGION_BYTES`); a catalog's resolver index, built on its first resolution, outlives
// the region. The outcomes must not depend on what ran before either.
test('resolve: the same outcome every time, between validations, loads and failing calls', () => {
  const files = olm.readCatalog(join(catalogs, 'community-v4.20'));
  const older = olm.readCatalog(join(catalogs, 'community-v4.16'));
  const newCatalog = olm.loadCatalog(files);
  const oldCatalog = olm.loadCatalog(older);
  const sources = [
    { name: 'community-v4.20', namespace: 'olm', priority: 10, catalog: newCatalog },
    { name: 'community-v4.16', namespace: 'olm', priority: 0, catalog: oldCatalog },
  ];
  const subscribe = (packages) => packages.map((p) => ({
    name: p.name, package: p.name, channel: p.defaultChannel ?? '', catalog: 'community-v4.20', catalogNamespace: 'olm',
  }));
  const packages = newCatalog.packages();
  const alone = (p) => olm.resolve({ namespace: 'olm', catalogs: sources, subscriptions: subscribe([p]) });
  const problems = [
    // Every package: not satisfiable as a whole (an explanation tree).
    { namespace: 'olm', catalogs: sources, subscriptions: subscribe(packages) },
    // Every tenth package that resolves on its own.
    {
      namespace: 'olm',
      catalogs: sources,
      subscriptions: subscribe(packages.filter((p, i) => i % 10 === 0 && alone(p).errorType === null)),
    },
    // Inline catalogs only.
    {
      namespace: 'ns',
      catalogs: [{ name: 'cat', namespace: 'ns', packages: [{
        name: 'foo', defaultChannel: 'stable',
        channels: [{ name: 'stable', entries: [{ name: 'foo.v2', replaces: 'foo.v1' }, { name: 'foo.v1' }] }],
        bundles: [{ name: 'foo.v1', version: '1.0.0' }, { name: 'foo.v2', version: '2.0.0' }],
      }] }],
      subscriptions: [{ name: 'foo', package: 'foo', channel: 'stable', catalog: 'cat', catalogNamespace: 'ns' }],
    },
  ];
  const first = problems.map((p) => JSON.stringify(olm.resolve(p)));
  const texts = problems.map((p) => olm.resolveText(p));
  assert.equal(JSON.parse(first[0]).errorType, 'NotSatisfiable');
  assert.equal(JSON.parse(first[1]).errorType, null, first[1].slice(0, 300));
  assert.ok(JSON.parse(first[1]).install.length > 1, first[1].slice(0, 300));
  assert.deepEqual(JSON.parse(first[2]).install.map((i) => i.name), ['foo.v2']);
  const small = olm.readCatalog(join(catalogs, 'kube-descheduler'));
  const smallReport = JSON.stringify(olm.validate(small));
  // A catalog loaded after a resolution, resolved against at once (its index is built in that
  // resolution's region and outlives it).
  const resolveLoaded = () => {
    const loaded = olm.loadCatalog(small);
    try {
      return JSON.stringify(olm.resolve({
        namespace: 'olm',
        catalogs: [{ name: 'k', namespace: 'olm', priority: 0, catalog: loaded }],
        subscriptions: subscribe(loaded.packages()).map((s) => ({ ...s, catalog: 'k' })),
      }));
    } finally {
      loaded.free();
    }
  };
  const loadedOutcome = resolveLoaded();
  assert.ok(JSON.parse(loadedOutcome).install.length > 0, loadedOutcome.slice(0, 300));
  for (let round = 0; round < 3; round++) {
    problems.forEach((p, i) => {
      assert.equal(JSON.stringify(olm.resolve(p)), first[i], `problem ${i}, round ${round}`);
      // Between two resolutions: a validation (its own region), a catalog loaded and kept (no
      // region), a failing resolution, and the text form.
      assert.equal(JSON.stringify(olm.validate(small)), smallReport);
      const kept = olm.loadCatalog(small);
      assert.throws(() => olm.resolve({ namespace: 1 }), (e) => e.code === 'invalid-input');
      assert.equal(olm.resolveText(p), texts[i], `problem ${i}, round ${round}`);
      assert.equal(resolveLoaded(), loadedOutcome, `round ${round}`);
      kept.free();
    });
  }
  newCatalog.free();
  oldCatalog.free();
});
