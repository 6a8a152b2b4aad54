// `validate` cuts its small blocks from a region of pages in front of the module's allocator
// (src/wasm/region.rs): pages are reused when all their blocks are freed and handed back when
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
