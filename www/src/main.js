// The page: open a catalog (examples, files, folder, drop, paste), show the validation report,
// edit files with live validation, browse packages and channel graphs, show upgrade paths, and
// resolve subscriptions (resolve.js), expand templates (templates.js), check where a bundle may be
// installed and what it may touch (install.js), and compare two catalogs (compare.js).
// All the logic is the wasm module's, which runs in a worker (catalog-worker.js, reached through
// remote.js) so that the page never freezes; this file only moves data between it and the DOM.
import { start, open, reload, call, RemoteCatalog } from './remote.js';
import { h } from './escape.js';
import { showPicture } from './graph.js';
import { createEditor } from './editor.js';
import { createResolvePanel } from './resolve.js';
import { createTemplatesPanel } from './templates.js';
import { createInstallPanel } from './install.js';
import { createComparePanel } from './compare.js';
import { createReport } from './report.js';
import { parseLink, showLink, catalogSource, embedSnippet } from './link.js';
import { createDepsView } from './deps.js';
import { createEditing } from './edit.js';
import { unsafeEdges, unsafeEdge, edgeReason, markUnsafeEdges, showCrdDiff } from '../../pkg/crd-view.js';

const $ = (id) => document.getElementById(id);
// `catalog`: the RemoteCatalog loaded on the left (its report, packages and file paths).
// `source`: where it came from, when a link can say so (`{example}` or `{url}`); `from`: the start
// of the path shown.
// `expand`: the collapsed z-stream groups the user opened.
const state = { catalog: null, current: null, graph: null, drawn: null, pkg: null, source: null, from: '', expand: [] };
const paths = () => state.catalog?.paths ?? [];

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
let loads = 0; // loads shown so far: a load's rendering stops when a later one starts

/**
 * Run `fn` on each of `items`, yielding to the page every few milliseconds, so that a long list
 * never blocks it; false (and stops) when `wanted()` turns false meanwhile.
 */
async function sliced(items, fn, wanted) {
  let t = performance.now();
  for (const item of items) {
    if (performance.now() - t > 5) {
      await new Promise((r) => setTimeout(r));
      if (!wanted()) return false;
      t = performance.now();
    }
    fn(item);
  }
  return true;
}

/**
 * Open files (`{path, content}`, or `{path, blob}` read in the worker) as the catalog on the left;
 * without files, load the current one again with the editor's edits (what was opened is kept, for
 * comparing with the edits). Loads finish in the order they were asked.
 */
async function load(files, source = null, given = null) {
  const t0 = performance.now();
  const shown = ++loads;
  const wanted = () => shown === loads; // false once a later load started
  const summary = $('summary');
  if (files) {
    summary.textContent = 'Loading…';
    summary.className = 'summary';
  }
  let catalog;
  try {
    catalog = given ?? (files ? await open('main', files) : await reload(state.catalog));
  } catch (e) {
    if (!wanted()) return;
    summary.textContent = `Could not load the catalog: ${e.code ? `${e.code}: ` : ''}${e.message}`;
    summary.className = 'summary invalid';
    return;
  }
  if (!wanted()) return;
  state.catalog = catalog;
  if (files) {
    state.source = source;
    state.pkg = null;
    state.from = '';
  }
  $('welcome').hidden = true;
  renderFiles();
  if (!await report.render(catalog.report.diagnostics, wanted) || !await renderPackages(wanted)) return;
  renderSummary(); // last: it says the report is complete
  resolvePanel.refresh();
  templatesPanel.refresh();
  installPanel.refresh();
  comparePanel.refresh();
  if (files) await editing.loaded(files);
  $('channel-view').hidden = true;
  updateLink();
  document.body.dataset.loadedMs = String(Math.round(performance.now() - t0));
  document.body.dataset.loaded = String(Date.now());
  return true;
}

async function exampleFiles(name) {
  const index = await (await fetch('examples/index.json')).json();
  const ex = index.find((e) => e.name === name);
  return Promise.all(ex.files.map(async (p) => ({ path: p, content: await (await fetch(`examples/${name}/${p}`)).text() })));
}
function loadExample(name) {
  $('example').value = name;
  return exampleFiles(name).then((files) => load(files, { example: name }));
}

// Picked and dropped files are not read here: the worker reads them (a `File` is a handle).
function readFileList(list, stripRoot) {
  const files = [];
  for (const f of list) {
    let path = f.webkitRelativePath || f.name;
    if (stripRoot && path.includes('/')) path = path.slice(path.indexOf('/') + 1);
    files.push({ path, blob: f });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return files;
}

async function entryFiles(entry, prefix, out) {
  if (entry.isFile) {
    const file = await new Promise((res, rej) => entry.file(res, rej));
    out.push({ path: prefix + entry.name, blob: file });
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
$('pick-files').addEventListener('change', (ev) => load(readFileList(ev.target.files, false)));
$('pick-folder').addEventListener('change', (ev) => load(readFileList(ev.target.files, true)));
$('paste-load').addEventListener('click', () => load([{ path: 'pasted.yaml', content: $('paste').value }]));
$('image-load').addEventListener('click', () => { const image = $('image-ref').value.trim(); if (image) load({ image }); });
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
  for (const path of paths()) {
    ul.append(h('li', {}, h('button', { type: 'button', onclick: () => openFile(path) }, path)));
  }
}

function renderSummary() {
  const { valid, diagnostics } = state.catalog.report;
  const count = (s) => diagnostics.filter((d) => d.severity === s).length;
  const [errors, warnings, notes] = [count('error'), count('warning'), count('note')];
  const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const summary = $('summary');
  summary.textContent = `${valid ? 'Valid' : 'Invalid'}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${notes ? `, ${plural(notes, 'note')}` : ''} in ${plural(paths().length, 'file')}`;
  summary.className = `summary ${valid ? 'valid' : 'invalid'}`;
  summary.dataset.errors = String(errors);
  summary.dataset.warnings = String(warnings);
  summary.dataset.notes = String(notes);
}

const report = createReport({ container: $('report'), filters: $('report-filters'), openFile: (...at) => openFile(...at), sliced });

// ---- editor
// The worker keeps the edited text: each check sends it and gets that file's findings in the
// whole catalog with the edit (an editing session there re-validates incrementally), and the
// catalog is re-loaded once typing pauses.
let editor = null;
let reloadTimer = null;
async function checkCurrent(text) {
  if (!state.current || !state.catalog) return [];
  const t0 = performance.now();
  const found = await call('check', state.catalog.handle, state.current, text);
  document.body.dataset.checkMs = String(Math.round(performance.now() - t0));
  document.body.dataset.checked = String((Number(document.body.dataset.checked) || 0) + 1);
  return found;
}
async function openFile(path, line, column) {
  if (!state.catalog?.paths.includes(path)) return;
  const text = await state.catalog.fileText(path);
  state.current = path;
  showTab('editor');
  $('editor-file').textContent = path;
  editor ??= createEditor($('editor'), checkCurrent, () => {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(async () => {
      // The last keystrokes may not have been checked yet: hand the worker the text first.
      await checkCurrent(editor.view.state.doc.toString());
      await load();
    }, 800);
  });
  editor.open(text, line, column);
}

// ---- packages and graphs
// A row per package, a slice at a time; false when a later load took over.
function renderPackages(wanted) {
  const body = $('packages').querySelector('tbody');
  body.textContent = '';
  return sliced(state.catalog.packages, (p) => {
    const channels = p.channels.map((c) => h('div', {}, `${c.name}${c.name === p.defaultChannel ? ' (default)' : ''}: `, c.head ?? '—',
      c.deprecated !== null ? h('span', { class: 'tag dep', title: c.deprecated }, 'deprecated') : null));
    const versions = p.channels.map((c) => {
      const v = [...new Set(c.versions)];
      const shown = v.length > 4 ? `${v.slice(0, 2).join(', ')} … ${v.slice(-2).join(', ')}` : v.join(', ');
      return h('div', { title: v.join(', '), class: 'versions' }, `${c.name}: ${shown} (${v.length})`);
    });
    body.append(h('tr', {},
      h('td', {}, p.icon ? h('img', { class: 'icon', src: p.icon, alt: '', loading: 'lazy' }) : null,
        h('button', { type: 'button', 'data-package': p.name, onclick: () => openPackage(p.name) }, p.name),
        p.deprecated !== null ? h('span', { class: 'tag dep', title: p.deprecated }, 'deprecated') : null),
      h('td', {}, p.defaultChannel ?? '—'),
      h('td', {}, channels),
      h('td', {}, versions),
      h('td', {}, String(p.bundles))));
  }, wanted);
}

/** Show package `name`'s graph, of `channel` if it has one by that name, else its default channel's. */
async function openPackage(name, channel) {
  const p = state.catalog.packages.find((x) => x.name === name);
  if (!p) return false;
  state.pkg = p;
  showTab('explore');
  $('channel-view').hidden = false;
  depsView.show(name);
  const select = $('channel');
  select.textContent = '';
  const ordered = [...p.channels].sort((a, b) => (a.name === p.defaultChannel ? -1 : b.name === p.defaultChannel ? 1 : a.name < b.name ? -1 : 1));
  for (const c of ordered) select.append(h('option', { value: c.name }, `${c.name}${c.name === p.defaultChannel ? ' (default)' : ''}`));
  if (channel && p.channels.some((c) => c.name === channel)) select.value = channel;
  await drawChannel();
  return true;
}

async function drawChannel() {
  const t0 = performance.now();
  const pkg = state.pkg.name;
  const channel = $('channel').value;
  const graph = await state.catalog.channelGraph(pkg, channel);
  if (state.pkg?.name !== pkg || $('channel').value !== channel) return; // another one was picked meanwhile
  state.graph = graph;
  state.from = '';
  state.expand = [];
  state.unsafe = crdUnsafe(pkg, channel);
  $('crd-view').hidden = true;
  $('channel-title').textContent = `${pkg} — channel ${channel}`;
  await redraw();
  editing.refresh();
  const list = $('from-list');
  list.textContent = '';
  for (const n of state.graph.nodes) if (!n.virtual) list.append(h('option', { value: n.name }, n.version ?? ''));
  for (const id of ['path-v0', 'path-v1', 'path-v0-note', 'path-v1-note']) $(id).textContent = '';
  updateLink();
  document.body.dataset.graphMs = String(Math.round(performance.now() - t0));
}
$('channel').addEventListener('change', drawChannel);
$('fans').addEventListener('change', () => redraw());

/** The options of the channel on screen for `renderGraphSvg`. */
function pictureOptions(extra = {}) {
  return {
    package: state.pkg.name, channel: $('channel').value, from: state.from || undefined, fans: $('fans').checked,
    expand: state.expand, interactive: true, legend: false, idPrefix: 'site-graph', ...extra,
  };
}

/**
 * Draw the channel on screen with the shared layout (the element's and the CLI's): its path from
 * `state.from` highlighted (OLM v0 rules), the z-stream groups in `state.expand` opened.
 */
async function redraw() {
  const opts = pictureOptions();
  let drawn;
  try {
    drawn = await state.catalog.draw(opts);
  } catch (e) {
    if (e.code !== 'no-path' || !opts.from) throw e;
    drawn = await state.catalog.draw({ ...opts, from: undefined }); // the path's note says why
  }
  if (state.pkg?.name !== opts.package || $('channel').value !== opts.channel) return;
  const shown = showPicture($('graph'), drawn, { onSelect: pick });
  state.drawn = shown;
  $('graph').dataset.nodes = String(drawn.picture.graphNodes);
  // The CRD checks' marks when they are in (the graph does not wait for them).
  state.unsafe?.then((unsafe) => {
    if (state.drawn !== shown || !unsafe) return;
    $('graph').dataset.unsafe = String(markUnsafeEdges(shown.view.svg, unsafe, { onSelect: showCrdEdge }));
  });
}

/**
 * The unsafe edges of a channel for their CRDs (`crdSafety` of the package in the worker, the tools'
 * module loaded then; a Map, empty when the catalog carries no CRDs), and the note under the graph.
 */
async function crdUnsafe(pkg, channel) {
  const note = $('crd-note');
  note.hidden = true;
  let result = null;
  try {
    result = await state.catalog.crdSafety({ package: pkg });
  } catch (e) {
    if (state.pkg?.name !== pkg || $('channel').value !== channel) return new Map();
    note.textContent = `CRD upgrade safety could not be checked: ${e.message}`;
    note.hidden = false;
    return new Map();
  }
  const edges = unsafeEdges(result, channel);
  if (state.pkg?.name !== pkg || $('channel').value !== channel) return edges; // another channel is on screen
  if (result && edges.size) {
    note.textContent = `${edges.size} upgrade${edges.size === 1 ? '' : 's'} of this channel OLM refuses for ${edges.size === 1 ? 'its' : 'their'} CRDs (red dashed, marked !): Tab to a mark and press Enter, or pick one in the path below, for the CRD diff.`;
    note.hidden = false;
  }
  return edges;
}

/** Show the CRD diff of an unsafe edge (a `crdSafety` edge) under the path. */
async function showCrdEdge(edge) {
  const view = $('crd-view');
  const parts = await state.catalog.crdDiff(edge);
  $('crd-title').textContent = `CRD diff: ${edge.from} → ${edge.to}`;
  $('crd-reason').textContent = `OLM v1 refuses this upgrade (${edge.via.join(', ')}): ${edgeReason(edge)}.`;
  const body = $('crd-body');
  body.textContent = '';
  const whole = $('crd-whole').checked;
  for (const part of parts) {
    const diff = h('div', { class: 'crd-diff' });
    body.append(h('h4', {}, part.crd), h('ul', { class: 'crd-findings' }, part.findings.map((f) => h('li', {}, h('span', { class: 'tag' }, f.rule), ' ', f.message))), diff);
    showCrdDiff(diff, part.diff, { whole, titles: [`old: ${edge.from}`, `new: ${edge.to}`] });
  }
  state.crdEdge = edge;
  view.hidden = false;
  view.scrollIntoView({ block: 'nearest' });
  $('crd-title').focus();
}
$('crd-whole').addEventListener('change', () => { if (state.crdEdge) showCrdEdge(state.crdEdge); });

/** A node picked in the graph: a group opens; a bundle becomes the path's start. */
async function pick(node) {
  if (node.kind === 'group') {
    state.expand = [...state.expand, node.id];
    await redraw();
    focusGraphNode(node.group.first);
  } else if (node.kind === 'bundle') {
    editing.select(node);
    $('from').value = node.name;
    await showPath();
    focusGraphNode(node.id);
  }
}

/**
 * After a redraw, the focus back on the node the user was on (the old one is gone), unless they
 * went elsewhere while it was drawn (a button of the edit toolbar, say): that is left alone.
 */
function focusGraphNode(id) {
  const at = document.activeElement;
  if (!at || at === document.body || $('graph').contains(at)) state.drawn?.view.focusNode(id);
}

async function showPath() {
  const from = $('from').value.trim();
  if (!from || !state.pkg) return;
  const opts = { package: state.pkg.name, channel: $('channel').value, from };
  const paths = await Promise.allSettled(['v0', 'v1'].map((semantics) => state.catalog.upgradePath({ ...opts, semantics })));
  state.from = from;
  updateLink();
  const drawing = redraw();
  const unsafe = (await state.unsafe) ?? new Map();
  for (const [k, sem] of ['v0', 'v1'].entries()) {
    const ol = $(`path-${sem}`);
    const note = $(`path-${sem}-note`);
    ol.textContent = '';
    note.className = 'note';
    try {
      if (paths[k].status === 'rejected') throw paths[k].reason;
      const p = paths[k].value;
      for (const st of p.steps) ol.append(pathStep(st, sem, unsafe));
      // How a typed version was read (its bundle, or that no bundle has it), then the outcome.
      const read = p.note ? `${p.note}. ` : '';
      if (p.stranded) { note.textContent = `${read}Stranded: ${p.reason}`; note.classList.add('stranded'); }
      else note.textContent = read + (p.steps.length ? `${p.steps.length} upgrade${p.steps.length === 1 ? '' : 's'} to ${p.to}` : `${p.from} is already at the head of ${opts.channel}`);
    } catch (e) {
      note.textContent = e.message;
      note.classList.add('stranded');
      // A version several bundles have: the question names them; each is one click away.
      if (Array.isArray(e.bundles)) note.append(' ', ...e.bundles.map((b) => h('button', { type: 'button', 'data-bundle': b }, b)));
    }
  }
  await drawing;
}

/** One step of a path, with why OLM (`sem`) refuses it or lets objects break when its CRDs make it unsafe. */
function pathStep(st, sem, unsafe) {
  const li = h('li', { 'data-to': st.to }, `${st.from} → ${st.to} (${st.edge})`);
  const edge = unsafeEdge(unsafe, st.from, st.to);
  if (!edge) return li;
  const v0refuses = edge.findings.some((f) => f.rule === 'olmV0StoredVersion');
  const why = sem === 'v1' || v0refuses ? `OLM ${sem} refuses it: ${edgeReason(edge)}` : `OLM v0 takes it, but existing objects may break: ${edgeReason(edge)}`;
  li.classList.add('unsafe');
  const button = h('button', { type: 'button', class: 'crd-open', 'aria-label': `CRD diff of ${st.from} → ${st.to}` }, 'CRD diff');
  button.addEventListener('click', () => showCrdEdge(edge));
  li.append(' ', h('strong', { class: 'crd-why' }, why), ' ', button);
  return li;
}

$('path-go').addEventListener('click', showPath);
for (const sem of ['v0', 'v1']) {
  $(`path-${sem}-note`).addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-bundle]');
    if (b) { $('from').value = b.dataset.bundle; showPath(); }
  });
}
$('from').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') showPath(); });

function download(name, text, type) {
  const a = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}
for (const b of document.querySelectorAll('[data-export]')) {
  b.addEventListener('click', async () => {
    const pkg = state.pkg.name;
    const channel = $('channel').value;
    const base = `${pkg}-${channel}`;
    const kind = b.dataset.export;
    if (kind === 'svg') download(`${base}.svg`, (await state.catalog.draw(pictureOptions({ interactive: false, legend: true, idPrefix: 'olm-graph' }))).svg, 'image/svg+xml');
    if (kind === 'mermaid') download(`${base}.mmd`, await state.catalog.toMermaid({ package: pkg, channel }), 'text/plain');
    if (kind === 'dot') download(`${base}.dot`, await state.catalog.toDot(pkg, channel), 'text/vnd.graphviz');
    if (kind === 'json') download(`${base}.json`, JSON.stringify(state.graph, null, 2), 'application/json');
  });
}

// ---- deep links (link.js) and the Embed snippet
/** What is on screen, as a link (nothing when the catalog came from files a link cannot name). */
function currentLink() {
  const src = state.source;
  if (!src) return {};
  return { catalog: src.example ?? src.url, package: state.pkg?.name, channel: state.pkg ? $('channel').value : undefined, from: state.from };
}
const updateLink = () => showLink(currentLink());

let examples = [];
/** Restore what a link shows: load its catalog (unless already loaded), open its package, channel and path. */
async function follow(link) {
  const source = link.catalog ? catalogSource(link.catalog, examples.map((e) => e.name)) : null;
  if (!source) return;
  const key = (x) => x?.example ?? x?.url;
  if (key(state.source) !== key(source)) {
    const ok = source.example ? await loadExample(source.example) : await load(source, source);
    if (!ok) return;
  }
  if (!link.package || !await openPackage(link.package, link.channel)) { updateLink(); return; }
  if (link.from) {
    $('from').value = link.from;
    await showPath();
  }
  $('channel-view').scrollIntoView({ block: 'start' });
}
addEventListener('hashchange', () => follow(parseLink(location.hash)));
$('try-example').addEventListener('click', () => follow({ catalog: 'community', package: 'aws-neuron-operator', from: 'aws-neuron-operator.v1.1.1' }));

/** The catalog's URL for the element: the bundled example's index, or the URL it came from. */
function embedSource() {
  if (state.source?.example) return new URL(`examples/${state.source.example}/index.json`, location.href).href;
  return state.source?.url ?? 'https://example.com/your-catalog/index.json';
}
$('embed').addEventListener('click', () => {
  $('embed-code').value = embedSnippet({
    script: new URL('olm-upgrade-graph.js', location.href).href, src: embedSource(), package: state.pkg.name,
    channel: $('channel').value, from: state.from, fans: $('fans').checked,
  });
  $('embed-note').hidden = Boolean(state.source);
  $('embed-dialog').showModal();
  $('embed-code').select();
});
$('embed-copy').addEventListener('click', async () => {
  await navigator.clipboard?.writeText($('embed-code').value).catch(() => {});
  $('embed-code').select();
  $('embed-copied').textContent = 'Copied.';
});
$('embed-close').addEventListener('click', () => { $('embed-copied').textContent = ''; $('embed-dialog').close(); });

// ---- resolve
const resolvePanel = createResolvePanel({ main: () => state.catalog, exampleFiles, readFiles: readFileList });

// ---- templates
const templatesPanel = createTemplatesPanel({ main: () => state.catalog, exampleFiles, readFiles: readFileList, download });

// ---- install: OperatorGroups, install modes, RBAC, tenants
const installPanel = createInstallPanel({ main: () => state.catalog, openFile, download });

// ---- compare two catalogs: changes, update safety, graphs coloured by change
// A finding's fix opens the edit dialog's preview (`editing`, made below, by the time one is clicked).
const comparePanel = createComparePanel({ main: () => state.catalog, exampleFiles, readFiles: readFileList, openFile, fix: (op, why) => editing.proposeFix(op, why) });

// ---- dependencies between packages (deps.js), in the package view
const depsView = createDepsView({ main: () => state.catalog, openPackage });
// ---- editing operations (edit.js): from the graph's selected bundle and the package on screen
/**
 * Show the catalog after an edit, undo or redo (`summary`, from the worker; `changed`: the files
 * whose text changed): its report and packages, the package and channel that were on screen, and
 * the editor's file with its new text.
 */
async function adopt(summary, changed) {
  const at = state.pkg ? { pkg: state.pkg.name, channel: $('channel').value, from: state.from } : null;
  const tab = tabs.find((t) => $(`tab-${t}`).getAttribute('aria-selected') === 'true');
  if (!await load(null, state.source, new RemoteCatalog(summary))) return;
  if (at && await openPackage(at.pkg, at.channel) && at.from) {
    $('from').value = at.from;
    await showPath().catch(() => {});
  }
  showTab(tab);
  if (editor && state.current && changed.includes(state.current)) {
    clearTimeout(reloadTimer);
    editor.open(await state.catalog.fileText(state.current), undefined, undefined, { focus: false });
  }
}
const editing = createEditing({
  main: () => state.catalog,
  view: () => (state.pkg && state.graph ? { pkg: state.pkg, channel: $('channel').value, graph: state.graph } : null),
  adopt,
  download,
  load: (files) => load(files),
});
$('edit-tools').append(editing.elements.pkg);
$('graph').after(editing.elements.node);

// ---- start
await start();
examples = await (await fetch('examples/index.json')).json();
for (const ex of examples) {
  $('example').append(h('option', { value: ex.name }, ex.title));
  $('resolve-src2-example').append(h('option', { value: ex.name }, ex.title));
}
comparePanel.start(examples);
await templatesPanel.start(examples);
document.body.dataset.ready = 'true';
if (location.hash) await follow(parseLink(location.hash));
