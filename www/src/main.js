// The page: open a catalog (examples, files, folder, drop, paste), show the validation report,
// edit files with live validation, browse packages and channel graphs, show upgrade paths, and
// resolve subscriptions (resolve.js), expand templates (templates.js), check where a bundle may be
// installed and what it may touch (install.js), and compare two catalogs (compare.js).
// All the logic is the wasm module's; this file only moves data between it and the DOM.
import init, { loadCatalog, validate, diffCatalogs } from '../../pkg/index.js';
import { h } from './escape.js';
import { renderGraph } from './graph.js';
import { createEditor } from './editor.js';
import { createResolvePanel } from './resolve.js';
import { createTemplatesPanel } from './templates.js';
import { createInstallPanel } from './install.js';
import { createComparePanel } from './compare.js';

const $ = (id) => document.getElementById(id);
const state = { files: [], saved: [], catalog: null, report: null, current: null, graph: null, drawn: null, pkg: null };
const decoder = new TextDecoder();

// ---- tabs
const tabs = ['report', 'editor', 'explore', 'resolve', 'templates', 'install', 'compare'];
function showTab(name) {
  for (const t of tabs) {
    $(`tab-${t}`).setAttribute('aria-selected', String(t === name));
    $(`panel-${t}`).hidden = t !== name;
  }
}
for (const t of tabs) $(`tab-${t}`).addEventListener('click', () => showTab(t));
document.querySelector('.tabs').addEventListener('keydown', (ev) => {
  const i = tabs.findIndex((t) => $(`tab-${t}`).getAttribute('aria-selected') === 'true');
  if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
    const next = tabs[(i + (ev.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    showTab(next);
    $(`tab-${next}`).focus();
  }
});

// ---- loading
function load(files) {
  const t0 = performance.now();
  // A new catalog (not the editor's reload): keep it as opened, for comparing with the edits.
  if (files !== state.files) state.saved = files.map((f) => ({ ...f }));
  state.files = files;
  state.catalog?.free();
  state.catalog = loadCatalog(files);
  state.report = state.catalog.report();
  renderFiles();
  renderReport();
  renderPackages();
  resolvePanel.refresh();
  templatesPanel.refresh();
  installPanel.refresh();
  comparePanel.refresh();
  $('channel-view').hidden = true;
  document.body.dataset.loadedMs = String(Math.round(performance.now() - t0));
  document.body.dataset.loaded = String(Date.now());
}

async function exampleFiles(name) {
  const index = await (await fetch('examples/index.json')).json();
  const ex = index.find((e) => e.name === name);
  return Promise.all(ex.files.map(async (p) => ({ path: p, content: await (await fetch(`examples/${name}/${p}`)).text() })));
}
async function loadExample(name) {
  load(await exampleFiles(name));
}

async function readFileList(list, stripRoot) {
  const files = [];
  for (const f of list) {
    let path = f.webkitRelativePath || f.name;
    if (stripRoot && path.includes('/')) path = path.slice(path.indexOf('/') + 1);
    files.push({ path, content: decoder.decode(new Uint8Array(await f.arrayBuffer())) });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return files;
}

async function entryFiles(entry, prefix, out) {
  if (entry.isFile) {
    const file = await new Promise((res, rej) => entry.file(res, rej));
    out.push({ path: prefix + entry.name, content: decoder.decode(new Uint8Array(await file.arrayBuffer())) });
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const e of batch) await entryFiles(e, `${prefix}${entry.name}/`, out);
    }
  }
}

$('example').addEventListener('change', (ev) => { if (ev.target.value) loadExample(ev.target.value); });
$('pick-files').addEventListener('change', async (ev) => load(await readFileList(ev.target.files, false)));
$('pick-folder').addEventListener('change', async (ev) => load(await readFileList(ev.target.files, true)));
$('paste-load').addEventListener('click', () => load([{ path: 'pasted.yaml', content: $('paste').value }]));
const drop = $('drop');
drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', async (ev) => {
  ev.preventDefault();
  drop.classList.remove('over');
  const entries = [...ev.dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  const out = [];
  // A single dropped folder is the catalog root.
  if (entries.length === 1 && entries[0].isDirectory) {
    const reader = entries[0].createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const e of batch) await entryFiles(e, '', out);
    }
  } else {
    for (const e of entries) await entryFiles(e, '', out);
  }
  out.sort((a, b) => (a.path < b.path ? -1 : 1));
  load(out);
});

// ---- files and report
function renderFiles() {
  const ul = $('files');
  ul.textContent = '';
  for (const f of state.files) {
    ul.append(h('li', {}, h('button', { type: 'button', onclick: () => openFile(f.path) }, f.path)));
  }
}

// Catalogs keep one directory per package, so a finding belongs to its file's directory; for files
// at the root, to the package the message names first.
function packageOf(d) {
  if (d.file.includes('/')) return d.file.slice(0, d.file.indexOf('/'));
  const m = /^(?:invalid )?package "([^"]+)"/.exec(d.message);
  return m ? m[1] : d.file || '(catalog)';
}

function renderReport() {
  const { valid, diagnostics } = state.report;
  const count = (s) => diagnostics.filter((d) => d.severity === s).length;
  const [errors, warnings, notes] = [count('error'), count('warning'), count('note')];
  const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const summary = $('summary');
  summary.textContent = `${valid ? 'Valid' : 'Invalid'}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${notes ? `, ${plural(notes, 'note')}` : ''} in ${plural(state.files.length, 'file')}`;
  summary.className = `summary ${valid ? 'valid' : 'invalid'}`;
  summary.dataset.errors = String(errors);
  summary.dataset.warnings = String(warnings);
  summary.dataset.notes = String(notes);
  const groups = new Map();
  for (const d of diagnostics) {
    const k = packageOf(d);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(d);
  }
  const report = $('report');
  report.textContent = '';
  report.className = 'report';
  for (const [pkg, list] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    report.append(h('h3', {}, `${pkg} (${list.length})`));
    report.append(h('ul', {}, list.map((d) => h('li', {}, h('button', {
      type: 'button', class: `diag ${d.severity}`, 'data-code': d.code,
      onclick: () => openFile(d.file, d.line, d.column),
    }, h('span', { class: 'where' }, `${d.file}:${d.line}:${d.column}`), ' ', h('span', { class: 'code' }, `${d.severity}[${d.code}]`), ' ', d.message)))));
  }
}

// ---- editor
let editor = null;
let reloadTimer = null;
function checkCurrent(text) {
  if (!state.current) return [];
  const files = state.files.map((f) => (f.path === state.current ? { path: f.path, content: text } : f));
  return validate(files).diagnostics.filter((d) => d.file === state.current && d.line > 0);
}
function openFile(path, line, column) {
  const f = state.files.find((x) => x.path === path);
  if (!f) return;
  state.current = path;
  showTab('editor');
  $('editor-file').textContent = path;
  editor ??= createEditor($('editor'), checkCurrent, (text) => {
    const file = state.files.find((x) => x.path === state.current);
    if (file) file.content = text;
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => load(state.files), 800);
  });
  editor.open(f.content, line, column);
}

// ---- packages and graphs
function renderPackages() {
  const body = $('packages').querySelector('tbody');
  body.textContent = '';
  for (const p of state.catalog.packages()) {
    const channels = p.channels.map((c) => h('div', {}, `${c.name}${c.name === p.defaultChannel ? ' (default)' : ''}: `, c.head ?? '—',
      c.deprecated !== null ? h('span', { class: 'tag dep', title: c.deprecated }, 'deprecated') : null));
    const versions = p.channels.map((c) => {
      const v = [...new Set(c.versions)];
      const shown = v.length > 4 ? `${v.slice(0, 2).join(', ')} … ${v.slice(-2).join(', ')}` : v.join(', ');
      return h('div', { title: v.join(', '), class: 'versions' }, `${c.name}: ${shown} (${v.length})`);
    });
    body.append(h('tr', {},
      h('td', {}, p.icon ? h('img', { class: 'icon', src: p.icon, alt: '' }) : null,
        h('button', { type: 'button', 'data-package': p.name, onclick: () => openPackage(p.name) }, p.name),
        p.deprecated !== null ? h('span', { class: 'tag dep', title: p.deprecated }, 'deprecated') : null),
      h('td', {}, p.defaultChannel ?? '—'),
      h('td', {}, channels),
      h('td', {}, versions),
      h('td', {}, String(p.bundles))));
  }
}

async function openPackage(name) {
  const p = state.catalog.packages().find((x) => x.name === name);
  if (!p) return;
  state.pkg = p;
  showTab('explore');
  $('channel-view').hidden = false;
  const select = $('channel');
  select.textContent = '';
  const ordered = [...p.channels].sort((a, b) => (a.name === p.defaultChannel ? -1 : b.name === p.defaultChannel ? 1 : a.name < b.name ? -1 : 1));
  for (const c of ordered) select.append(h('option', { value: c.name }, `${c.name}${c.name === p.defaultChannel ? ' (default)' : ''}`));
  await drawChannel();
}

async function drawChannel() {
  const t0 = performance.now();
  const pkg = state.pkg.name;
  const channel = $('channel').value;
  state.graph = state.catalog.channelGraph(pkg, channel);
  $('channel-title').textContent = `${pkg} — channel ${channel}`;
  state.drawn = await renderGraph($('graph'), state.graph, { expandFans: $('fans').checked });
  const list = $('from-list');
  list.textContent = '';
  for (const n of state.graph.nodes) if (!n.virtual) list.append(h('option', { value: n.name }, n.version ?? ''));
  for (const id of ['path-v0', 'path-v1', 'path-v0-note', 'path-v1-note']) $(id).textContent = '';
  document.body.dataset.graphMs = String(Math.round(performance.now() - t0));
}
$('channel').addEventListener('change', drawChannel);
$('fans').addEventListener('change', drawChannel);

function showPath() {
  const from = $('from').value.trim();
  if (!from || !state.pkg) return;
  const opts = { package: state.pkg.name, channel: $('channel').value, from };
  for (const sem of ['v0', 'v1']) {
    const ol = $(`path-${sem}`);
    const note = $(`path-${sem}-note`);
    ol.textContent = '';
    note.className = 'note';
    try {
      const p = state.catalog.upgradePath({ ...opts, semantics: sem });
      for (const st of p.steps) ol.append(h('li', { 'data-to': st.to }, `${st.from} → ${st.to} (${st.edge})`));
      if (p.stranded) { note.textContent = `Stranded: ${p.reason}`; note.classList.add('stranded'); }
      else note.textContent = p.steps.length ? `${p.steps.length} upgrade${p.steps.length === 1 ? '' : 's'} to ${p.to}` : `${from} is the head`;
      if (sem === 'v0') state.drawn?.highlight(p.steps, from);
    } catch (e) {
      note.textContent = e.message;
      note.classList.add('stranded');
    }
  }
}
$('path-go').addEventListener('click', showPath);
$('from').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') showPath(); });

function download(name, text, type) {
  const a = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}
for (const b of document.querySelectorAll('[data-export]')) {
  b.addEventListener('click', () => {
    const pkg = state.pkg.name;
    const channel = $('channel').value;
    const base = `${pkg}-${channel}`;
    const kind = b.dataset.export;
    if (kind === 'svg') download(`${base}.svg`, new XMLSerializer().serializeToString(state.drawn.svg), 'image/svg+xml');
    if (kind === 'mermaid') download(`${base}.mmd`, state.catalog.toMermaid({ package: pkg, channel }), 'text/plain');
    if (kind === 'dot') download(`${base}.dot`, state.catalog.toDot(pkg, channel), 'text/vnd.graphviz');
    if (kind === 'json') download(`${base}.json`, JSON.stringify(state.graph, null, 2), 'application/json');
  });
}

// ---- resolve
const resolvePanel = createResolvePanel({ main: () => state.catalog, exampleFiles, readFiles: readFileList, loadCatalog });

// ---- templates
const templatesPanel = createTemplatesPanel({ mainFiles: () => state.files, exampleFiles, readFiles: readFileList, download });

// ---- install: OperatorGroups, install modes, RBAC, tenants
const installPanel = createInstallPanel({ main: () => state.catalog, openFile });

// ---- compare two catalogs: changes, update safety, graphs coloured by change
const comparePanel = createComparePanel({
  savedFiles: () => state.saved, editedFiles: () => state.files, exampleFiles, readFiles: readFileList, openFile, loadCatalog, diffCatalogs,
});

// ---- start
await init('./olm_catalog_bg.wasm');
const examples = await (await fetch('examples/index.json')).json();
for (const ex of examples) {
  $('example').append(h('option', { value: ex.name }, ex.title));
  $('resolve-src2-example').append(h('option', { value: ex.name }, ex.title));
}
comparePanel.start(examples);
await templatesPanel.start(examples);
document.body.dataset.ready = 'true';
