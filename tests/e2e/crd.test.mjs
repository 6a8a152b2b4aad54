// CRD upgrade safety on screen, in headless Chromium: a real `olm.bundle.object` catalog
// (koku-metrics-operator of community-v4.16, whose channel has upgrades OLM refuses for their CRDs)
// in the site and in `<olm-upgrade-graph>`. The unsafe edges are the ones `crdSafety` (the tools'
// module, run in Node on the same files) finds; each is drawn red and dashed with a "!" mark that
// Tab reaches, named for the edge and its rules; Enter on it opens the CRD diff with the offending
// fields highlighted; the path panel and the Compare tab's update-safety rows say why; axe-core
// finds nothing serious; showing the CRD diff (an excerpt, or the whole CRDs of
// 1,600 lines) blocks the main thread for no task of 100 ms (as site.test.mjs bounds loading).
// Screenshots (looked at, not compared) go to www/e2e-screenshots/.
// Run after `scripts/build-site.sh`: `node --test tests/e2e/crd.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSite, newPage, axeViolations, fbc, repo } from './serve.mjs';

const { init, initTools, crdSafety } = await import(join(repo, 'pkg/index.js'));
await init(readFileSync(join(repo, 'pkg/dist/web/olm_catalog_bg.wasm')));
await initTools(readFileSync(join(repo, 'pkg/dist/web-tools/olm_catalog_bg.wasm')));

const shots = join(repo, 'www/e2e-screenshots');
mkdirSync(shots, { recursive: true });
const PKG = 'koku-metrics-operator';
const FILE = `${PKG}/catalog.yaml`;
const files = [{ path: FILE, content: readFileSync(join(fbc, 'community-v4.16', FILE), 'utf8') }];
const expected = crdSafety(files, { package: PKG });
const unsafe = expected.edges.filter((e) => !e.safe && e.channel === 'alpha');
const stored = unsafe.find((e) => e.findings.some((f) => f.rule === 'olmV0StoredVersion'));
const required = unsafe.find((e) => e.findings.some((f) => f.rule === 'required'));

let server;
let browser;
useSite((s, b) => {
  [server, browser] = [s, b];
});

const idle = (page) => page.waitForFunction(() => document.body.dataset.busy === '0', null, { timeout: 60000 });

/** The unsafe edges drawn in `root` (the page or an element's shadow root): `[from, to]` of each mark, and of each red curve. */
function drawnUnsafe(root) {
  const pairs = (sel) => [...root.querySelectorAll(sel)].map((e) => `${e.getAttribute('data-from')} → ${e.getAttribute('data-to')}`).sort();
  return { marks: pairs('.unsafe-mark'), curves: pairs('path.edge.unsafe') };
}

test('site: unsafe edges in the graph, keyboard to the CRD diff, reasons in the path, axe, no long task', async () => {
  assert.ok(unsafe.length >= 3 && stored && required, `crdSafety finds the unsafe edges: ${unsafe.length}`);
  const { page, errors } = await newPage(browser, { bypassCSP: true });
  const url = `${server.base}fbc/community-v4.16/${FILE}`;
  await page.goto(`${server.base}#catalog=${encodeURIComponent(url)}&package=${PKG}&channel=alpha`);
  await page.waitForSelector('#graph .unsafe-mark', { timeout: 60000 });
  await idle(page);
  // Every unsafe edge of the channel that the picture draws is marked, and only those.
  const drawnEdges = await page.$$eval('#graph path.edge', (els) => els.map((e) => `${e.getAttribute('data-from')} → ${e.getAttribute('data-to')}`));
  const want = unsafe.map((e) => `${e.from} → ${e.to}`).filter((k) => drawnEdges.includes(k)).sort();
  assert.ok(want.length >= 1, 'some unsafe edge is drawn');
  const got = await page.evaluate(drawnUnsafe.toString().replace(/^function drawnUnsafe/, '(function') + ')(document.querySelector("#graph"))');
  assert.deepEqual(got.marks, want);
  assert.deepEqual(got.curves, want);
  assert.equal(await page.getAttribute('#graph', 'data-unsafe'), String(want.length));
  assert.match(await page.textContent('#crd-note'), new RegExp(`^${unsafe.length} upgrades of this channel OLM refuses`));
  assert.equal(await page.locator('.legend .pl.unsafe').count(), 1);

  // Keyboard: Tab from the last node reaches the marks; each is named for its edge and rules.
  const first = unsafe.find((e) => want.includes(`${e.from} → ${e.to}`));
  const mark = page.locator(`#graph .unsafe-mark[data-from="${first.from}"][data-to="${first.to}"]`);
  const label = await mark.getAttribute('aria-label');
  assert.match(label, new RegExp(`^Unsafe upgrade ${first.from.replace(/\./g, '\\.')} → `));
  for (const rule of new Set(first.findings.map((f) => f.rule))) assert.ok(label.includes(rule), `${label} names ${rule}`);
  const lastNode = await page.$$eval('#graph [data-node]', (els) => els.at(-1).getAttribute('data-node'));
  await page.focus(`#graph [data-node="${lastNode}"]`);
  const tabbed = [];
  for (let i = 0; i < want.length; i++) {
    await page.keyboard.press('Tab');
    tabbed.push(await page.evaluate(() => document.activeElement?.closest('.unsafe-mark') ? `${document.activeElement.dataset.from} → ${document.activeElement.dataset.to}` : document.activeElement?.id));
  }
  assert.deepEqual([...tabbed].sort(), want);
  // A focused mark is brought into view.
  await mark.focus();
  const inView = await page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    const v = document.querySelector('#graph').getBoundingClientRect();
    return r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom;
  });
  assert.ok(inView, 'the focused mark is inside the graph viewport');
  await page.locator('#graph').screenshot({ path: join(shots, 'crd-graph.png') });
  await page.evaluate(() => {
    window.longest = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longest = Math.max(window.longest, e.duration); }).observe({ type: 'longtask' });
  });
  await page.keyboard.press('Enter');
  await page.waitForSelector('#crd-view:not([hidden]) mark.crd-hit');
  await idle(page);
  assert.equal(await page.textContent('#crd-title'), `CRD diff: ${first.from} → ${first.to}`);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'crd-title');
  const longest = await page.evaluate(() => window.longest);
  console.log(`e2e: CRD diff of ${first.from} → ${first.to}: longest main-thread task ${Math.round(longest)} ms`);
  assert.ok(longest < 100, `long task ${longest} ms`);

  // The stored-version edge: its old CRD's stored version is highlighted; the whole CRDs on request.
  await page.locator(`#graph .unsafe-mark[data-from="${stored.from}"]`).dispatchEvent('click');
  await page.waitForFunction((t) => document.querySelector('#crd-title').textContent.endsWith(t), stored.to);
  const hits = await page.$$eval('#crd-body figure', (figs) => figs.map((f) => [...f.querySelectorAll('mark.crd-hit')].map((m) => m.textContent)));
  assert.ok(hits[0].some((t) => /^- name: v1alpha1.*storedVersionRemoval/.test(t)), JSON.stringify(hits[0]));
  const excerptLines = await page.$eval('#crd-body figure:first-child pre', (e) => e.textContent.split('\n').length);
  await page.evaluate(() => { window.longest = 0; });
  await page.check('#crd-whole');
  await page.waitForFunction((n) => document.querySelector('#crd-body figure:first-child pre').textContent.split('\n').length > n, excerptLines);
  await idle(page);
  const whole = await page.$$eval('#crd-body pre', (els) => els.map((e) => e.textContent.split('\n').length - 1));
  const wholeLongest = await page.evaluate(() => window.longest);
  console.log(`e2e: the whole CRDs of ${stored.from} → ${stored.to} (${whole.join(' and ')} lines): longest main-thread task ${Math.round(wholeLongest)} ms`);
  assert.ok(wholeLongest < 100, `long task ${wholeLongest} ms`);
  await page.uncheck('#crd-whole');

  // The required-field edge: the new CRD's `required` line of the field's parent is highlighted.
  await page.locator(`#graph .unsafe-mark[data-from="${required.from}"]`).dispatchEvent('click');
  await page.waitForFunction((t) => document.querySelector('#crd-title').textContent.endsWith(t), required.to);
  const newHits = await page.$$eval('#crd-body figure:nth-child(2) mark.crd-hit', (els) => els.map((m) => m.textContent));
  assert.ok(newHits.some((t) => /required: \[.*max_reports_to_store.*\].*← required/.test(t)), JSON.stringify(newHits));
  assert.match(await page.textContent('#crd-body .crd-findings'), /new required fields: \[max_reports_to_store\]/);
  await page.locator('#crd-view').screenshot({ path: join(shots, 'crd-diff.png') });

  // The path panel: each unsafe step says who refuses it and why, with its CRD diff one click away.
  await page.fill('#from', stored.from);
  await page.press('#from', 'Enter');
  await page.waitForSelector('#path-v1 li.unsafe');
  const v1 = await page.locator(`#path-v1 li.unsafe[data-to="${stored.to}"]`).textContent();
  assert.match(v1, /OLM v1 refuses it: storedVersionRemoval, olmV0StoredVersion/);
  const v0 = await page.locator(`#path-v0 li.unsafe[data-to="${stored.to}"]`).textContent();
  assert.match(v0, /OLM v0 refuses it/);
  await page.locator(`#path-v1 li.unsafe[data-to="${stored.to}"] button.crd-open`).click();
  await page.waitForFunction((t) => document.querySelector('#crd-title').textContent.endsWith(t), stored.to);

  const violations = await axeViolations(page);
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('site: the Compare tab says which installed versions OLM v1 is blocked at, and why', async () => {
  const { page, errors } = await newPage(browser, { bypassCSP: true });
  const url = `${server.base}fbc/community-v4.16/${FILE}`;
  await page.goto(`${server.base}#catalog=${encodeURIComponent(url)}&package=${PKG}&channel=alpha`);
  await page.waitForSelector('#graph svg .node', { timeout: 60000 });
  await page.click('#tab-compare');
  await page.check('#cmp-old-saved');
  await page.check('#cmp-new-edited');
  await page.click('#cmp-go');
  await page.waitForSelector('#cmp-safety', { timeout: 60000 });
  await idle(page);
  // OLM v1's next step from the installed version is the required-field edge's: refused.
  const row = page.locator(`#cmp-safety tr[data-channel="alpha"][data-installed="${required.from}"]`);
  assert.equal(await row.getAttribute('data-blocked'), 'true');
  const cell = await row.locator('td.cmp-blocked').textContent();
  assert.match(cell, new RegExp(`blocked at ${required.to.replace(/\./g, '\\.')}`));
  assert.match(cell, /crd-required/);
  assert.match(cell, /new required fields: \[max_reports_to_store\]/);
  // Shown with the default "changed rows only": a blocked row counts as changed.
  assert.ok(await row.isVisible());
  const blocked = await page.locator('#cmp-safety tr[data-blocked="true"]').count();
  assert.equal(blocked, 10, 'the five unsafe first steps of alpha and of beta');
  assert.match(await page.textContent(`#cmp-safety section[data-package="${PKG}"] h3`), /, 10 blocked by CRDs\)$/);
  // The preflight's error is one click away (a closed disclosure), so the table stays readable.
  await row.locator('details.cmp-reason summary').click();
  assert.ok(await row.locator('details.cmp-reason').evaluate((d) => d.open));
  await page.locator(`#cmp-safety section[data-package="${PKG}"]`).screenshot({ path: join(shots, 'crd-compare.png') });
  assert.match(cell, /validating upgrade for CRD "kokumetricsconfigs\.koku-metrics-cfg\.openshift\.io"/);
  assert.deepEqual(await axeViolations(page, '#cmp-safety'), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('<olm-upgrade-graph>: the crdSafety property marks the unsafe edges; Enter on a mark fires edge-select', async () => {
  const body = `<olm-upgrade-graph id="g" src="/fbc/community-v4.16/${FILE}" package="${PKG}" channel="alpha" from="${stored.from}"></olm-upgrade-graph>
<script type="module">
  import init, { initTools, crdSafety } from '/pkg/index.js';
  window.picked = [];
  document.addEventListener('edge-select', (e) => window.picked.push(e.detail.edge.to));
  await init('/pkg/dist/web/olm_catalog_bg.wasm');
  await initTools('/pkg/dist/web-tools/olm_catalog_bg.wasm');
  const text = await (await fetch('/fbc/community-v4.16/${FILE}')).text();
  document.querySelector('#g').crdSafety = crdSafety([{ path: '${FILE}', content: text }], { package: '${PKG}' });
</script>`;
  server.routes.set('/crd-element.html', { type: 'text/html', body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>crd element</title>
<link rel="icon" href="data:,"><script type="module" src="/olm-upgrade-graph.js"></script></head><body><main><h1>crd element</h1>${body}</main></body></html>` });
  const { page, errors } = await newPage(browser, { bypassCSP: true, viewport: { width: 1000, height: 900 } });
  await page.goto(`${server.base}crd-element.html`);
  await page.waitForFunction(() => document.querySelector('#g')?.shadowRoot?.querySelector('.unsafe-mark'), null, { timeout: 60000 });
  const got = await page.evaluate(drawnUnsafe.toString().replace(/^function drawnUnsafe/, '(function') + ')(document.querySelector("#g").shadowRoot)');
  const drawnEdges = await page.evaluate(() => [...document.querySelector('#g').shadowRoot.querySelectorAll('path.edge')].map((e) => `${e.getAttribute('data-from')} → ${e.getAttribute('data-to')}`));
  const want = unsafe.map((e) => `${e.from} → ${e.to}`).filter((k) => drawnEdges.includes(k)).sort();
  assert.deepEqual(got.marks, want);
  assert.deepEqual(got.curves, want);
  const status = await page.evaluate(() => document.querySelector('#g').shadowRoot.querySelector('.status').textContent);
  assert.match(status, new RegExp(`${want.length} upgrades? unsafe for`));
  const step = await page.evaluate((to) => document.querySelector('#g').shadowRoot.querySelector(`.steps li[data-to="${to}"]`)?.textContent, stored.to);
  assert.match(step, /OLM v1 refuses it: storedVersionRemoval/);
  await page.evaluate((from) => document.querySelector('#g').shadowRoot.querySelector(`.unsafe-mark[data-from="${from}"]`).focus(), stored.from);
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.evaluate(() => window.picked), [stored.to]);
  await page.locator('#g').screenshot({ path: join(shots, 'crd-element.png') });
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

/** A CRD `widgets.example.com` in `scope`, as an `olm.bundle.object` value's base64 data. */
const widgetCrd = (scope) => Buffer.from(JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' },
    scope,
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
  },
})).toString('base64');

/**
 * A channel whose head replaces 1.2.0 and skips 1.0.0 and 1.1.0 by its skipRange (drawn as one
 * collapsed fan), and whose CRD changes scope: every upgrade to it is unsafe.
 */
const FAN_CATALOG = [
  'schema: olm.package\nname: fanop\ndefaultChannel: stable',
  `schema: olm.channel\npackage: fanop\nname: stable\nentries:
  - name: fanop.v1.0.0
  - name: fanop.v1.1.0
    replaces: fanop.v1.0.0
  - name: fanop.v1.2.0
    replaces: fanop.v1.1.0
  - name: fanop.v2.0.0
    replaces: fanop.v1.2.0
    skipRange: '>=1.0.0 <1.2.0'`,
  ...['1.0.0', '1.1.0', '1.2.0', '2.0.0'].map((v) => `schema: olm.bundle\npackage: fanop\nname: fanop.v${v}\nimage: example.com/fanop:v${v}
properties:
  - type: olm.package
    value: {packageName: fanop, version: ${v}}
  - type: olm.bundle.object
    value: {data: ${widgetCrd(v === '2.0.0' ? 'Cluster' : 'Namespaced')}}`),
].join('\n---\n') + '\n';

test('site: a collapsed skipRange fan is marked unsafe when an upgrade it stands for is, its mark naming them', async () => {
  const fanUnsafe = crdSafety([{ path: 'fanop/catalog.yaml', content: FAN_CATALOG }], { package: 'fanop' }).edges.filter((e) => !e.safe);
  const viaFan = fanUnsafe.filter((e) => e.via.includes('skipRange'));
  assert.deepEqual(viaFan.map((e) => e.from).sort(), ['fanop.v1.0.0', 'fanop.v1.1.0']);
  server.routes.set('/made/fanop/catalog.yaml', { type: 'text/yaml', body: FAN_CATALOG });
  const { page, errors } = await newPage(browser, { bypassCSP: true });
  await page.goto(`${server.base}#catalog=${encodeURIComponent(`${server.base}made/fanop/catalog.yaml`)}&package=fanop&channel=stable`);
  await page.waitForSelector('#graph .unsafe-mark', { timeout: 60000 });
  await idle(page);
  // The fan's curve is red; its one mark counts and names the upgrades it stands for.
  assert.equal(await page.$eval('#graph path.edge[data-kind="fan"]', (e) => e.classList.contains('unsafe')), true);
  // Drawn red (over the picture's colour by kind), the fan and the replaces edge alike.
  const strokes = await page.$$eval('#graph path.edge.unsafe', (els) => els.map((e) => getComputedStyle(e).stroke));
  assert.deepEqual(strokes, ['rgb(198, 40, 40)', 'rgb(198, 40, 40)']);
  const fanMark = page.locator('#graph .unsafe-mark[data-count]');
  assert.equal(await fanMark.getAttribute('data-count'), '2');
  const label = await fanMark.getAttribute('aria-label');
  assert.match(label, /^2 unsafe upgrades to fanop\.v2\.0\.0 through its skipRange \(from fanop\.v1\.[01]\.0, fanop\.v1\.[01]\.0\): OLM refuses them \(.*scope.*\)/);
  // The replaces edge keeps its own mark: two marks in all, as the graph's count says.
  assert.equal(await page.locator('#graph .unsafe-mark').count(), 2);
  assert.equal(await page.getAttribute('#graph', 'data-unsafe'), '2');
  // Enter on the fan's mark shows the CRD diff of an upgrade it stands for.
  await fanMark.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#crd-view:not([hidden])');
  assert.match(await page.textContent('#crd-title'), /^CRD diff: fanop\.v1\.[01]\.0 → fanop\.v2\.0\.0$/);
  await page.locator('#graph').screenshot({ path: join(shots, 'crd-fan.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
