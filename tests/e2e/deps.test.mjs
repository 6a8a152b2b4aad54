// End-to-end test of the package view's Dependencies section (www/src/deps.js) in Debian's
// headless Chromium through playwright-core: three real packages of community-v4.20 (one needing
// the other, one needing cert-manager, which is not there) drawn as columns, unsatisfied
// requirements marked, clicking a package opens it; and a hostile catalog whose strings must stay
// text. Screenshots go to www/e2e-screenshots/ (git-ignored). Run by `make test-e2e`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { serve, launch, repo, fbc } from './serve.mjs';

const shots = join(repo, 'www/e2e-screenshots');
mkdirSync(shots, { recursive: true });
const community = join(fbc, 'community-v4.20');

let server;
let browser;
let base;
let folder;

before(async () => {
  server = await serve();
  base = server.base;
  browser = await launch();
  folder = join(mkdtempSync(join(tmpdir(), 'olm-deps-e2e-')), 'catalog');
  for (const p of ['rabbitmq-cluster-operator', 'rabbitmq-messaging-topology-operator', 'alloydb-omni-operator']) {
    cpSync(join(community, p), join(folder, p), { recursive: true });
  }
});

after(async () => {
  await browser?.close();
  server?.close();
  if (folder) rmSync(dirname(folder), { recursive: true, force: true });
});

async function openPage() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.goto(base);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

/** Open `pkg` in the package table and its Dependencies section; wait for the drawing. */
async function openDeps(page, pkg) {
  await page.click('#tab-explore');
  await page.click(`#packages button[data-package="${pkg}"]`);
  if (await page.locator('#deps-body').isHidden()) await page.click('#deps-toggle');
  await page.waitForFunction((p) => (document.body.dataset.depsDrawn ?? '').startsWith(`${p}:`), pkg);
}

/** The full texts of the nodes (the drawing may cut them): a requirement's, or a package name. */
const texts = (page, sel) => page.locator(sel).evaluateAll((els) => els.map((e) => e.dataset.requirement ?? e.dataset.package));

test('dependencies of real packages: columns, unsatisfied marks, navigation', async () => {
  const { page, errors } = await openPage();
  await page.setInputFiles('#pick-folder', folder);
  await page.waitForSelector('#summary.valid', { timeout: 20000 });

  await openDeps(page, 'rabbitmq-messaging-topology-operator');
  const svg = '#deps-graph svg';
  assert.deepEqual(await texts(page, `${svg} .dnode.self`), ['rabbitmq-messaging-topology-operator']);
  assert.deepEqual(await texts(page, `${svg} .dnode.req`), ['package rabbitmq-cluster-operator >2.0.0', 'GVK rabbitmq.com/v1beta1 RabbitmqCluster']);
  assert.equal(await page.locator(`${svg} .dnode.req.satisfied`).count(), 2);
  assert.deepEqual(await texts(page, `${svg} .dnode.provider`), ['rabbitmq-cluster-operator', 'rabbitmq-cluster-operator']);
  assert.equal(await page.locator(`${svg} .dnode.requirer`).count(), 0);
  assert.match(await page.textContent('#deps-summary'), /2 requirements; required by 0 packages/);
  await page.locator('#deps-view').scrollIntoViewIfNeeded();
  await page.locator('#deps-view').screenshot({ path: join(shots, 'deps-topology.png') });

  // Clicking a provider opens that package, whose view shows who requires it.
  await page.locator(`${svg} .dnode.provider`).first().click();
  await page.waitForFunction(() => (document.body.dataset.depsDrawn ?? '').startsWith('rabbitmq-cluster-operator:'));
  assert.match(await page.textContent('#channel-title'), /^rabbitmq-cluster-operator/);
  assert.deepEqual(await texts(page, `${svg} .dnode.requirer`), ['rabbitmq-messaging-topology-operator', 'rabbitmq-messaging-topology-operator']);
  await page.locator('#deps-view').screenshot({ path: join(shots, 'deps-requirers.png') });
  // Keyboard: a requirer is a link reached by Tab and opened with Enter.
  await page.locator(`${svg} .dnode.requirer`).first().focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (document.body.dataset.depsDrawn ?? '').startsWith('rabbitmq-messaging-topology-operator:'));

  await openDeps(page, 'alloydb-omni-operator');
  assert.equal(await page.locator(`${svg} .dnode.req.unsatisfied`).count(), 4);
  assert.equal(await page.locator(`${svg} .dnode.provider`).count(), 0);
  assert.equal(await page.locator(`${svg} .dedge.unsatisfied`).count(), 4);
  assert.match(await page.textContent('#deps-summary'), /4 requirements, 4 unsatisfied/);
  // Heads only: the head asks for the three GVKs, not for the cert-manager package.
  await page.check('#deps-heads');
  await page.waitForFunction(() => /channel heads only/.test(document.getElementById('deps-summary').textContent));
  assert.equal(await page.locator(`${svg} .dnode.req.unsatisfied`).count(), 3);
  await page.locator('#deps-view').scrollIntoViewIfNeeded();
  await page.locator('#deps-view').screenshot({ path: join(shots, 'deps-unsatisfied.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('dependencies of a hostile catalog: every string stays text', async () => {
  const { page, errors } = await openPage();
  const evil = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
  const bundle = (pkg, name, version, props) => ({ schema: 'olm.bundle', package: pkg, name, image: `quay.io/x/${pkg}:${version}`, properties: [{ type: 'olm.package', value: { packageName: pkg, version } }, ...props] });
  const blobs = [
    { schema: 'olm.package', name: 'app', defaultChannel: 'stable' },
    { schema: 'olm.channel', package: 'app', name: 'stable', entries: [{ name: 'app.v1.0.0' }] },
    bundle('app', 'app.v1.0.0', '1.0.0', [
      { type: 'olm.gvk.required', value: { group: 'db.io', version: 'v1', kind: `Db${evil}` } },
      { type: 'olm.constraint', value: { failureMessage: evil, cel: { rule: `properties.exists(p, p.type == '${evil}')` } } },
      { type: 'olm.package.required', value: { packageName: 'ghost', versionRange: '>=1.0.0' } },
    ]),
    { schema: 'olm.package', name: 'db', defaultChannel: 'stable' },
    { schema: 'olm.channel', package: 'db', name: 'stable', entries: [{ name: 'db.v1.0.0' }] },
    bundle('db', 'db.v1.0.0', '1.0.0', [{ type: 'olm.gvk', value: { group: 'db.io', version: 'v1', kind: `Db${evil}` } }]),
  ];
  await page.locator('#paste').evaluate((el) => { el.closest('details').open = true; });
  await page.locator('#paste').evaluate((el, text) => { el.value = text; }, blobs.map((b) => JSON.stringify(b)).join('\n'));
  await page.click('#paste-load');
  await page.waitForSelector('#summary.valid, #summary.invalid');
  await openDeps(page, 'app');
  const svg = '#deps-graph svg';
  assert.equal(await page.locator('#deps-view img, #deps-view script').count(), 0);
  const reqs = await texts(page, `${svg} .dnode.req`);
  assert.equal(reqs.length, 3);
  assert.ok(reqs.some((t) => t.startsWith('GVK db.io/v1 Db"><img')), JSON.stringify(reqs));
  assert.equal(await page.locator(`${svg} .dnode.req.unknown`).count(), 1);
  assert.equal(await page.locator(`${svg} .dnode.req.unsatisfied`).count(), 1);
  assert.ok((await page.textContent('#deps-list')).includes(`failure message: ${evil}`));
  assert.deepEqual(await texts(page, `${svg} .dnode.provider`), ['db']);
  await page.locator('#deps-view').scrollIntoViewIfNeeded();
  await page.locator('#deps-view').screenshot({ path: join(shots, 'deps-hostile.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
