// The site as a newcomer meets it, in headless Chromium: the first view says what the page does
// and opens the example in one click; deep links restore what was on screen and follow the user;
// the report's filters and search (on community-v4.20's findings); the Embed snippet; and
// axe-core finds no serious or critical accessibility violation on the main views.
// Run after `scripts/build-site.sh`: `node --test tests/e2e/newcomer.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { useSite, newPage, axeViolations, fbc, repo } from './serve.mjs';

const shots = join(repo, 'www/e2e-screenshots'); // git-ignored
mkdirSync(shots, { recursive: true });

let server;
let browser;
useSite((s, b) => {
  [server, browser] = [s, b];
});

async function open(hash = '') {
  const { page, errors } = await newPage(browser, { bypassCSP: true });
  await page.goto(server.base + hash);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}
const idle = (page) => page.waitForFunction(() => (document.body.dataset.busy ?? '0') === '0');
const hashOf = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));

test('first view: what the page does, and one click to the example graph with a path', async () => {
  const { page, errors } = await open();
  assert.match(await page.textContent('#welcome h2'), /upgrades/);
  assert.match(await page.textContent('#welcome'), /opm validate/);
  assert.ok(await page.isVisible('#try-example'));
  assert.ok(await page.isHidden('#report-filters'));
  assert.deepEqual(await axeViolations(page), [], 'first view');
  await page.click('#try-example');
  await page.waitForSelector('#path-v0 li');
  assert.ok(await page.isHidden('#welcome'));
  assert.ok(await page.locator('#graph svg .node').count() >= 12);
  assert.ok(await page.locator('#graph svg .node.on-path').count() >= 2);
  assert.deepEqual(await hashOf(page), { catalog: 'community', package: 'aws-neuron-operator', channel: 'Fast', from: 'aws-neuron-operator.v1.1.1' });
  assert.deepEqual(await axeViolations(page), [], 'graph view');
  assert.deepEqual(errors, []);
  await page.close();
});

test('deep link: restores catalog, package, channel and path, and follows navigation', async () => {
  const { page, errors } = await open('#catalog=community&package=aws-neuron-operator&channel=Stable&from=aws-neuron-operator.v1.1.3');
  await page.waitForSelector('#path-v0 li');
  assert.equal(await page.inputValue('#channel'), 'Stable');
  assert.equal(await page.inputValue('#example'), 'community');
  assert.deepEqual(await page.locator('#path-v0 li').allTextContents(), [
    'aws-neuron-operator.v1.1.3 → aws-neuron-operator.v1.1.4 (replaces)',
    'aws-neuron-operator.v1.1.4 → aws-neuron-operator.v1.1.5 (replaces)',
    'aws-neuron-operator.v1.1.5 → aws-neuron-operator.v1.2.0 (replaces)',
  ]);
  // Another channel: the link follows (and the path, which was the other channel's, is gone).
  await page.selectOption('#channel', 'Fast');
  await page.waitForFunction(() => location.hash.includes('channel=Fast'));
  assert.deepEqual(await hashOf(page), { catalog: 'community', package: 'aws-neuron-operator', channel: 'Fast' });
  // Another package by its button, then a path.
  await page.click('button[data-package="nfs-provisioner-operator"]');
  await page.waitForFunction(() => location.hash.includes('package=nfs-provisioner-operator'));
  await page.fill('#from', 'nfs-provisioner-operator.v0.0.8');
  await page.click('#path-go');
  await page.waitForFunction(() => location.hash.includes('from='));
  assert.deepEqual(await hashOf(page), { catalog: 'community', package: 'nfs-provisioner-operator', channel: 'alpha', from: 'nfs-provisioner-operator.v0.0.8' });
  // Editing the address bar's hash is followed too: another bundled example.
  await page.evaluate(() => { location.hash = '#catalog=update-before&package=ecr-secret-operator'; });
  await page.waitForFunction(() => document.querySelector('#channel-title').textContent.startsWith('ecr-secret-operator'));
  assert.equal(await page.inputValue('#example'), 'update-before');
  // Files opened by hand cannot be linked to: the hash goes.
  await page.locator('details:has(#paste) > summary').first().click();
  await page.fill('#paste', 'schema: olm.package\nname: solo\n');
  await page.click('#paste-load');
  await page.waitForFunction(() => location.hash === '');
  await idle(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('deep link to a URL: a directory index, a single JSON file, and one that fails', async () => {
  // An index of kube-descheduler's files, served beside them.
  const dir = 'kube-descheduler/v4.20/catalog';
  const root = join(fbc, dir);
  const files = [];
  const walk = (dir) => {
    for (const n of readdirSync(dir).sort()) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(relative(root, p));
    }
  };
  walk(root);
  server.routes.set(`/fbc/${dir}/index.json`, { type: 'application/json', body: JSON.stringify({ files }) });
  const pkgName = files[0].split('/')[0];
  const { page, errors } = await open(`#catalog=${encodeURIComponent(`/fbc/${dir}/index.json`)}&package=${pkgName}`);
  await page.waitForSelector('#graph svg .node');
  assert.match(await page.textContent('#channel-title'), new RegExp(`^${pkgName} — channel `));
  assert.equal((await hashOf(page)).catalog, `${server.base}fbc/${dir}/index.json`);
  assert.match(await page.textContent('#summary'), new RegExp(` in ${files.length} files?$`));
  // One file by its URL.
  await page.evaluate((f) => { location.hash = `#catalog=${encodeURIComponent(f)}`; }, `/fbc/${dir}/${files[0]}`);
  await page.waitForFunction(() => / in 1 file$/.test(document.querySelector('#summary').textContent));
  // A URL that is not there: a clear message, no exception.
  await page.evaluate(() => { location.hash = '#catalog=/nowhere/index.json'; });
  await page.waitForFunction(() => /Could not load the catalog: fetch-failed: .*nowhere\/index\.json: HTTP 404/.test(document.querySelector('#summary').textContent));
  assert.deepEqual(errors, []);
  await page.close();
});

test('report: community-v4.20 findings grouped by package, filtered, searched', async () => {
  const { page, errors } = await open();
  const root = join(fbc, 'community-v4.20');
  await page.setInputFiles('#pick-folder', root);
  await page.waitForSelector('#summary.valid, #summary.invalid', { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('#report').dataset.shown !== undefined);
  const all = await page.evaluate(() => [...document.querySelectorAll('#report .diag')].map((b) => ({
    severity: b.classList[1], code: b.dataset.code, pkg: b.closest('section').dataset.package, text: b.textContent.toLowerCase(),
  })));
  const notes = Number(await page.getAttribute('#summary', 'data-notes'));
  const warnings = Number(await page.getAttribute('#summary', 'data-warnings'));
  const errs = Number(await page.getAttribute('#summary', 'data-errors'));
  assert.equal(all.length, notes + warnings + errs);
  assert.ok(all.length >= 100, `findings: ${all.length}`);
  const groups = await page.locator('#report section.group').count();
  assert.equal(groups, new Set(all.map((d) => d.pkg)).size);
  assert.match(await page.textContent('#report-shown'), new RegExp(`^${all.length.toLocaleString('en-US')} findings$`));
  const shown = () => page.evaluate(() => ({
    n: Number(document.querySelector('#report').dataset.shown),
    visible: [...document.querySelectorAll('#report .diag')].filter((b) => b.checkVisibility()).length,
    groups: [...document.querySelectorAll('#report section.group')].filter((s) => !s.hidden).length,
  }));
  // Each filter, timed in the page (the filter runs in the change event).
  const timed = (sel, value) => page.evaluate(([s, v]) => {
    const el = document.querySelector(s);
    const t0 = performance.now();
    if (el.type === 'checkbox') el.checked = v; else el.value = v;
    el.dispatchEvent(new Event('change'));
    return performance.now() - t0;
  }, [sel, value]);
  const commonCode = Object.entries(all.reduce((m, d) => ({ ...m, [d.code]: (m[d.code] ?? 0) + 1 }), {})).sort((a, b) => b[1] - a[1])[0][0];
  const ms = [await timed('#report-code', commonCode)];
  let want = all.filter((d) => d.code === commonCode);
  let got = await shown();
  assert.equal(got.n, want.length);
  assert.equal(got.groups, new Set(want.map((d) => d.pkg)).size);
  const pkg = want[0].pkg;
  ms.push(await timed('#report-package', pkg));
  want = want.filter((d) => d.pkg === pkg);
  got = await shown();
  assert.deepEqual(got, { n: want.length, visible: want.length, groups: 1 });
  assert.match(await page.textContent(`#report section[data-package="${pkg}"] .counts`), want.length === all.filter((d) => d.pkg === pkg).length ? /^\d/ : new RegExp(`^${want.length} of `));
  await page.click('#report-clear');
  const sev = all.some((d) => d.severity === 'warning') ? 'warning' : 'error';
  ms.push(await timed(`#report-${sev}`, false));
  got = await shown();
  assert.equal(got.n, all.filter((d) => d.severity !== sev).length);
  await page.click('#report-clear');
  // Search (as typed: applied at the next frame).
  const word = all[Math.floor(all.length / 2)].text.split(/[^a-z]+/).find((w) => w.length > 6) ?? 'channel';
  await page.fill('#report-search', word);
  await page.waitForFunction((n) => Number(document.querySelector('#report').dataset.shown) === n, all.filter((d) => d.text.includes(word)).length);
  console.log(`e2e: community-v4.20 report: ${all.length} findings in ${groups} packages; filtering took ${ms.map((m) => m.toFixed(1)).join(', ')} ms`);
  await page.screenshot({ path: join(shots, 'report-filtered.png') });
  assert.deepEqual(await axeViolations(page), [], 'report');
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed: the snippet says what is on screen, escaped', async () => {
  const { page, errors } = await open('#catalog=community&package=aws-neuron-operator&channel=Stable&from=aws-neuron-operator.v1.1.3');
  await page.waitForSelector('#path-v0 li');
  await page.click('#embed');
  assert.ok(await page.isVisible('#embed-dialog'));
  const snippet = await page.inputValue('#embed-code');
  assert.equal(snippet, [
    `<script type="module" src="${server.base}olm-upgrade-graph.js"></script>`,
    `<olm-upgrade-graph src="${server.base}examples/community/index.json" package="aws-neuron-operator" channel="Stable" from="aws-neuron-operator.v1.1.3"></olm-upgrade-graph>`,
  ].join('\n'));
  assert.ok(await page.isHidden('#embed-note'));
  assert.deepEqual(await axeViolations(page), [], 'embed dialog');
  await page.click('#embed-close');
  assert.ok(await page.isHidden('#embed-dialog'));
  // The index the snippet names lists the example's files.
  const index = await (await fetch(`${server.base}examples/community/index.json`)).json();
  assert.ok(index.files.includes('aws-neuron-operator/catalog.yaml'));
  assert.deepEqual(errors, []);
  await page.close();
});
