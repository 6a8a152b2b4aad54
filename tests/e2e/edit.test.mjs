// Editing a catalog in the site, in headless Chromium: a real two-package directory catalog
// (community-v4.20's multi-nic-cni-operator and visionone-containersecurity, served with a
// directory index) is opened by a deep link; from the graph, a bundle is promoted into another
// channel and a bundle of the other package is deprecated, each through its preview (the text
// diff, the catalog diff, the findings, the graph after and before); then undo and redo; Save
// downloads the two changed files as a zip, which is unzipped, served again and opened, and the
// promotion (the new channel entry, now the head) and the deprecation are found in it. Also:
// refusals and their reasons, an undo refused once the file was typed into, the package view's
// operations (add a bundle, a new channel, the default channel) with a single-file download, saving
// into a folder through the File System Access API (all or nothing under injected write and commit
// failures, refused with the file named when the folder's copy changed or was deleted, then
// overwritten or reloaded; www/src/folder.js on its own for the files an edit creates), and the
// time to plan and apply an edit on community-v4.20 (printed). axe-core finds no serious violation in the dialogs, the graph view
// and the Edits panel. Screenshots go to www/e2e-screenshots/ (git-ignored).
// Run after `scripts/build-site.sh`: `node --test tests/e2e/edit.test.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, axeViolations, fbc, repo, require } from './serve.mjs';

const { unzipSync, strFromU8 } = require('fflate');
const shots = join(repo, 'www/e2e-screenshots'); // git-ignored
mkdirSync(shots, { recursive: true });

const NIC = 'multi-nic-cni-operator';
const VISION = 'visionone-containersecurity';
const FILES = [`${NIC}/catalog.yaml`, `${VISION}/catalog.yaml`];

let server;
let browser;
before(async () => {
  server = await serve();
  // The catalog as a directory: an index listing the two packages' files (the real ones).
  server.routes.set('/edit/index.json', { type: 'application/json', body: JSON.stringify({ files: FILES }) });
  for (const f of FILES) server.routes.set(`/edit/${f}`, { type: 'text/yaml', body: readFileSync(join(fbc, 'community-v4.20', f)) });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const idle = (page) => page.waitForFunction(() => (document.body.dataset.busy ?? '0') === '0');
const count = (page, key) => page.evaluate((k) => Number(document.body.dataset[k] ?? 0), key);

/** Open `link`, wait for its graph. */
async function open(link) {
  const { page, errors } = await newPage(browser, { bypassCSP: true, acceptDownloads: true });
  await page.goto(`${server.base}${link}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#graph svg [data-node]');
  await idle(page);
  return { page, errors };
}

/**
 * Pick node `name` in the graph on screen: a click, or with `keyboard`, focus and Enter (a node
 * out of the view is reached that way).
 */
async function pick(page, name, { keyboard = false } = {}) {
  const node = page.locator(`#graph svg [data-node="${name}"]`);
  if (keyboard) {
    await node.focus();
    await page.keyboard.press('Enter');
  } else {
    await node.click();
  }
  await page.waitForSelector(`#edit-node-label:has-text("${name}")`);
}

/**
 * Press Preview (when the dialog has a form; one without fields plans as it opens) and wait for
 * the preview (the dialog clears it on opening).
 */
async function preview(page) {
  if (await page.isVisible('#edit-form')) {
    const planned = await count(page, 'editPlanned');
    await page.click('#edit-plan');
    await page.waitForFunction((n) => Number(document.body.dataset.editPlanned ?? 0) > n, planned);
  }
  await page.waitForSelector('#edit-verdict');
  await page.waitForSelector('#edit-graph svg');
  await idle(page);
}

async function apply(page) {
  const applied = await count(page, 'editApplied');
  await page.click('#edit-apply');
  await page.waitForFunction((n) => Number(document.body.dataset.editApplied ?? 0) > n, applied);
  await page.waitForSelector('#graph svg [data-node]');
  await idle(page);
}

/** The diff lines of the preview, as `+text` / `-text`. */
const diffLines = async (page) => (await page.locator('#edit-preview .udiff .dl.add, #edit-preview .udiff .dl.del').allTextContents()).map((l) => l.replace(/\n$/, ''));

test('promote and deprecate from the graph, preview, apply, undo, redo, save and reload', async () => {
  const { page, errors } = await open(`#catalog=${encodeURIComponent('/edit/index.json')}&package=${NIC}&channel=alpha`);
  assert.equal(await page.inputValue('#channel'), 'alpha');

  // ---- promote the alpha head into stable
  await pick(page, `${NIC}.v1.3.1`);
  await page.click('#edit-promote');
  await page.waitForSelector('#edit-dialog[open] #edit-promote-channel');
  assert.deepEqual(await page.locator('#edit-promote-channel option').allTextContents(), ['beta', 'stable', 'a new channel…']);
  await page.selectOption('#edit-promote-channel', 'stable');
  assert.deepEqual(await axeViolations(page, '#edit-dialog'), [], 'promote form');
  await preview(page);
  const promoted = await diffLines(page);
  assert.deepEqual(promoted, [`+- name: ${NIC}.v1.3.1`, `+  replaces: ${NIC}.v1.2.6`], 'the text diff adds the entry, nothing else');
  assert.match(await page.textContent('#edit-preview summary'), new RegExp(`${NIC}/catalog.yaml`));
  assert.match(await page.textContent('#edit-changes'), /channel stable: head multi-nic-cni-operator\.v1\.2\.6 → multi-nic-cni-operator\.v1\.3\.1; entries added: multi-nic-cni-operator\.v1\.3\.1/);
  assert.match(await page.textContent('#edit-verdict'), /no new findings; the catalog stays valid/);
  assert.equal(await page.getAttribute('#edit-graph', 'data-channel'), 'stable');
  assert.equal(await page.locator(`#edit-graph svg [data-node="${NIC}.v1.3.1"]`).count(), 1, 'the graph after has the promoted bundle');
  assert.equal(await page.locator(`#graph svg [data-node="${NIC}.v1.3.1"]`).count(), 1);
  await page.selectOption('#edit-after-side', 'before');
  await page.waitForSelector('#edit-graph[data-side="before"] svg');
  assert.equal(await page.locator(`#edit-graph svg [data-node="${NIC}.v1.3.1"]`).count(), 0, 'before, stable has no v1.3.1');
  assert.equal(await page.locator(`#edit-graph svg [data-node="${NIC}.v1.2.6"]`).count(), 1);
  await page.selectOption('#edit-after-side', 'after');
  await page.waitForSelector('#edit-graph[data-side="after"] svg');
  assert.deepEqual(await axeViolations(page, '#edit-dialog'), [], 'promote preview');
  await page.screenshot({ path: join(shots, 'edit-promote-preview.png') });
  await apply(page);
  assert.equal(await page.isVisible('#edit-dialog'), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'edit-promote', 'the focus goes back where it was');
  assert.equal(await page.inputValue('#channel'), 'alpha', 'the channel on screen stays');
  await page.selectOption('#channel', 'stable');
  await page.waitForSelector(`#graph svg [data-node="${NIC}.v1.3.1"]`);
  assert.deepEqual(await page.locator('#edit-changed li').allTextContents(), [`${NIC}/catalog.yaml`]);

  // ---- deprecate a bundle of the other package, with the keyboard
  await page.evaluate((hash) => { location.hash = hash; }, `#catalog=${encodeURIComponent('/edit/index.json')}&package=${VISION}&channel=alpha`);
  await page.waitForSelector(`#channel-title:has-text("${VISION}")`);
  await page.waitForSelector(`#graph svg [data-node="${VISION}.v0.0.1"]`);
  await idle(page);
  await pick(page, `${VISION}.v0.0.1`, { keyboard: true });
  // The pick also draws the path from the bundle, then puts the focus back on its node: wait for
  // that, so that the focus moved below is not the one a slow redraw finds.
  await page.waitForFunction(() => document.getElementById('path-v0').textContent !== '');
  await idle(page);
  await page.locator('#edit-deprecate').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#edit-dialog[open] #edit-deprecate-message');
  await page.fill('#edit-deprecate-message', 'v0.0.1 is <b>unsupported</b>: upgrade to v0.0.5');
  await page.keyboard.press('Tab');
  await preview(page);
  const deprecated = await diffLines(page);
  assert.ok(deprecated.every((l) => l.startsWith('+')), 'a deprecation only adds lines');
  assert.ok(deprecated.includes('+schema: olm.deprecations'), deprecated.join('\n'));
  assert.ok(deprecated.some((l) => l.includes('v0.0.1 is <b>unsupported</b>')), 'the message is shown as text');
  assert.equal(await page.locator('#edit-preview b').count(), 0, 'catalog text is never markup');
  assert.match(await page.textContent('#edit-changes'), /bundle visionone-containersecurity\.v0\.0\.1/);
  assert.equal(await page.locator(`#edit-graph svg [data-node="${VISION}.v0.0.1"]`).count(), 1);
  assert.deepEqual(await axeViolations(page, '#edit-dialog'), [], 'deprecate preview');
  await page.screenshot({ path: join(shots, 'edit-deprecate-preview.png') });
  await apply(page);
  await page.waitForSelector('#edit-undeprecate');
  assert.deepEqual(await page.locator('#edit-changed li').allTextContents(), FILES);

  // ---- undo the deprecation, redo it
  assert.match(await page.textContent('#edit-undo'), /deprecate visionone-containersecurity\.v0\.0\.1/);
  const steps = await count(page, 'editSteps');
  await page.click('#edit-undo');
  await page.waitForFunction((n) => Number(document.body.dataset.editSteps ?? 0) > n, steps);
  await idle(page);
  await pick(page, `${VISION}.v0.0.1`, { keyboard: true });
  assert.ok(await page.isVisible('#edit-deprecate'), 'after undo the bundle is not deprecated');
  assert.deepEqual(await page.locator('#edit-changed li').allTextContents(), [`${NIC}/catalog.yaml`], 'undo restored the file');
  assert.match(await page.textContent('#edit-redo'), /deprecate/);
  await page.click('#edit-redo');
  await page.waitForFunction((n) => Number(document.body.dataset.editSteps ?? 0) > n + 1, steps);
  await idle(page);
  await pick(page, `${VISION}.v0.0.1`, { keyboard: true });
  assert.ok(await page.isVisible('#edit-undeprecate'), 'after redo it is deprecated again');
  await page.screenshot({ path: join(shots, 'edit-after-redo.png') });

  // ---- the editor shows the edited text
  await page.click(`#files button:has-text("${VISION}/catalog.yaml")`);
  await page.waitForSelector('#editor .cm-content');
  await page.focus('#editor .cm-content');
  await page.keyboard.press('Control+End'); // the new blob is last; CodeMirror draws what is in view
  await page.waitForSelector('#editor .cm-content :text("olm.deprecations")');
  assert.match(await page.textContent('#editor .cm-content'), /v0\.0\.1 is <b>unsupported<\/b>/);

  // ---- save: two files, one zip
  assert.match(await page.textContent('#edit-download'), /2 files/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#edit-download')]);
  assert.equal(download.suggestedFilename(), 'catalog-changes.zip');
  const zipped = unzipSync(new Uint8Array(readFileSync(await download.path())));
  assert.deepEqual(Object.keys(zipped).sort(), FILES);
  await page.waitForSelector('#edit-changed-h:has-text("No unsaved changes")');
  const original = (f) => readFileSync(join(fbc, 'community-v4.20', f), 'utf8');
  const saved = Object.fromEntries(FILES.map((f) => [f, strFromU8(zipped[f])]));
  // Every original line is still there, in order: the edits only inserted.
  for (const f of FILES) {
    const kept = saved[f].split('\n');
    let i = 0;
    for (const line of original(f).split('\n')) {
      while (i < kept.length && kept[i] !== line) i++;
      assert.ok(i < kept.length, `${f}: line ${JSON.stringify(line)} kept`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();

  // ---- reload the saved files and find the changes
  server.routes.set('/saved/index.json', { type: 'application/json', body: JSON.stringify({ files: FILES }) });
  for (const f of FILES) server.routes.set(`/saved/${f}`, { type: 'text/yaml', body: saved[f] });
  const again = await open(`#catalog=${encodeURIComponent('/saved/index.json')}&package=${NIC}&channel=stable`);
  assert.match(await again.page.textContent('#summary'), /^Valid/);
  const head = again.page.locator(`#graph svg [data-node="${NIC}.v1.3.1"]`);
  assert.equal(await head.count(), 1, 'the promoted bundle is in stable');
  assert.match(await head.locator(':scope > title').textContent(), /head/);
  await again.page.evaluate((hash) => { location.hash = hash; }, `#catalog=${encodeURIComponent('/saved/index.json')}&package=${VISION}&channel=alpha`);
  await again.page.waitForSelector(`#channel-title:has-text("${VISION}")`);
  await idle(again.page);
  await pick(again.page, `${VISION}.v0.0.1`, { keyboard: true });
  assert.ok(await again.page.isVisible('#edit-undeprecate'), 'the saved bundle is deprecated');
  assert.match(await again.page.locator(`#graph svg [data-node="${VISION}.v0.0.1"] > title`).textContent(), /deprecated/);
  await again.page.screenshot({ path: join(shots, 'edit-reloaded.png') });
  assert.deepEqual(again.errors, []);
  await again.page.close();
});

test('a refused operation says why, and nothing changes', async () => {
  const { page, errors } = await open(`#catalog=${encodeURIComponent('/edit/index.json')}&package=${NIC}&channel=stable`);
  await pick(page, `${NIC}.v1.0.3`, { keyboard: true });
  await page.click('#edit-remove');
  await page.waitForSelector('#edit-dialog[open]');
  // Removing the tail of a channel strands nothing; removing it is planned.
  await preview(page);
  assert.match(await page.textContent('#edit-changes'), /removed/);
  await page.click('#edit-cancel');
  assert.equal(await page.isVisible('#edit-dialog'), false);
  // The head cannot be set as head, the default channel neither made default nor removed; a
  // rename onto an existing channel is refused by the model, with its reason.
  await pick(page, `${NIC}.v1.2.6`, { keyboard: true });
  assert.ok(await page.isDisabled('#edit-head'));
  assert.ok(await page.isDisabled('#edit-default-channel'), 'stable is already the default');
  assert.ok(await page.isDisabled('#edit-remove-channel'), 'the default channel cannot be removed');
  await page.click('#edit-rename-channel');
  await page.waitForSelector('#edit-dialog[open] #edit-rename-to');
  await page.fill('#edit-rename-to', 'beta');
  await page.click('#edit-plan');
  await page.waitForFunction(() => document.getElementById('edit-problem').textContent !== '');
  assert.match(await page.textContent('#edit-problem'), /beta/);
  assert.equal(await page.getAttribute('#edit-problem', 'data-code'), 'refused');
  assert.deepEqual(await axeViolations(page, '#edit-dialog'), [], 'a refusal');
  await page.screenshot({ path: join(shots, 'edit-refused.png') });
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#edit-dialog'), false);
  assert.equal(await count(page, 'editChanged'), 0);

  // An applied edit, then the same file typed into: its undo no longer fits, and says so.
  await page.click('#edit-deprecate');
  await page.waitForSelector('#edit-dialog[open] #edit-deprecate-message');
  await preview(page);
  await apply(page);
  await page.click(`#files button:has-text("${NIC}/catalog.yaml")`);
  await page.waitForSelector('#editor .cm-content');
  const loaded = await page.evaluate(() => document.body.dataset.loaded);
  await page.focus('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('# typed by hand\n');
  await page.waitForFunction((before) => document.body.dataset.loaded !== before, loaded);
  await idle(page);
  await page.click('#edit-undo');
  await page.waitForFunction(() => /changed since/.test(document.getElementById('edit-status').textContent));
  assert.match(await page.textContent('#edit-status'), /multi-nic-cni-operator\/catalog\.yaml changed since "deprecate multi-nic-cni-operator\.v1\.2\.6"/);
  assert.match(await page.textContent('#editor .cm-content'), /typed by hand/, 'the typed text stays');
  assert.deepEqual(errors, []);
  await page.close();
});

test('from the package view: add a bundle, create a channel, make it default, deprecate the package; axe on the views', async () => {
  const { page, errors } = await open(`#catalog=${encodeURIComponent('/edit/index.json')}&package=${NIC}&channel=stable`);
  assert.deepEqual(await axeViolations(page, '#channel-view'), [], 'graph view with the edit actions');
  await page.click('#edit-add-bundle');
  await page.waitForSelector('#edit-dialog[open] #edit-add-image');
  await page.fill('#edit-add-image', 'quay.io/example/multi-nic-cni-operator-bundle:v1.4.0');
  await page.fill('#edit-add-name', `${NIC}.v1.4.0`);
  await page.fill('#edit-add-version', '1.4.0');
  assert.deepEqual(await axeViolations(page, '#edit-dialog'), [], 'add bundle form');
  await preview(page);
  const added = await diffLines(page);
  assert.ok(added.includes(`+- name: ${NIC}.v1.4.0`), added.join('\n'));
  assert.ok(added.some((l) => l.includes('quay.io/example/multi-nic-cni-operator-bundle:v1.4.0')));
  assert.match(await page.textContent('#edit-changes'), /added bundle multi-nic-cni-operator\.v1\.4\.0/);
  await page.screenshot({ path: join(shots, 'edit-add-bundle-preview.png') });
  await apply(page);
  await page.waitForSelector(`#graph svg [data-node="${NIC}.v1.4.0"]`);

  // A new channel of two bundles, then the default.
  await page.click('#edit-new-channel');
  await page.waitForSelector('#edit-dialog[open] #edit-channel-name');
  await page.fill('#edit-channel-name', 'candidate');
  await page.check(`#edit-dialog input[type=checkbox][value="${NIC}.v1.3.1"]`);
  await page.check(`#edit-dialog input[type=checkbox][value="${NIC}.v1.4.0"]`);
  await preview(page);
  assert.match(await page.textContent('#edit-changes'), /added channel candidate/);
  assert.equal(await page.getAttribute('#edit-graph', 'data-channel'), 'candidate');
  await apply(page);
  await page.selectOption('#channel', 'candidate');
  await page.waitForSelector('#channel-title:has-text("candidate")');
  await idle(page);
  await page.click('#edit-default-channel');
  await preview(page);
  assert.match(await page.textContent('#edit-changes'), /default channel: stable → candidate/);
  await apply(page);
  assert.match(await page.textContent('#channel'), /candidate \(default\)/);
  await page.click('#edit-deprecate-package');
  await page.fill('#edit-deprecate-package-message', 'Replaced by multi-nic-cni-operator-v2.');
  await preview(page);
  assert.match(await page.textContent('#edit-changes'), /multi-nic-cni-operator: deprecation: — → Replaced by multi-nic-cni-operator-v2\./);
  await apply(page);
  await page.waitForSelector('#edit-undeprecate-package');
  assert.equal(await count(page, 'editChanged'), 1);
  assert.deepEqual(await axeViolations(page, 'aside'), [], 'the Edits panel');
  // One changed file: downloaded as itself.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#edit-download')]);
  assert.equal(download.suggestedFilename(), 'catalog.yaml');
  const text = readFileSync(await download.path(), 'utf8');
  assert.match(text, /defaultChannel: candidate/);
  assert.match(text, /name: candidate/);
  assert.match(text, /- message: Replaced by multi-nic-cni-operator-v2\.\n  reference:\n    schema: olm\.package\n/);
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- the folder (the origin private file system stands for the folder the picker returns)

/** Empty the origin private file system, put `files` (path → text) in it, and make it the picked folder. */
const seedFolder = (page, files) => page.evaluate(async (files) => {
  const root = await navigator.storage.getDirectory();
  for await (const name of root.keys()) await root.removeEntry(name, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    const parts = path.split('/');
    let dir = root;
    for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: true });
    const w = await (await dir.getFileHandle(parts.at(-1), { create: true })).createWritable();
    await w.write(text);
    await w.close();
  }
  // The picker needs a person; the folder it returns is a FileSystemDirectoryHandle, which the
  // origin private file system gives without one.
  window.showDirectoryPicker = () => navigator.storage.getDirectory();
}, files);

/** Every file in the folder: path → text. */
const folderFiles = (page) => page.evaluate(async () => {
  const out = {};
  const walk = async (dir, prefix) => {
    for await (const [name, e] of dir.entries()) {
      if (e.kind === 'file') out[prefix + name] = await (await e.getFile()).text();
      else await walk(e, `${prefix}${name}/`);
    }
  };
  await walk(await navigator.storage.getDirectory(), '');
  return out;
});

/** Another program writes `text` to `path` in the folder. */
const writeInFolder = (page, path, text) => page.evaluate(async ([path, text]) => {
  const parts = path.split('/');
  let dir = await navigator.storage.getDirectory();
  for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p);
  const w = await (await dir.getFileHandle(parts.at(-1))).createWritable();
  await w.write(text);
  await w.close();
}, [path, text]);

/**
 * From now on the `nth` writable the page opens fails its `method` ('write' or 'close') with a
 * full disk; `null`: no failure.
 */
const failWritable = (page, method, nth) => page.evaluate(([method, nth]) => {
  window.realCreateWritable ??= FileSystemFileHandle.prototype.createWritable;
  let opened = 0;
  FileSystemFileHandle.prototype.createWritable = async function (...args) {
    const w = await window.realCreateWritable.apply(this, args);
    if (method && ++opened === nth) w[method] = () => Promise.reject(new DOMException('the disk is full (injected)', 'QuotaExceededError'));
    return w;
  };
}, [method, nth]);

/** Press Save to folder; wait until it saved, failed or found conflicts (`what`: which). */
async function saveFolder(page, button = '#edit-save-folder') {
  const before = await page.evaluate(() => ({ ...document.body.dataset }));
  await page.click(button);
  await page.waitForFunction((b) => {
    const d = document.body.dataset;
    return d.editFolderSaves !== b.editFolderSaves || d.editSaveFailures !== b.editSaveFailures || (d.editConflicts && !b.editConflicts);
  }, before);
  return page.evaluate((b) => {
    const d = document.body.dataset;
    return d.editFolderSaves !== b.editFolderSaves ? 'saved' : d.editSaveFailures !== b.editSaveFailures ? 'failed' : 'conflict';
  }, before);
}

test('save into a folder: all or nothing, and refused when the folder changed underneath (File System Access API, origin private file system)', async () => {
  const { page, errors } = await open(`#catalog=${encodeURIComponent('/edit/index.json')}&package=${VISION}&channel=alpha`);
  const original = Object.fromEntries(FILES.map((f) => [f, readFileSync(join(fbc, 'community-v4.20', f), 'utf8')]));
  const [nicFile, visionFile] = FILES;
  await seedFolder(page, original);
  assert.ok(await page.isVisible('#edit-save-folder'), 'offered where the browser has the API');
  // Two files changed: channel alpha of one package deprecated, the other package deprecated.
  await page.click('#edit-deprecate-channel');
  await page.waitForSelector('#edit-dialog[open] #edit-deprecate-channel-message');
  await page.fill('#edit-deprecate-channel-message', 'alpha is frozen; use stable');
  await preview(page);
  assert.match(await page.textContent('#edit-changes'), /channel alpha: deprecation — → alpha is frozen; use stable/);
  await apply(page);
  await page.waitForSelector('#edit-undeprecate-channel');
  await page.evaluate((hash) => { location.hash = hash; }, `#catalog=${encodeURIComponent('/edit/index.json')}&package=${NIC}&channel=stable`);
  await page.waitForSelector(`#channel-title:has-text("${NIC}")`);
  await idle(page);
  await page.click('#edit-deprecate-package');
  await page.fill('#edit-deprecate-package-message', 'Replaced by multi-nic-cni-operator-v2.');
  await preview(page);
  await apply(page);
  await page.waitForSelector('#edit-undeprecate-package');
  assert.equal(await count(page, 'editChanged'), 2);

  // ---- a write that fails on the second file: nothing changes, and the status says so
  await failWritable(page, 'write', 2);
  assert.equal(await saveFolder(page), 'failed');
  assert.match(await page.textContent('#edit-status'), /Could not save to the folder: .*the disk is full \(injected\); nothing was changed in the folder/);
  assert.deepEqual(await folderFiles(page), original, 'the folder as it was');
  assert.equal(await count(page, 'editChanged'), 2, 'still unsaved');
  // A commit that fails on the second file: the first, already committed, is put back.
  await failWritable(page, 'close', 2);
  assert.equal(await saveFolder(page), 'failed');
  assert.match(await page.textContent('#edit-status'), /the disk is full \(injected\); .*catalog\.yaml put back as it was, so nothing was changed in the folder/);
  assert.deepEqual(await folderFiles(page), original, 'the folder as it was');
  assert.equal(await count(page, 'editChanged'), 2);

  // ---- a clean save writes every changed file
  await failWritable(page, null);
  assert.equal(await saveFolder(page), 'saved');
  await page.waitForSelector('#edit-changed-h:has-text("No unsaved changes")');
  assert.match(await page.textContent('#edit-status'), /Saved 2 files to the folder/);
  let written = await folderFiles(page);
  assert.deepEqual(Object.keys(written).sort(), FILES);
  for (const f of FILES) assert.ok(written[f].startsWith(original[f]), `${f}: as it was, then the new blob`);
  assert.match(written[visionFile].slice(original[visionFile].length), /message: alpha is frozen; use stable\n[^]*schema: olm\.deprecations/);
  assert.match(written[nicFile].slice(original[nicFile].length), /message: Replaced by multi-nic-cni-operator-v2\./);
  const saved = written;

  // ---- another program changes the file after the save: nothing written, the file named
  await page.click('#edit-undeprecate-package');
  await preview(page);
  await apply(page);
  const theirs = `${saved[nicFile]}# changed by another program\n`;
  await writeInFolder(page, nicFile, theirs);
  assert.equal(await saveFolder(page), 'conflict');
  const status = await page.textContent('#edit-status');
  assert.match(status, /^Not saved, nothing was written: multi-nic-cni-operator\/catalog\.yaml changed in the folder \(at \d\d:\d\d:\d\d\) since it was opened or last saved there/);
  assert.doesNotMatch(status, /visionone/);
  assert.ok(await page.isVisible('#edit-reload-folder') && await page.isVisible('#edit-overwrite'), 'reload and overwrite offered');
  assert.deepEqual(await folderFiles(page), { [nicFile]: theirs, [visionFile]: saved[visionFile] }, 'their change kept');
  assert.equal(await count(page, 'editChanged'), 1);
  assert.deepEqual(await axeViolations(page, 'aside'), [], 'the conflict in the Edits panel');
  await page.locator('aside').screenshot({ path: join(shots, 'edit-folder-conflict.png') });

  // ---- "overwrite anyway" writes ours over theirs
  assert.equal(await saveFolder(page, '#edit-overwrite'), 'saved');
  assert.match(await page.textContent('#edit-status'), /Saved 1 file to the folder .*, over the folder's copy\./);
  assert.equal(await page.isVisible('#edit-conflict'), false);
  written = await folderFiles(page);
  assert.equal(written[nicFile], original[nicFile], 'the deprecation undone, their line gone');
  assert.equal(written[visionFile], saved[visionFile]);
  assert.equal(await count(page, 'editChanged'), 0);

  // ---- a download in between does not move what the folder is expected to hold
  const deprecateGone = async () => {
    await page.click('#edit-deprecate-package');
    await page.fill('#edit-deprecate-package-message', 'Gone.');
    await preview(page);
    await apply(page);
  };
  await deprecateGone();
  await Promise.all([page.waitForEvent('download'), page.click('#edit-download')]);
  await page.waitForSelector('#edit-changed-h:has-text("No unsaved changes")');
  await page.click('#edit-undeprecate-package');
  await preview(page);
  await apply(page);
  assert.equal(await saveFolder(page), 'saved', 'the folder still holds what it was last saved with');
  assert.equal((await folderFiles(page))[nicFile], original[nicFile]);

  // ---- a file deleted from the folder is a conflict too; then "reload" opens the folder's catalog
  await deprecateGone();
  await page.evaluate(async (dir) => (await navigator.storage.getDirectory()).removeEntry(dir, { recursive: true }), NIC);
  assert.equal(await saveFolder(page), 'conflict');
  assert.match(await page.textContent('#edit-status'), /multi-nic-cni-operator\/catalog\.yaml was deleted from the folder/);
  assert.deepEqual(Object.keys(await folderFiles(page)), [visionFile], 'nothing created');
  await seedFolder(page, { [nicFile]: original[nicFile].replace('defaultChannel: stable', 'defaultChannel: beta'), [visionFile]: saved[visionFile] });
  const loaded = await page.evaluate(() => document.body.dataset.loaded);
  await page.click('#edit-reload-folder');
  await page.waitForFunction((b) => document.body.dataset.loaded !== b, loaded);
  await idle(page);
  assert.equal(await count(page, 'editChanged'), 0, 'the unsaved edit dropped');
  await page.click(`#files button:has-text("${nicFile}")`);
  await page.waitForSelector('#editor .cm-content :text("defaultChannel: beta")');
  assert.deepEqual(errors, []);
  await page.close();
});

test('folder.js on its own: a file the edits create must not exist; a failed write removes what it created', async () => {
  server.routes.set('/folder-test/folder.js', { type: 'text/javascript', body: readFileSync(join(repo, 'www/src/folder.js')) });
  server.routes.set('/folder-test/index.html', { type: 'text/html', body: '<!doctype html><html lang="en"><title>folder.js</title><link rel="icon" href="data:,"></html>' });
  const { page, errors } = await newPage(browser);
  await page.goto(`${server.base}folder-test/index.html`);
  await seedFolder(page, { 'a/old.yaml': 'old\n' });
  const out = await page.evaluate(async () => {
    const { checkFolder, writeAll } = await import('/folder-test/folder.js');
    const root = await navigator.storage.getDirectory();
    const list = async (dir = root, prefix = '') => {
      const names = [];
      for await (const [name, e] of dir.entries()) names.push(prefix + name, ...(e.kind === 'directory' ? await list(e, `${prefix}${name}/`) : []));
      return names.sort();
    };
    const files = [{ path: 'a/old.yaml', content: 'new\n', base: 'old\n' }, { path: 'b/c/new.yaml', content: 'created\n', base: null }];
    const clean = await checkFolder(root, files);
    // The second write fails: the new file and its two folders go again.
    const real = FileSystemFileHandle.prototype.createWritable;
    let n = 0;
    FileSystemFileHandle.prototype.createWritable = async function (...args) {
      const w = await real.apply(this, args);
      if (++n === 2) w.write = () => Promise.reject(new DOMException('the disk is full (injected)', 'QuotaExceededError'));
      return w;
    };
    const failed = await writeAll(root, files, { previous: clean.current }).then(() => 'written', (e) => e.message);
    const afterFailure = await list();
    FileSystemFileHandle.prototype.createWritable = real;
    const stamps = await writeAll(root, files, { previous: clean.current });
    const written = await list();
    const exists = await checkFolder(root, [{ path: 'b/c/new.yaml', content: 'again\n', base: null }]);
    return { clean: clean.conflicts, current: [...clean.current], failed, afterFailure, stamps: [...stamps.keys()], written, exists: exists.conflicts };
  });
  assert.deepEqual(out.clean, []);
  assert.deepEqual(out.current, [['a/old.yaml', 'old\n'], ['b/c/new.yaml', null]]);
  assert.equal(out.failed, 'the disk is full (injected); nothing was changed in the folder');
  assert.deepEqual(out.afterFailure, ['a', 'a/old.yaml']);
  assert.deepEqual(out.stamps, ['a/old.yaml', 'b/c/new.yaml']);
  assert.deepEqual(out.written, ['a', 'a/old.yaml', 'b', 'b/c', 'b/c/new.yaml']);
  assert.deepEqual(out.exists.map((c) => [c.path, c.why]), [['b/c/new.yaml', 'exists']]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('community-v4.20 (14.6 MB): the time to plan and to apply a deprecation, printed', async () => {
  const root = join(fbc, 'community-v4.20');
  const files = readdirSync(root, { recursive: true }).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
  server.routes.set('/fbc/community-v4.20/index.json', { type: 'application/json', body: JSON.stringify({ files }) });
  const { page, errors } = await open(`#catalog=${encodeURIComponent('/fbc/community-v4.20/index.json')}&package=${VISION}&channel=alpha`);
  await pick(page, `${VISION}.v0.0.2`, { keyboard: true });
  await page.click('#edit-deprecate');
  await page.waitForSelector('#edit-dialog[open] #edit-deprecate-message');
  await preview(page);
  assert.match(await page.textContent('#edit-changes'), /bundle visionone-containersecurity\.v0\.0\.2/);
  await apply(page);
  const ms = await page.evaluate(() => ({ plan: Number(document.body.dataset.editPlanMs), apply: Number(document.body.dataset.editApplyMs) }));
  console.log(`e2e: community-v4.20 (${files.length} files): a deprecation planned in ${ms.plan} ms (two validations, the diff, the preview catalog), applied in ${ms.apply} ms (the catalog reloaded)`);
  assert.deepEqual(await page.locator('#edit-changed li').allTextContents(), [`${VISION}/catalog.yaml`]);
  assert.deepEqual(errors, []);
  await page.close();
});
