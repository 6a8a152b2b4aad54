// The package view's "Dependencies" section: the cross-package view (`packageDeps`, computed in
// the worker) drawn as a graph in columns — the packages requiring this one → the package → what
// it requires (packages, GVKs, labels, constraints) → the packages whose bundles provide each
// requirement. Unsatisfied requirements are marked; clicking a package opens it. Every catalog
// string is set as text (escape.js), never as markup.
import { h, s } from './escape.js';
import { call } from './remote.js';

const COL_W = 270;
const GAP = 46;
const ROW_H = 48;
const NODE_H = 38;
const PAD = 10;
const X = [0, COL_W + GAP, 2 * (COL_W + GAP), 3 * (COL_W + GAP)];

/** `text` cut to `max` characters with an ellipsis (the full text goes in a title). */
function cut(text, max = 33) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The providers of a requirement, one entry per package: its bundles' versions, heads first. */
function byPackage(providers) {
  const out = new Map();
  for (const p of providers) {
    if (!out.has(p.package)) out.set(p.package, []);
    out.get(p.package).push(p);
  }
  return [...out].map(([pkg, list]) => ({ pkg, list }));
}

function versionsLine(list) {
  const head = list.find((p) => p.headOf.length);
  const v = list.map((p) => p.version ?? p.bundle);
  const span = v.length > 1 ? `${v[0]} … ${v[v.length - 1]}` : v[0];
  return `${plural(list.length, 'bundle')}: ${span}${head ? ' · head' : ''}`;
}

function statusLine(r) {
  switch (r.status) {
    case 'satisfied': return `✓ ${plural(r.providerCount, 'provider')}`;
    case 'unsatisfied': return '✗ unsatisfied: nothing provides it';
    case 'unknown': return '? CEL rule, not evaluated';
    default: return `✗ invalid: ${r.error ?? ''}`;
  }
}

/**
 * One node: a rounded box with two lines of text and a tooltip; `onOpen` makes it a link
 * (click, Enter or Space).
 */
function node(x, y, { cls, line1, line2, title, onOpen, data = {} }) {
  const g = s('g', { class: `dnode ${cls}`, transform: `translate(${x},${y})`, ...data });
  g.append(s('title', {}, title));
  g.append(s('rect', { width: COL_W, height: NODE_H, rx: 6 }));
  g.append(s('text', { x: PAD, y: 16, class: 'l1' }, cut(line1)));
  if (line2) g.append(s('text', { x: PAD, y: 31, class: 'l2' }, cut(line2, 41)));
  if (onOpen) {
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'link');
    g.setAttribute('aria-label', title);
    g.classList.add('link');
    g.addEventListener('click', onOpen);
    g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); onOpen(); } });
  }
  return g;
}

function edge(x1, y1, x2, y2, cls) {
  const mx = (x1 + x2) / 2;
  return s('path', { class: `dedge ${cls}`, d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`, 'marker-end': 'url(#deps-arrow)' });
}

/**
 * Draw `deps` (a PackageDeps) into an SVG: requirers, the package, requirements, providers.
 * `open(name)` opens a package; `known(name)` says whether the catalog has it.
 */
export function drawDeps(deps, { open, known }) {
  const reqs = deps.requirements;
  const groups = reqs.map((r) => byPackage(r.providers));
  const reqRows = groups.map((g) => Math.max(1, g.length));
  const rightRows = reqRows.reduce((a, b) => a + b, 0);
  const rows = Math.max(rightRows, deps.requiredBy.length, 1);
  const height = rows * ROW_H + 30;
  const width = X[3] + COL_W + 2;
  const svg = s('svg', { class: 'deps-graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
  svg.append(s('title', {}, `Dependencies of ${deps.package}`));
  svg.append(s('desc', {}, `${plural(deps.requiredBy.length, 'requirement')} on it from other packages; ${plural(reqs.length, 'requirement')} of its own, ${deps.summary.unsatisfied} unsatisfied.`));
  const defs = s('defs');
  const marker = s('marker', { id: 'deps-arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' });
  marker.append(s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#666' }));
  defs.append(marker);
  svg.append(defs);
  const heads = ['Required by', 'Package', 'Requires', 'Provided by'];
  heads.forEach((t, i) => svg.append(s('text', { x: X[i], y: 14, class: 'dhead' }, t)));
  const top = 26;
  const mid = (nrows) => top + ((nrows * ROW_H) - NODE_H) / 2;
  const edges = s('g', { class: 'dedges' });
  svg.append(edges);
  const nodes = s('g', { class: 'dnodes' });
  svg.append(nodes);
  const openIf = (name) => (known(name) ? () => open(name) : undefined);

  // The package itself, centred.
  const py = mid(rows);
  nodes.append(node(X[1], py, {
    cls: `self${deps.summary.unsatisfied + deps.summary.invalid ? ' unmet' : ''}`,
    line1: deps.package,
    line2: `${plural(deps.summary.bundles, 'bundle')}${deps.headsOnly ? ' (heads)' : ''}`,
    title: deps.package,
    data: { 'data-package': deps.package, 'data-role': 'self' },
  }));

  const none = (x, text) => nodes.append(s('text', { x, y: py + NODE_H / 2 + 4, class: 'dnone' }, text));
  if (!deps.requiredBy.length) none(X[0], 'no other package requires it');
  if (!reqs.length) none(X[2], 'requires no other package or API');

  // Requirers.
  const leftTop = top + ((rows - deps.requiredBy.length) * ROW_H) / 2;
  deps.requiredBy.forEach((r, i) => {
    const y = leftTop + i * ROW_H + (ROW_H - NODE_H) / 2;
    nodes.append(node(X[0], y, {
      cls: `requirer${r.satisfied ? '' : ' unmet'}`,
      line1: r.package,
      line2: `${r.text}${r.satisfied ? '' : ' ✗'}`,
      title: `${r.package} requires ${r.text} (${r.property}), declared by ${plural(r.bundles.length, 'bundle')}${r.heads.length ? `; heads: ${r.heads.join(', ')}` : ''}${r.satisfied ? '' : `; no bundle of ${deps.package} satisfies it`}`,
      onOpen: openIf(r.package),
      data: { 'data-package': r.package, 'data-role': 'requirer' },
    }));
    edges.append(edge(X[0] + COL_W, y + NODE_H / 2, X[1], py + NODE_H / 2, r.satisfied ? '' : 'unmet'));
  });

  // Requirements and their providers.
  let row = 0;
  reqs.forEach((r, i) => {
    const n = reqRows[i];
    const y = top + row * ROW_H + ((n * ROW_H) - NODE_H) / 2;
    const declared = r.declaredByHeads.length ? `heads: ${r.declaredByHeads.join(', ')}` : 'no channel head';
    const title = `${r.text} (${r.property}): ${statusLine(r)}. Declared by ${plural(r.declaredBy.length, 'bundle')} (${declared}).${r.constraint?.failureMessage ? ` Failure message: ${r.constraint.failureMessage}` : ''}`;
    nodes.append(node(X[2], y, {
      cls: `req ${r.status}`,
      line1: r.text,
      line2: statusLine(r),
      title,
      onOpen: r.package && r.kind === 'package' ? openIf(r.package) : undefined,
      data: { 'data-status': r.status, 'data-requirement': r.text },
    }));
    edges.append(edge(X[1] + COL_W, py + NODE_H / 2, X[2], y + NODE_H / 2, r.status === 'satisfied' ? '' : r.status));
    groups[i].forEach(({ pkg, list }, k) => {
      const gy = top + (row + k) * ROW_H + (ROW_H - NODE_H) / 2;
      const more = k === groups[i].length - 1 && r.providerCount > r.providers.length ? ` (+${r.providerCount - r.providers.length} more)` : '';
      nodes.append(node(X[3], gy, {
        cls: 'provider',
        line1: pkg,
        line2: versionsLine(list) + more,
        title: `${pkg}: ${list.map((p) => `${p.bundle}${p.headOf.length ? ` (head of ${p.headOf.join(', ')})` : ''}`).join(', ')}`,
        onOpen: openIf(pkg),
        data: { 'data-package': pkg, 'data-role': 'provider' },
      }));
      edges.append(edge(X[2] + COL_W, y + NODE_H / 2, X[3], gy + NODE_H / 2, ''));
    });
    row += n;
  });
  return svg;
}

/** A list of the requirements as text, under the graph (what a screen reader reads). */
function listing(deps) {
  const ul = h('ul', { class: 'deps-list' });
  for (const r of deps.requirements) {
    ul.append(h('li', { class: r.status }, h('strong', {}, r.text), ` — ${statusLine(r)}; declared by ${plural(r.declaredBy.length, 'bundle')}`,
      r.declaredByHeads.length ? ` (channel heads: ${r.declaredByHeads.join(', ')})` : ' (no channel head)',
      r.constraint?.failureMessage ? h('div', { class: 'note' }, `failure message: ${r.constraint.failureMessage}`) : null));
  }
  return ul;
}

/**
 * The section, added to the package view (`#channel-view`). `main()` is the RemoteCatalog on the
 * left; `openPackage(name)` opens another package. `show(name)` (re)draws it for a package.
 */
export function createDepsView({ main, openPackage }) {
  const summary = h('p', { class: 'deps-summary', id: 'deps-summary' });
  const headsOnly = h('input', { type: 'checkbox', id: 'deps-heads' });
  const graph = h('div', { class: 'deps-graph-wrap', id: 'deps-graph' });
  const list = h('div', { id: 'deps-list' });
  // A button that shows and hides the body (not a <details>: the page's tests address the paste
  // box's <details> by tag).
  const body = h('div', { id: 'deps-body', hidden: true },
    h('div', { class: 'controls' }, h('label', {}, headsOnly, ' channel heads only')),
    summary, graph, list);
  const toggle = h('button', { type: 'button', id: 'deps-toggle', 'aria-expanded': 'false', 'aria-controls': 'deps-body' },
    'Dependencies: who it requires, who requires it');
  const section = h('section', { class: 'deps', id: 'deps-view' }, h('h3', {}, toggle), body);
  document.getElementById('channel-view').append(section);
  const isOpen = () => !body.hidden;
  let current = null;
  let drawn = 0;

  async function draw() {
    const catalog = main();
    if (!catalog || !current || !isOpen()) return;
    const mine = ++drawn;
    const name = current;
    let deps;
    try {
      deps = await call('packageDeps', catalog.handle, { package: name, headsOnly: headsOnly.checked });
    } catch (e) {
      if (mine !== drawn) return;
      summary.textContent = `No dependency view: ${e.message}`;
      graph.textContent = '';
      list.textContent = '';
      return;
    }
    if (mine !== drawn) return;
    const known = (p) => catalog.packages.some((x) => x.name === p);
    const { summary: n } = deps;
    const parts = [`${plural(n.requirements, 'requirement')}`];
    if (n.unsatisfied) parts.push(`${n.unsatisfied} unsatisfied`);
    if (n.invalid) parts.push(`${n.invalid} invalid`);
    if (n.unknown) parts.push(`${n.unknown} with a CEL rule (not evaluated)`);
    summary.textContent = `${name} (${plural(n.bundles, 'bundle')}${deps.headsOnly ? ', channel heads only' : ''}): ${parts.join(', ')}; required by ${plural(n.requiredBy, 'package')}.`;
    summary.className = `deps-summary${n.unsatisfied + n.invalid ? ' unmet' : ''}`;
    graph.textContent = '';
    graph.append(drawDeps(deps, { open: (p) => openPackage(p), known }));
    list.textContent = '';
    list.append(listing(deps));
    document.body.dataset.depsDrawn = `${name}:${Date.now()}`;
  }

  toggle.addEventListener('click', () => {
    body.hidden = isOpen();
    toggle.setAttribute('aria-expanded', String(isOpen()));
    draw();
  });
  headsOnly.addEventListener('change', draw);
  return {
    /** Show the view for package `name` (drawn now if the section is open, else when opened). */
    show(name) {
      current = name;
      drawn++;
      summary.textContent = '';
      graph.textContent = '';
      list.textContent = '';
      draw();
    },
  };
}
