// The Templates panel: a catalog template (a bundled example, a file, or text typed in), the
// catalog that holds its bundles (the catalog loaded on the left, a bundled example, files or a
// folder), and its expansion: the findings, located in the template's own lines (a click shows
// the line), the expanded catalog's channels and upgrade graphs, and a download in JSON or YAML.
// The expansion itself is the wasm module's `expandTemplate`, in the worker (which also loads the
// expanded catalog for its graphs); the graphs are graph.js's.
import { call, RemoteCatalog } from './remote.js';
import { h } from './escape.js';
import { showPicture } from './graph.js';

const $ = (id) => document.getElementById(id);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Line height of the template text and its gutter, in px (style.css: .tpl-editor). */
const LINE = 20;
const PAD = 6;

/**
 * @param {object} o
 * @param {() => import('./remote.js').RemoteCatalog | null} o.main the catalog loaded on the left
 * @param {(name: string) => Promise<import('olm-catalog').CatalogFile[]>} o.exampleFiles
 * @param {(list: FileList, stripRoot: boolean) => object[]} o.readFiles
 * @param {(name: string, text: string, type: string) => void} o.download
 */
export function createTemplatesPanel({ main, exampleFiles, readFiles, download }) {
  const text = $('tpl-text');
  const gutter = $('tpl-gutter');
  const mark = $('tpl-mark');
  let templates = [];
  let path = 'template.yaml'; // the template's name: diagnostics name it as their file
  const picked = { files: null, folder: null }; // catalog files read from the pickers
  const exampleCache = new Map();
  let last = null; // { template, sources, result }
  let expanded = null; // the expanded catalog (a RemoteCatalog), loaded for its graphs
  let packages = [];
  let turn = 0; // each expansion's number: an older one's reply is dropped

  // ---- the template text, its line numbers and the highlighted line
  function lines() {
    const n = text.value.split('\n').length;
    if (gutter.childElementCount === n) return;
    while (gutter.childElementCount > n) gutter.lastChild.remove();
    for (let i = gutter.childElementCount + 1; i <= n; i++) gutter.append(h('div', { 'data-line': i }, String(i)));
  }
  function placeMark() {
    const line = Number(mark.dataset.line);
    mark.style.top = `${PAD + (line - 1) * LINE - text.scrollTop}px`;
  }
  /** Show line `line` of the template: scroll to it, highlight it, put the caret at `column`. */
  function showLine(line, column) {
    const all = text.value.split('\n');
    const l = Math.min(Math.max(line, 1), all.length);
    const start = all.slice(0, l - 1).reduce((n, s) => n + s.length + 1, 0);
    const caret = start + Math.min(Math.max((column ?? 1) - 1, 0), all[l - 1].length);
    text.focus();
    text.setSelectionRange(caret, caret);
    text.scrollTop = Math.max(0, (l - 1) * LINE - text.clientHeight / 2);
    mark.dataset.line = String(l);
    mark.hidden = false;
    placeMark();
    for (const el of gutter.querySelectorAll('.current')) el.classList.remove('current');
    gutter.children[l - 1]?.classList.add('current');
  }
  function setTemplate(content, name) {
    text.value = content;
    path = name;
    mark.hidden = true;
    lines();
    text.scrollTop = 0;
  }
  text.addEventListener('input', () => { lines(); mark.hidden = true; });
  text.addEventListener('scroll', () => { gutter.scrollTop = text.scrollTop; placeMark(); });
  text.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); expand(); }
  });

  async function loadExampleTemplate(file) {
    const t = templates.find((x) => x.file === file);
    if (!t) return;
    setTemplate(await (await fetch(`examples/templates/${file}`)).text(), file);
    $('tpl-src-example-name').value = t.catalog;
    $('tpl-src-example').checked = true;
  }

  // ---- the catalog holding the bundles
  function describeMain() {
    const n = main()?.paths.length ?? 0;
    $('tpl-src-main-desc').textContent = n ? `(${plural(n, 'file')})` : '(none loaded)';
  }
  async function sourceFiles() {
    const kind = document.querySelector('input[name="tpl-source"]:checked')?.value;
    // `sources`: the catalogs for expandTemplate (none when there are no files).
    if (kind === 'main') {
      const c = main();
      return { sources: c?.paths.length ? [c.source()] : [], label: 'the catalog loaded on the left' };
    }
    if (kind === 'example') {
      const name = $('tpl-src-example-name').value;
      if (!exampleCache.has(name)) exampleCache.set(name, await exampleFiles(name));
      const files = exampleCache.get(name);
      return { sources: files.length ? [files] : [], label: `the bundled example "${name}"` };
    }
    const files = picked[kind] ?? [];
    return { sources: files.length ? [files] : [], label: `the chosen ${kind === 'folder' ? 'folder' : 'files'}` };
  }

  // ---- expanding
  function status(message, cls) {
    const el = $('tpl-status');
    el.textContent = message;
    el.className = `summary ${cls}`;
  }
  async function expand() {
    const template = { path, content: text.value };
    if (!template.content.trim()) { status('Open, choose or paste a template first.', 'invalid'); return; }
    const mine = ++turn;
    const { sources, label } = await sourceFiles();
    let result;
    let loaded;
    try {
      ({ result, expanded: loaded } = await call('expandTemplate', template, sources, { format: 'json' }, 'tpl-expanded'));
    } catch (e) {
      if (mine === turn) status(`${e.code ? `${e.code}: ` : ''}${e.message}`, 'invalid');
      return;
    }
    if (mine !== turn) return;
    last = { template, sources, result };
    report(result, sources.length ? label : null);
    showCatalog(loaded ? new RemoteCatalog(loaded) : null);
    $('tpl-download').disabled = !result.catalog.trim();
    document.body.dataset.expanded = String(Date.now());
  }

  function report({ valid, diagnostics }, source) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
    status(`${valid ? 'Expanded' : 'Invalid'}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${source ? `; bundles from ${source}` : '; no catalog given for the bundles'}`, valid ? 'valid' : 'invalid');
    const el = $('tpl-status');
    el.dataset.errors = String(errors);
    el.dataset.warnings = String(warnings);
    for (const g of gutter.querySelectorAll('.error, .warning')) g.classList.remove('error', 'warning');
    const list = $('tpl-diags');
    list.textContent = '';
    // Errors first, then in the template's order.
    const rank = (d) => [d.severity === 'error' ? 0 : 1, d.file === path ? 0 : 1, d.line, d.column];
    const order = (a, b) => {
      const [x, y] = [rank(a), rank(b)];
      const i = x.findIndex((v, k) => v !== y[k]);
      return i < 0 ? 0 : x[i] - y[i];
    };
    for (const d of [...diagnostics].sort(order)) {
      const inTemplate = d.file === path && d.line > 0;
      const where = inTemplate ? `${d.line}:${d.column}` : `${d.file}${d.line > 0 ? `:${d.line}:${d.column}` : ''}`;
      const body = [h('span', { class: 'where' }, where), ' ', h('span', { class: 'code' }, `${d.severity}[${d.code}]`), ' ', d.message];
      if (inTemplate) {
        gutter.children[d.line - 1]?.classList.add(d.severity === 'error' ? 'error' : 'warning');
        list.append(h('li', {}, h('button', {
          type: 'button', class: `diag ${d.severity}`, 'data-code': d.code, 'data-line': d.line,
          title: `Show line ${d.line} of the template`, onclick: () => showLine(d.line, d.column),
        }, body)));
      } else {
        list.append(h('li', {}, h('div', { class: `diag static ${d.severity}`, 'data-code': d.code }, body)));
      }
    }
  }

  // ---- the expanded catalog: channels and graphs
  function showCatalog(catalog) {
    expanded = catalog;
    packages = catalog?.packages ?? [];
    $('tpl-result').hidden = packages.length === 0;
    const body = $('tpl-channels').querySelector('tbody');
    body.textContent = '';
    const select = $('tpl-channel');
    const keep = select.value;
    select.textContent = '';
    for (const p of packages) {
      const ordered = [...p.channels].sort((a, b) => (a.name === p.defaultChannel ? -1 : b.name === p.defaultChannel ? 1 : a.name.localeCompare(b.name, 'en', { numeric: true })));
      for (const c of ordered) {
        const name = `${c.name}${c.name === p.defaultChannel ? ' (default)' : ''}`;
        body.append(h('tr', { 'data-channel': c.name },
          h('td', {}, p.name), h('td', {}, name), h('td', { class: 'mono' }, c.head ?? '—'), h('td', {}, String(c.versions.length))));
        select.append(h('option', { value: JSON.stringify([p.name, c.name]) }, packages.length > 1 ? `${p.name} — ${name}` : name));
      }
    }
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
    if (select.value) drawChannel();
  }
  async function drawChannel() {
    if (!expanded || !$('tpl-channel').value) return;
    const [pkg, channel] = JSON.parse($('tpl-channel').value);
    const drawn = await expanded.draw({ package: pkg, channel, fans: $('tpl-fans').checked, interactive: true, legend: false, idPrefix: 'tpl-graph' });
    showPicture($('tpl-graph'), drawn);
  }

  async function save() {
    if (!last) return;
    const format = $('tpl-format').value;
    let r;
    try {
      ({ result: r } = await call('expandTemplate', last.template, last.sources, { format }));
    } catch (e) {
      status(`${e.code ? `${e.code}: ` : ''}${e.message}`, 'invalid');
      return;
    }
    const base = last.template.path.replace(/^.*\//, '').replace(/\.(ya?ml|json)$/i, '') || 'template';
    download(`${base}-expanded.${format}`, r.catalog, format === 'json' ? 'application/json' : 'application/yaml');
  }

  // ---- wiring
  $('tpl-example').addEventListener('change', (ev) => { if (ev.target.value) loadExampleTemplate(ev.target.value); });
  $('tpl-file').addEventListener('change', async (ev) => {
    const f = ev.target.files[0];
    if (f) setTemplate(await f.text(), f.name);
    $('tpl-example').value = '';
  });
  $('tpl-src-example-name').addEventListener('change', () => { $('tpl-src-example').checked = true; });
  for (const [kind, strip] of [['files', false], ['folder', true]]) {
    $(`tpl-src-${kind}-input`).addEventListener('change', async (ev) => {
      picked[kind] = await readFiles(ev.target.files, strip);
      $(`tpl-src-${kind}`).checked = true;
    });
  }
  $('tpl-go').addEventListener('click', expand);
  $('tpl-download').addEventListener('click', save);
  $('tpl-channel').addEventListener('change', drawChannel);
  $('tpl-fans').addEventListener('change', drawChannel);
  lines();

  return {
    /** The catalog on the left changed. */
    refresh: describeMain,
    /** Fill the example lists: `examples` are the bundled catalogs (examples/index.json). */
    async start(examples) {
      for (const ex of examples) $('tpl-src-example-name').append(h('option', { value: ex.name }, ex.title));
      templates = await (await fetch('examples/templates/index.json')).json();
      for (const t of templates) $('tpl-example').append(h('option', { value: t.file }, t.title));
      if (examples.some((e) => e.name === 'community')) $('tpl-src-example-name').value = 'community';
      describeMain();
    },
  };
}
