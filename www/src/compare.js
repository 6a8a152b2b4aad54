// The Compare tab: two catalogs (the one loaded on the left as opened or with the editor's edits, a
// bundled example, files or a folder) through `diffCatalogs`: the change summary, the `update-*`
// findings, the update-safety table per package, and each changed channel's graph coloured by
// change (added, removed, re-wired edges; added, removed, newly stranded nodes).
// All the logic is the wasm module's, in the worker; catalog text only ever becomes text nodes
// (escape.js).
import { call } from './remote.js';
import { h } from './escape.js';
import { renderGraph, fanEdges } from './graph.js';

const SOURCES = [
  ['saved', 'The catalog loaded on the left, as opened'],
  ['edited', 'The catalog loaded on the left, with the editor\'s edits'],
  ['example', 'Bundled example'],
  ['files', 'Files'],
  ['folder', 'Folder'],
];
const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
const short = (name) => name ?? '—';

/**
 * @param {{ main: () => import('./remote.js').RemoteCatalog | null,
 *   exampleFiles: (name: string) => Promise<{path:string,content:string}[]>, readFiles: (list: FileList, stripRoot: boolean) => object[],
 *   openFile: (path: string, line?: number, column?: number) => void,
 *   fix: (op: object, why: string) => void }} deps `fix`: preview a finding's edit (its `fix`) on
 *   the catalog loaded on the left
 */
export function createComparePanel(deps) {
  const $ = (id) => document.getElementById(id);
  const picked = { old: null, new: null };
  let last = null; // { diff, oldSide, newSide, oldHandle, newHandle }
  let turn = 0;
  const mainPaths = () => deps.main()?.paths ?? [];

  function side(which, legend, initial) {
    const fs = $(`cmp-${which}`);
    fs.append(h('legend', {}, legend));
    for (const [value, label] of SOURCES) {
      const id = `cmp-${which}-${value}`;
      const row = h('div', { class: 'tpl-choice' },
        h('input', { type: 'radio', name: `cmp-${which}`, id, value, checked: value === initial }),
        h('label', { for: id }, label));
      if (value === 'example') row.append(h('select', { id: `cmp-${which}-example-name`, 'aria-label': `Bundled example for the ${which} catalog` }, h('option', { value: '' }, 'Choose…')));
      if (value === 'files' || value === 'folder') {
        const input = h('input', { type: 'file', multiple: true, webkitdirectory: value === 'folder', id: `cmp-${which}-${value}-input`, 'aria-label': `${label} of the ${which} catalog` });
        input.addEventListener('change', async () => {
          picked[which] = await deps.readFiles(input.files, value === 'folder');
          $(id).checked = true;
        });
        row.append(input);
      }
      fs.append(row);
    }
    $(`cmp-${which}-example-name`).addEventListener('change', () => { $(`cmp-${which}-example`).checked = true; });
  }

  async function filesOf(which) {
    const source = document.querySelector(`input[name="cmp-${which}"]:checked`)?.value;
    if (source === 'saved' || source === 'edited') {
      const c = deps.main();
      if (!c?.paths.length) throw new Error('No catalog is loaded on the left.');
      return { files: c.source(source), source, loaded: true };
    }
    if (source === 'example') {
      const name = $(`cmp-${which}-example-name`).value;
      if (!name) throw new Error(`Choose a bundled example for the ${which} catalog.`);
      return { files: await deps.exampleFiles(name), source, loaded: false };
    }
    if (!picked[which]) throw new Error(`Pick the ${which} catalog's ${source}.`);
    return { files: picked[which], source, loaded: false };
  }

  async function run() {
    const status = $('cmp-status');
    const out = $('cmp-output');
    out.textContent = '';
    status.className = 'summary';
    let oldSide;
    let newSide;
    try {
      [oldSide, newSide] = [await filesOf('old'), await filesOf('new')];
    } catch (e) {
      status.textContent = e.message;
      status.classList.add('invalid');
      return;
    }
    const t0 = performance.now();
    const mine = ++turn;
    status.textContent = 'Comparing…';
    // Each side is parsed once: the diff and the graphs use the same loaded catalogs.
    let reply;
    try {
      reply = await call('diff', oldSide.files, newSide.files, {}, ['compare-old', 'compare-new']);
    } catch (e) {
      if (mine !== turn) return;
      status.textContent = `${e.code ? `${e.code}: ` : ''}${e.message}`;
      status.classList.add('invalid');
      return;
    }
    if (mine !== turn) return;
    const { diff, oldHandle, newHandle } = reply;
    last = { diff, oldSide, newSide, oldHandle, newHandle };
    const errors = diff.findings.filter((d) => d.severity === 'error').length;
    const warnings = diff.findings.length - errors;
    status.textContent = !diff.packages.length && !diff.findings.length
      ? 'No changes: the two catalogs are the same.'
      : `${plural(diff.packages.length, 'package')} changed; ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in the update`;
    status.classList.add(errors ? 'invalid' : 'valid');
    status.dataset.errors = String(errors);
    status.dataset.warnings = String(warnings);
    out.append(summaryTable(diff), changes(diff), findings(diff), safety(diff), graphs(diff));
    document.body.dataset.compareMs = String(Math.round(performance.now() - t0));
    await drawSelected();
  }

  // ---- the change summary
  function summaryTable(diff) {
    const count = (items, kind) => items.filter((x) => x.kind === kind).length;
    const channels = diff.packages.flatMap((p) => p.channels);
    const bundles = diff.packages.flatMap((p) => p.bundles);
    const row = (what, items) => h('tr', { 'data-what': what.toLowerCase() }, h('th', { scope: 'row' }, what),
      ...['added', 'removed', 'changed'].map((k) => h('td', { class: count(items, k) ? `cmp-${k}` : '' }, String(count(items, k)))));
    return h('div', {}, h('h2', {}, 'Changes'),
      h('table', { class: 'rtable cmp-summary', id: 'cmp-summary', 'aria-label': 'Change summary' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), ...['Added', 'Removed', 'Changed'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, row('Packages', diff.packages), row('Channels', channels), row('Bundles', bundles))));
  }

  function changes(diff) {
    const vc = (label, c) => c && h('li', {}, `${label}: ${short(c.old)} → ${short(c.new)}`);
    const list = h('div', { class: 'cmp-changes' });
    for (const p of diff.packages) {
      const items = [vc('default channel', p.defaultChannel), vc('deprecation', p.deprecation), p.metadataChanged && h('li', {}, 'description or icon changed')];
      for (const c of p.channels) {
        const parts = [];
        if (c.head) parts.push(`head ${short(c.head.old)} → ${short(c.head.new)}`);
        if (c.entriesAdded.length || c.entriesRemoved.length) parts.push(`entries +${c.entriesAdded.length} −${c.entriesRemoved.length}`);
        if (c.edgesAdded.length || c.edgesRemoved.length) parts.push(`edges +${c.edgesAdded.length} −${c.edgesRemoved.length}`);
        if (c.deprecation) parts.push('deprecation changed');
        items.push(h('li', {}, h('span', { class: `tag cmp-${c.kind}` }, c.kind), ` channel ${c.name}`, parts.length ? `: ${parts.join('; ')}` : ''));
      }
      for (const b of p.bundles) {
        items.push(h('li', {}, h('span', { class: `tag cmp-${b.kind}` }, b.kind), ` bundle ${b.name}${b.version ? ` (${b.version})` : ''}`,
          b.fields.length ? `: ${b.fields.join(', ')}` : ''));
      }
      list.append(h('details', { open: diff.packages.length <= 5, 'data-package': p.name },
        h('summary', {}, h('span', { class: `tag cmp-${p.kind}` }, p.kind), ` ${p.name}`), h('ul', {}, items)));
    }
    return list;
  }

  // ---- findings, located in the new catalog (related locations in the old one)
  function findings(diff) {
    const wrap = h('div', {}, h('h2', {}, `Update findings (${diff.findings.length})`));
    if (!diff.findings.length) {
      wrap.append(h('p', { class: 'muted' }, 'Every installed version of the old catalog keeps its way to the head.'));
      return wrap;
    }
    const canOpen = (sideInfo, file) => sideInfo.loaded && mainPaths().includes(file);
    const where = (loc) => `${loc.file}:${loc.line}:${loc.column}`;
    const ul = h('ul', { class: 'cmp-findings', id: 'cmp-findings' });
    for (const d of diff.findings) {
      const open = canOpen(last.newSide, d.file);
      const body = [h('span', { class: 'where' }, where(d)), ' ', h('span', { class: 'code' }, `${d.severity}[${d.code}]`), ' ', d.message];
      const related = (d.related ?? []).map((r) => {
        const text = [h('span', { class: 'where' }, where(r)), ' ', r.message];
        return h('li', {}, canOpen(last.oldSide, r.file)
          ? h('button', { type: 'button', class: 'diag note', onclick: () => deps.openFile(r.file, r.line, r.column) }, text)
          : h('div', { class: 'diag note static' }, text));
      });
      // The edit that fixes it, when the new side is the catalog being edited on the left.
      const fix = d.fix && last.newSide.source === 'edited'
        ? h('button', { type: 'button', class: 'cmp-fix', 'data-code': d.code, 'aria-label': `Fix ${d.code}: preview the edit`, onclick: () => deps.fix(JSON.parse(d.fix), d.message) }, 'Fix…')
        : null;
      ul.append(h('li', {}, open
        ? h('button', { type: 'button', class: `diag ${d.severity}`, 'data-code': d.code, title: 'Open in the editor', onclick: () => deps.openFile(d.file, d.line, d.column) }, body)
        : h('div', { class: `diag ${d.severity} static`, 'data-code': d.code }, body),
      fix,
      related.length ? h('ul', { class: 'cmp-related' }, related) : null));
    }
    wrap.append(ul);
    return wrap;
  }

  // ---- update safety: where OLM v0 and v1 take each installed version, before and after
  function route(r) {
    if (!r) return 'channel gone';
    if (r.stranded) return 'stranded';
    if (!r.path.length) return 'at head';
    return `${plural(r.path.length, 'step')} via ${r.next}`;
  }
  function routeCell(o, n) {
    const before = route(o);
    const after = route(n);
    const title = `old: ${o.path.join(' → ') || before}\nnew: ${n?.path.join(' → ') || after}`;
    if (before === after) return h('td', { title }, before);
    const bad = n === null || n.stranded;
    return h('td', { title, class: 'cmp-moved' }, before, ' → ', h('strong', { class: bad ? 'cmp-bad' : 'cmp-changed-cell' }, after));
  }
  /** OLM v1's cell, saying when its next step fails the CRD Upgrade Safety preflight, and why. */
  function blockedCell(cell, blocked) {
    if (!blocked) return cell;
    cell.classList.add('cmp-blocked');
    cell.append(h('div', {}, h('strong', { class: 'cmp-bad' }, `blocked at ${blocked.next}`), ': ', blocked.codes.map((c) => h('span', { class: 'tag cmp-code' }, c)), ' ', h('details', { class: 'cmp-reason' }, h('summary', {}, 'why'), blocked.reason)));
    return cell;
  }
  function safety(diff) {
    const wrap = h('div', { class: 'cmp-safety-wrap' }, h('h2', {}, 'Update safety'));
    const toggle = h('input', { type: 'checkbox', id: 'cmp-all-rows' });
    wrap.append(h('p', { class: 'controls' }, h('label', {}, toggle, ' show unchanged packages and rows')));
    const tables = h('div', { class: 'cmp-safety only-changed', id: 'cmp-safety' });
    toggle.addEventListener('change', () => tables.classList.toggle('only-changed', !toggle.checked));
    for (const p of diff.safety) {
      const rows = p.rows.map((r) => h('tr', { class: r.changed || r.blocked ? 'changed' : 'same', 'data-installed': r.installed, 'data-channel': r.channel, 'data-blocked': r.blocked ? 'true' : undefined },
        h('td', {}, r.channel), h('th', { scope: 'row', title: r.installed }, r.version ?? r.installed),
        routeCell(r.old.v0, r.new?.v0 ?? null), blockedCell(routeCell(r.old.v1, r.new?.v1 ?? null), r.blocked),
        h('td', {}, r.findings.map((c) => h('span', { class: 'tag cmp-code' }, c)))));
      const changedRows = p.rows.filter((r) => r.changed).length;
      const blockedRows = p.rows.filter((r) => r.blocked).length;
      const blockedText = blockedRows ? `, ${blockedRows} blocked by CRDs` : '';
      tables.append(h('section', { class: changedRows || blockedRows ? 'changed' : 'same', 'data-package': p.package },
        h('h3', {}, `${p.package} `, h('span', { class: 'muted' }, `(${plural(changedRows, 'changed route')} of ${p.rows.length}${blockedText})`)),
        h('table', { class: 'rtable', 'aria-label': `Update safety of ${p.package}` },
          h('thead', {}, h('tr', {}, ...['Channel', 'Installed', 'OLM v0: old → new', 'OLM v1: old → new', 'Findings'].map((c) => h('th', { scope: 'col' }, c)))),
          h('tbody', {}, rows))));
    }
    if (!diff.safety.some((p) => p.rows.some((r) => r.changed))) tables.append(h('p', { class: 'muted' }, 'No installed version of the old catalog changes its route.'));
    wrap.append(tables);
    return wrap;
  }

  // ---- channel graphs coloured by change
  function graphs(diff) {
    const wrap = h('div', {}, h('h2', {}, 'Channel graphs'));
    const select = h('select', { id: 'cmp-channel' });
    const changedRoutes = new Set(diff.safety.flatMap((p) => p.rows.filter((r) => r.changed).map((r) => `${p.package}\u0000${r.channel}`)));
    const seen = new Set();
    const order = { changed: 0, added: 1, removed: 2 };
    for (const p of diff.packages) {
      for (const c of [...p.channels].sort((a, b) => order[a.kind] - order[b.kind])) {
        seen.add(`${p.name}\u0000${c.name}`);
        select.append(h('option', { value: JSON.stringify([p.name, c.name]) }, `${p.name} — ${c.name} (${c.kind})`));
      }
    }
    for (const k of changedRoutes) {
      if (seen.has(k)) continue;
      const [pkg, ch] = k.split('\u0000');
      select.append(h('option', { value: JSON.stringify([pkg, ch]) }, `${pkg} — ${ch} (routes changed)`));
    }
    if (!select.options.length) {
      wrap.append(h('p', { class: 'muted' }, 'No channel changed.'));
      return wrap;
    }
    select.addEventListener('change', drawSelected);
    wrap.append(
      h('div', { class: 'controls' }, h('label', { for: 'cmp-channel' }, 'Channel'), select),
      h('div', { class: 'legend', 'aria-label': 'Legend' },
        h('span', { class: 'lg cmp-added' }, 'added'), h('span', { class: 'lg cmp-removed' }, 'removed'),
        h('span', { class: 'lg cmp-rewired' }, 're-wired edge'), h('span', { class: 'lg cmp-stranded' }, 'newly stranded'),
        h('span', { class: 'lg head' }, 'head'), h('span', { class: 'lg skipped' }, 'skipped'),
        h('span', { class: 'lg replaces' }, 'replaces'), h('span', { class: 'lg skips' }, 'skips'), h('span', { class: 'lg skiprange' }, 'skipRange')),
      h('div', { id: 'cmp-graph', class: 'graph tpl-graph', tabindex: '0', 'aria-label': 'Channel graph coloured by change (drag to pan, wheel or +/- to zoom)' }));
    return wrap;
  }

  async function graphOf(handle, pkg, channel) {
    try { return await call('catalog', handle, 'channelGraph', pkg, channel); } catch { return null; }
  }

  /** One graph with both catalogs' nodes and edges, each marked with how it changed. */
  function merge(oldG, newG, pkg, channel) {
    const key = (e) => `${e.from}\u0000${e.to}\u0000${e.kind}`;
    // Every edge, skipRange fans expanded, so that each can be marked.
    const all = (g) => (g ? [...g.edges, ...fanEdges(g)] : []);
    const [oldEdges, newEdges] = [all(oldG), all(newG)];
    const oldN = new Map((oldG?.nodes ?? []).map((n) => [n.name, n]));
    const newN = new Map((newG?.nodes ?? []).map((n) => [n.name, n]));
    const oldE = new Set(oldEdges.map(key));
    const newE = new Set(newEdges.map(key));
    const nodes = [];
    for (const n of newN.values()) {
      const before = oldN.get(n.name);
      const stranded = n.stranded && !n.virtual && !n.head && before && !before.stranded;
      nodes.push({ ...n, change: !before ? 'added' : stranded ? 'stranded' : '' });
    }
    for (const n of oldN.values()) if (!newN.has(n.name)) nodes.push({ ...n, head: false, change: 'removed' });
    const both = (e) => oldN.has(e.from) && oldN.has(e.to) && newN.has(e.from) && newN.has(e.to);
    const edges = [];
    for (const e of newEdges) edges.push({ ...e, change: oldE.has(key(e)) ? '' : both(e) ? 'rewired' : 'added' });
    for (const e of oldEdges) if (!newE.has(key(e))) edges.push({ ...e, change: 'removed' });
    return { package: pkg, channel, nodes, edges };
  }

  function classOf(item, what) {
    if (what === 'edge' && item.fan) {
      const kinds = new Set(item.members.map((m) => m.change).filter(Boolean));
      return [...kinds].map((k) => `cmp-${k}`).join(' ');
    }
    return item.change ? `cmp-${item.change}` : '';
  }

  async function drawSelected() {
    const select = $('cmp-channel');
    if (!select || !last) return;
    const [pkg, channel] = JSON.parse(select.value);
    const [oldG, newG] = await Promise.all([graphOf(last.oldHandle, pkg, channel), graphOf(last.newHandle, pkg, channel)]);
    if (select.value !== JSON.stringify([pkg, channel]) || !select.isConnected) return; // another one was picked meanwhile
    const graph = merge(oldG, newG, pkg, channel);
    await renderGraph($('cmp-graph'), graph, { classOf });
    document.body.dataset.compareGraph = `${pkg}/${channel}`;
  }

  side('old', 'Old catalog', 'saved');
  side('new', 'New catalog', 'edited');
  $('cmp-go').addEventListener('click', run);
  $('cmp-swap').addEventListener('click', () => {
    const o = document.querySelector('input[name="cmp-old"]:checked')?.value;
    const n = document.querySelector('input[name="cmp-new"]:checked')?.value;
    const oe = $('cmp-old-example-name').value;
    $(`cmp-old-${n}`).checked = true;
    $(`cmp-new-${o}`).checked = true;
    $('cmp-old-example-name').value = $('cmp-new-example-name').value;
    $('cmp-new-example-name').value = oe;
    [picked.old, picked.new] = [picked.new, picked.old];
  });

  return {
    /** Fill the example lists once the index is known. */
    start(examples) {
      for (const which of ['old', 'new']) {
        for (const ex of examples) $(`cmp-${which}-example-name`).append(h('option', { value: ex.name }, ex.title));
      }
    },
    /** The catalog on the left changed: describe it. */
    refresh() {
      const n = mainPaths().length;
      $('cmp-loaded').textContent = n ? `Catalog on the left: ${plural(n, 'file')}.` : 'No catalog loaded on the left.';
    },
  };
}
