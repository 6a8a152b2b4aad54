// A typed version as the start of an upgrade path (issue 40), in headless Chromium, on
// community-v4.20's kube-green: typing 0.3.0 in the site's "Installed version or bundle" field
// shows the 9 steps to kube-green.v0.7.1 and highlights them; the head typed as a version is
// already there; a version no bundle has says so; a version two bundles have is asked back with a
// button per bundle; a deep link and `<olm-upgrade-graph from="0.3.0">` read it the same way.
// Screenshots go to www/e2e-screenshots/ (git-ignored).
// Run after `scripts/build-site.sh`: `node --test tests/e2e/from.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSite, newPage, fbc, repo } from './serve.mjs';

const shots = join(repo, 'www/e2e-screenshots');
mkdirSync(shots, { recursive: true });
const kubeGreen = '/fbc/community-v4.20/kube-green/catalog.yaml';

let server;
let browser;
useSite((s, b) => {
  [server, browser] = [s, b];
});

/** The site on kube-green's alpha channel (`catalog`: the catalog file's URL). */
async function openAlpha(catalog = kubeGreen, extra = '') {
  const { page, errors } = await newPage(browser);
  await page.goto(`${server.base}#catalog=${encodeURIComponent(catalog)}&package=kube-green&channel=alpha${extra}`);
  await page.waitForSelector('#graph svg .node', { timeout: 20000 });
  return { page, errors };
}

/** Type `from` in the path's field, press Enter, and wait for both paths' notes. */
async function typeFrom(page, from) {
  await page.fill('#from', from);
  await page.press('#from', 'Enter');
  await page.waitForFunction(() => document.querySelector('#path-v0-note').textContent && document.querySelector('#path-v1-note').textContent);
}

/** What the path panel and the graph show. */
function shown(page) {
  return page.evaluate(() => ({
    v0: [...document.querySelectorAll('#path-v0 li')].map((li) => li.textContent),
    v0Note: document.querySelector('#path-v0-note').textContent,
    v1Note: document.querySelector('#path-v1-note').textContent,
    edgesOnPath: document.querySelectorAll('#graph .edge.on-path').length,
  }));
}

const nine = [
  'kube-green.v0.3.0 → kube-green.v0.3.1 (replaces)', 'kube-green.v0.3.1 → kube-green.v0.4.0 (replaces)',
  'kube-green.v0.4.0 → kube-green.v0.4.1 (replaces)', 'kube-green.v0.4.1 → kube-green.v0.5.0 (replaces)',
  'kube-green.v0.5.0 → kube-green.v0.5.1 (replaces)', 'kube-green.v0.5.1 → kube-green.v0.5.2 (replaces)',
  'kube-green.v0.5.2 → kube-green.v0.6.0 (replaces)', 'kube-green.v0.6.0 → kube-green.v0.7.0 (replaces)',
  'kube-green.v0.7.0 → kube-green.v0.7.1 (replaces)',
];

test('typing 0.3.0 shows the 9 upgrades from kube-green.v0.3.0 and highlights them', async () => {
  const { page, errors } = await openAlpha();
  await typeFrom(page, '0.3.0');
  await page.waitForFunction(() => document.querySelectorAll('#graph .edge.on-path').length > 0);
  const s = await shown(page);
  assert.deepEqual(s.v0, nine);
  assert.equal(s.v0Note, '0.3.0 is the version of kube-green.v0.3.0. 9 upgrades to kube-green.v0.7.1');
  assert.equal(s.v1Note, s.v0Note);
  assert.equal(s.edgesOnPath, 9);
  await page.locator('#path-v0-note').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'from-typed-version.png') });
  // The link says what was typed, and opens the same path.
  assert.match(page.url(), /from=0\.3\.0/);

  await typeFrom(page, 'v0.7.1');
  assert.equal((await shown(page)).v0Note, '0.7.1 is the version of kube-green.v0.7.1. kube-green.v0.7.1 is already at the head of alpha');
  await typeFrom(page, '0.3.5');
  assert.equal((await shown(page)).v0Note, '0.3.5 is not in this catalog; OLM can upgrade it only through a skipRange that covers it. '
    + 'Stranded: no entry of channel "alpha" on OLM v0\'s replaces chain covers 0.3.5 with skipRange');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a deep link from a version opens the same path', async () => {
  const { page, errors } = await openAlpha(kubeGreen, '&from=v0.3.0');
  await page.waitForFunction(() => document.querySelectorAll('#path-v0 li').length > 0);
  assert.deepEqual((await shown(page)).v0, nine);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a version two bundles have is asked back, and a click on one shows its path', async () => {
  // kube-green plus a rebuild of 0.5.0 under another name (no bundled catalog has two bundles of
  // one version: opm validate rejects them, a catalog being written can have them).
  const text = readFileSync(join(fbc, 'community-v4.20/kube-green/catalog.yaml'), 'utf8');
  const entry = '- name: kube-green.v0.5.1\n  replaces: kube-green.v0.5.0\n';
  assert.ok(text.includes(entry));
  const body = text.replace(entry, '- name: kube-green.v0.5.0-rebuilt\n  replaces: kube-green.v0.4.1\n'
    + '- name: kube-green.v0.5.1\n  replaces: kube-green.v0.5.0\n  skips:\n  - kube-green.v0.5.0-rebuilt\n')
    + '---\nschema: olm.bundle\npackage: kube-green\nname: kube-green.v0.5.0-rebuilt\n'
    + 'image: quay.io/example/kube-green-bundle:0.5.0-rebuilt\nproperties:\n'
    + '- type: olm.package\n  value: {packageName: kube-green, version: 0.5.0}\n';
  server.routes.set('/made/kube-green-rebuilt.yaml', { type: 'text/yaml', body });
  const { page, errors } = await openAlpha('/made/kube-green-rebuilt.yaml');
  await typeFrom(page, '0.5.0');
  const s = await shown(page);
  assert.deepEqual(s.v0, []);
  assert.match(s.v0Note, /^2 bundles of this package have version 0\.5\.0 in channel alpha: kube-green\.v0\.5\.0, kube-green\.v0\.5\.0-rebuilt; which one is installed\?/);
  const choices = await page.$$eval('#path-v0-note button', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(choices, ['kube-green.v0.5.0', 'kube-green.v0.5.0-rebuilt']);
  await page.locator('#path-v0-note').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'from-asked-back.png') });
  await page.click('#path-v0-note button:text-is("kube-green.v0.5.0-rebuilt")');
  await page.waitForFunction(() => document.querySelectorAll('#path-v0 li').length === 5);
  assert.equal(await page.inputValue('#from'), 'kube-green.v0.5.0-rebuilt');
  assert.equal((await shown(page)).v0[0], 'kube-green.v0.5.0-rebuilt → kube-green.v0.5.1 (skips)');
  assert.deepEqual(errors, []);
  await page.close();
});

test('<olm-upgrade-graph from="0.3.0"> highlights the 9 steps', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>from</title><link rel="icon" href="data:,">
<script type="module" src="/olm-upgrade-graph.js"></script></head><body><main>
<olm-upgrade-graph id="g" src="${kubeGreen}" package="kube-green" channel="alpha" from="0.3.0"></olm-upgrade-graph></main></body></html>`;
  server.routes.set('/from-element.html', { type: 'text/html', body: html });
  const { page, errors } = await newPage(browser);
  await page.goto(`${server.base}from-element.html`);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#g')?.state), null, { timeout: 20000 });
  const s = await page.evaluate(() => {
    const root = document.querySelector('#g').shadowRoot;
    return {
      state: document.querySelector('#g').state,
      steps: [...root.querySelectorAll('[part=steps] li')].map((li) => li.textContent),
      edgesOnPath: root.querySelectorAll('.edge.on-path').length,
      status: root.querySelector('[part=status]').textContent,
    };
  });
  assert.equal(s.state, 'ready');
  assert.deepEqual(s.steps, nine);
  assert.equal(s.edgesOnPath, 9);
  assert.match(s.status, /^Upgrade path from kube-green\.v0\.3\.0 \(OLM v0 rules\): 0\.3\.0 is the version of kube-green\.v0\.3\.0\. 9 upgrades/);
  await page.screenshot({ path: join(shots, 'from-element.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
