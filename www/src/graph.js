// Channel graphs. A catalog's channel (`showPicture`) is drawn as the `<olm-upgrade-graph>` element
// and the CLI draw it: laid out and rendered as SVG by the picture module from the core's draft (`renderGraphSvg`, in the
// worker), shown by the element's viewer (pkg/element-view.js). A comparison's merged graph, which
// is no catalog's, is laid out by the same layered layout (`layoutGraph`, in the worker) and drawn by
// our own code (`renderGraph`). Edge kinds follow the
// olm-docs legend (replaces solid, skips with a crossed end, skipRange dashed with circle ends);
// skipRange fans are collapsed into one edge per target unless expanded. Zoom with the wheel or
// +/-, pan by dragging or with the arrow keys.
import { s } from './escape.js';
import { call } from './remote.js';
import { showGraph } from '../../pkg/element-view.js';

/**
 * Show a drawn channel (`RemoteCatalog.draw`: `{svg, picture}`) in `container`.
 * `onSelect(node)` hears a node picked (click, Enter, Space).
 */
export function showPicture(container, { svg, picture }, { onSelect } = {}) {
  container.classList.add('picture');
  // As tall as the drawing (at most 60 % of the window), so a one-row channel leaves no blank panel.
  container.style.height = `${Math.round(Math.min(innerHeight * 0.6, Math.max(160, picture.height + 16)))}px`;
  const view = showGraph(container, svg, picture, { onSelect });
  return { svg, picture, view };
}

const NODE_H = 30;

/**
 * The skipRange edges a ChannelGraph keeps as ranges (`fans`: each a `to` entry and `[start, end)`
 * runs of positions in `byVersion`), one edge from each covered entry to `to`.
 */
export function fanEdges(graph) {
  const out = [];
  for (const f of graph.fans ?? []) {
    for (const [start, end] of f.runs) {
      for (let i = start; i < end; i++) {
        const from = graph.nodes[graph.byVersion[i]].name;
        if (from !== f.to) out.push({ from, to: f.to, kind: 'skipRange' });
      }
    }
  }
  return out;
}

/** `names` joined, the first `max` of them, then how many more. */
function capped(names, max = 30) {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

function defs() {
  const d = s('defs');
  const arrow = s('marker', { id: 'm-arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' });
  arrow.append(s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#333' }));
  const cross = s('marker', { id: 'm-cross', viewBox: '0 0 12 12', refX: 11, refY: 6, markerWidth: 10, markerHeight: 10, orient: 'auto' });
  cross.append(s('path', { d: 'M0,0 L12,6 L0,12 z', fill: '#c62828' }), s('path', { d: 'M2,1 L8,11 M8,1 L2,11', stroke: '#fff', 'stroke-width': 1.6 }));
  const circle = s('marker', { id: 'm-circle', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 7, markerHeight: 7 });
  circle.append(s('circle', { cx: 5, cy: 5, r: 4, fill: '#fff', stroke: '#1565c0', 'stroke-width': 2 }));
  d.append(arrow, cross, circle);
  return d;
}

function nodeTitle(n) {
  const lines = [n.name];
  if (n.version) lines.push(`version ${n.version}`);
  if (n.head) lines.push('channel head');
  if (n.virtual) lines.push('not an entry of this channel');
  if (n.deprecated !== null && n.deprecated !== undefined) lines.push(`deprecated: ${n.deprecated}`);
  if (n.skipped) lines.push('skipped by another entry (OLM v0 never upgrades through it)');
  if (n.stranded && !n.virtual) lines.push('stranded: OLM v0 has no path from it to the head');
  if (n.channels?.length) lines.push(`channels: ${n.channels.join(', ')}`);
  return lines.join('\n');
}

/**
 * Draw `graph` (a ChannelGraph; skipRange edges in `fans`, or in `edges` as a comparison merges
 * them) into `container`. `classOf(item, what)` (what: `'node'` or
 * `'edge'`; a collapsed fan edge carries its `members`) may return extra classes, e.g. to colour a
 * comparison.
 * @returns {{ svg: SVGSVGElement, highlight(steps: {from:string,to:string,edge:string}[], from?: string): void }}
 */
export async function renderGraph(container, graph, { expandFans = false, classOf = () => '' } = {}) {
  const nodeData = new Map();
  const specNodes = [];
  for (const n of graph.nodes) {
    specNodes.push({ id: n.name, width: Math.max(60, n.name.length * 7 + 18), height: NODE_H });
    nodeData.set(n.name, n);
  }
  const edges = [];
  const fans = new Map();
  for (const e of [...graph.edges, ...fanEdges(graph)]) {
    if (e.kind === 'skipRange' && !expandFans) {
      const list = fans.get(e.to) ?? [];
      list.push(e);
      fans.set(e.to, list);
    } else {
      edges.push(e);
    }
  }
  const fanNodes = new Map();
  for (const [to, list] of fans) {
    const id = `fan:${to}`;
    specNodes.push({ id, width: 44, height: 22 });
    fanNodes.set(id, { to, count: list.length, from: list.map((e) => e.from) });
    edges.push({ from: id, to, kind: 'skipRange', fan: true, count: list.length, members: list });
  }
  const index = new Map(specNodes.map((n, i) => [n.id, i]));
  const result = await call('layout', {
    nodes: specNodes.map(({ width, height }) => ({ width, height })),
    edges: edges.map((e) => ({ from: index.get(e.from), to: index.get(e.to) })),
    direction: 'lr', rankGap: 46, nodeGap: 14,
  });
  // Centres, as the drawing below places nodes (the layout gives top left corners).
  const laid = { width: result.width, height: result.height, nodes: {}, edges: result.edges.map((e) => e.d) };
  specNodes.forEach((n, i) => {
    const r = result.nodes[i];
    laid.nodes[n.id] = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  const sizes = new Map(specNodes.map((n) => [n.id, n]));
  container.textContent = '';
  const { width, height } = laid;
  const svg = s('svg', { class: 'drawn', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Upgrade graph of channel ${graph.channel}` });
  svg.append(defs());
  const root = s('g');
  svg.append(root);

  edges.forEach((e, i) => {
    const d = laid.edges[i] ?? '';
    const el = s('g', { class: `edge ${e.kind}${e.fan ? ' fan' : ''} ${classOf(e, 'edge')}`.trim(), 'data-from': e.from, 'data-to': e.to, 'data-kind': e.kind });
    const path = s('path', { d });
    if (e.kind === 'replaces') path.setAttribute('marker-end', 'url(#m-arrow)');
    if (e.kind === 'skips') path.setAttribute('marker-end', 'url(#m-cross)');
    if (e.kind === 'skipRange') { path.setAttribute('marker-end', 'url(#m-circle)'); path.setAttribute('marker-start', 'url(#m-circle)'); }
    el.append(path, s('title', {}, e.fan ? `skipRange of ${e.to} covers ${e.count} entr${e.count === 1 ? 'y' : 'ies'}` : `${e.from} → ${e.to} (${e.kind})`));
    root.append(el);
  });
  for (const spec of specNodes) {
    const n = { ...laid.nodes[spec.id], width: sizes.get(spec.id).width, height: sizes.get(spec.id).height, fan: fanNodes.get(spec.id), data: nodeData.get(spec.id) };
    if (n.fan) {
      const el = s('g', { class: 'fan-node', transform: `translate(${n.x - n.width / 2},${n.y - n.height / 2})`, 'data-to': n.fan.to });
      el.append(s('rect', { width: n.width, height: n.height, rx: 11, fill: '#e3f2fd', stroke: '#1565c0' }),
        s('text', { x: n.width / 2, y: 15, 'text-anchor': 'middle', 'font-size': 11, fill: '#1565c0' }, `×${n.fan.count}`),
        s('title', {}, `skipRange fan: ${capped(n.fan.from)}`));
      root.append(el);
      continue;
    }
    const data = n.data;
    const cls = ['node', data.head && 'head', data.virtual && 'virtual', data.deprecated != null && 'deprecated',
      data.skipped && 'skipped', data.stranded && !data.virtual && !data.head && 'stranded', classOf(data, 'node')].filter(Boolean).join(' ');
    const el = s('g', { class: cls, transform: `translate(${n.x - n.width / 2},${n.y - n.height / 2})`, 'data-name': data.name });
    el.append(s('rect', { width: n.width, height: n.height }), s('text', { x: 9, y: 19 }, data.name), s('title', {}, nodeTitle(data)));
    root.append(el);
  }
  container.append(svg);
  const head = graph.nodes.find((n) => n.head);
  const focus = head ? laid.nodes[head.name] : { x: width, y: height / 2 };
  attachZoom(container, svg, width, height, focus);

  return {
    svg,
    highlight(steps, from) {
      for (const el of svg.querySelectorAll('.on-path')) el.classList.remove('on-path');
      const names = new Set(steps.flatMap((st) => [st.from, st.to]));
      if (from) names.add(from);
      for (const el of svg.querySelectorAll('.node')) if (names.has(el.dataset.name)) el.classList.add('on-path');
      for (const st of steps) {
        for (const el of svg.querySelectorAll('.edge')) {
          if (el.dataset.from === st.from && el.dataset.to === st.to && el.dataset.kind === st.edge) el.classList.add('on-path');
          if (el.classList.contains('fan') && st.edge === 'skipRange' && el.dataset.to === st.to) el.classList.add('on-path');
        }
      }
    },
  };
}

function attachZoom(container, svg, width, height, focus) {
  // Start at natural size (1 SVG unit = 1 px) with the head in view; pan to see the rest.
  const cw = container.clientWidth || width;
  const ch = container.clientHeight || height;
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(v, hi));
  const initial = width > cw || height > ch
    ? { x: clamp(focus.x - cw * 0.8, 0, Math.max(0, width - cw)), y: clamp(focus.y - ch / 2, Math.min(0, height - ch), Math.max(0, height - ch)), w: cw, h: ch }
    : { x: (width - cw) / 2, y: (height - ch) / 2, w: cw, h: ch };
  let vb = { ...initial };
  svg.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
  const apply = () => svg.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
  const zoom = (factor, cx = vb.x + vb.w / 2, cy = vb.y + vb.h / 2) => {
    vb = { x: cx - (cx - vb.x) * factor, y: cy - (cy - vb.y) * factor, w: vb.w * factor, h: vb.h * factor };
    apply();
  };
  container.onwheel = (ev) => {
    ev.preventDefault();
    const r = svg.getBoundingClientRect();
    const cx = vb.x + ((ev.clientX - r.left) / r.width) * vb.w;
    const cy = vb.y + ((ev.clientY - r.top) / r.height) * vb.h;
    zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
  };
  let drag = null;
  container.onpointerdown = (ev) => { drag = { x: ev.clientX, y: ev.clientY, vb: { ...vb } }; container.setPointerCapture(ev.pointerId); };
  container.onpointermove = (ev) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    vb = { ...drag.vb, x: drag.vb.x - ((ev.clientX - drag.x) / r.width) * vb.w, y: drag.vb.y - ((ev.clientY - drag.y) / r.height) * vb.h };
    apply();
  };
  container.onpointerup = () => { drag = null; };
  container.onkeydown = (ev) => {
    const step = 0.1;
    if (ev.key === '+' || ev.key === '=') zoom(1 / 1.2);
    else if (ev.key === '-') zoom(1.2);
    else if (ev.key === 'ArrowLeft') { vb.x -= vb.w * step; apply(); }
    else if (ev.key === 'ArrowRight') { vb.x += vb.w * step; apply(); }
    else if (ev.key === 'ArrowUp') { vb.y -= vb.h * step; apply(); }
    else if (ev.key === 'ArrowDown') { vb.y += vb.h * step; apply(); }
    else if (ev.key === '0') { vb = { ...initial }; apply(); }
    else if (ev.key === 'f') { vb = { x: 0, y: 0, w: width, h: height }; apply(); }
    else return;
    ev.preventDefault();
  };
}
