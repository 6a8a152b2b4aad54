// Showing a channel's upgrade graph in a page: the SVG `renderGraphSvg` returns (already escaped,
// and checked again here: no script, no event attribute, no outside link survives), in a viewport
// that pans (drag, arrow keys on the background) and zooms (wheel, +/-, 0 to reset) and starts at
// 1:1 or smaller, never larger; nodes are reached with Tab or the arrow keys (to the nearest node
// that way, by the `Picture`'s positions) and picked with a click, Enter or Space. Shared by the
// `<olm-upgrade-graph>` element (element.js) and the site (www/src/graph.js), so both look and
// behave the same.

const SVG_NS = 'http://www.w3.org/2000/svg';
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 2;

/**
 * Parse an SVG document's text into an element of `doc`, keeping only drawing: scripts, foreign
 * content, event handler attributes and links other than in-document ones (`#id`) are removed.
 * @param {string} text
 * @param {Document} [doc]
 * @returns {SVGSVGElement}
 */
export function parseSvg(text, doc = document) {
  const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
    throw Object.assign(new Error('the graph is not an SVG document'), { name: 'OlmCatalogError', code: 'render-failed' });
  }
  for (const el of [...root.querySelectorAll('script, foreignObject, iframe, object, embed')]) el.remove();
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const a of [...el.attributes]) {
      const name = a.name.toLowerCase();
      if (name.startsWith('on')) el.removeAttribute(a.name);
      else if ((name === 'href' || name === 'xlink:href') && !a.value.startsWith('#')) el.removeAttribute(a.name);
    }
  }
  return doc.importNode(root, true);
}

/** The node nearest to `from` in direction `key` (an arrow key), by centres; null if none. */
export function nearestNode(nodes, from, key) {
  const c = (n) => ({ x: n.x + n.width / 2, y: n.y + n.height / 2 });
  const o = c(from);
  let best = null;
  let bestScore = Infinity;
  for (const n of nodes) {
    if (n === from) continue;
    const p = c(n);
    const dx = p.x - o.x;
    const dy = p.y - o.y;
    // Along: how far that way; across: how far off the line (weighted, so a straight neighbour wins).
    const [along, across] = key === 'ArrowRight' ? [dx, dy] : key === 'ArrowLeft' ? [-dx, dy] : key === 'ArrowDown' ? [dy, dx] : [-dy, dx];
    if (along <= 1) continue;
    const score = along + 2.5 * Math.abs(across);
    if (score < bestScore) {
      bestScore = score;
      best = n;
    }
  }
  return best;
}

/**
 * Show `svgText` (what `renderGraphSvg` returned for `picture`) in `viewport` (an element whose
 * size the page sets; its content is replaced).
 * `onSelect(node, event)` hears a click, Enter or Space on a node (a `PictureNode`).
 * @param {HTMLElement} viewport
 * @param {string} svgText
 * @param {import('./index.js').Picture} picture
 * @param {{ onSelect?: (node: any, event: Event) => void, focus?: string }} [options] `focus`: the
 *   node id to bring into view first (default: the path's start, else the head)
 */
export function showGraph(viewport, svgText, picture, { onSelect = () => {}, focus } = {}) {
  const svg = parseSvg(svgText, viewport.ownerDocument);
  const width = Number(svg.getAttribute('width')) || picture.width;
  const height = Number(svg.getAttribute('height')) || picture.height;
  svg.removeAttribute('style');
  svg.style.cssText = `position:absolute;left:0;top:0;width:${width}px;height:${height}px;transform-origin:0 0;max-width:none`;
  viewport.replaceChildren(svg);
  const byId = new Map(picture.nodes.map((n) => [n.id, n]));
  const elements = new Map([...svg.querySelectorAll('[data-node]')].map((el) => [el.getAttribute('data-node'), el]));

  // ---- the view: a translation and a scale, applied as a CSS transform
  let view = { x: 0, y: 0, k: 1 };
  const size = () => ({ w: viewport.clientWidth || width, h: viewport.clientHeight || height });
  const apply = () => {
    svg.style.transform = `translate(${view.x}px,${view.y}px) scale(${view.k})`;
    viewport.dataset.zoom = view.k.toFixed(3);
  };
  const clampK = (k) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));
  function zoomAt(factor, cx, cy) {
    const k = clampK(view.k * factor);
    view = { x: cx - ((cx - view.x) * k) / view.k, y: cy - ((cy - view.y) * k) / view.k, k };
    apply();
  }
  /** Scroll so that the drawing's point (px, py) is at the viewport's (vx, vy). */
  function place(px, py, vx, vy) {
    view = { ...view, x: vx - px * view.k, y: vy - py * view.k };
    apply();
  }
  function reset() {
    const { w, h } = size();
    // 1:1 at most; smaller only as far as needed to fit, and never below 3/4 (pan instead): the
    // text stays readable.
    const k = Math.min(1, Math.max(0.75, Math.min(w / width, h / height)));
    view = { x: 0, y: 0, k };
    if (width * k <= w && height * k <= h) {
      place(0, 0, (w - width * k) / 2, (h - height * k) / 2);
      return;
    }
    const start = byId.get(focus) ?? picture.nodes.find((n) => n.pathStart) ?? picture.nodes.find((n) => n.head);
    if (!start) { place(0, 0, 0, 0); return; }
    const cx = start.x + start.width / 2;
    const cy = start.y + start.height / 2;
    // The start a third of the way across (its path runs right), the head at the right end.
    const vx = start.head ? w - (width - cx) * k - 8 : w / 3;
    place(cx, cy, Math.min(vx, cx * k + 8), h / 2);
    // Keep the drawing's edges inside the viewport where it fits that way.
    const clamp = (t, inner, outer) => (inner <= outer ? (outer - inner) / 2 : Math.min(0, Math.max(outer - inner, t)));
    view = { ...view, x: clamp(view.x, width * k, w), y: clamp(view.y, height * k, h) };
    apply();
  }
  reset();

  /** Pan so that node `n` is inside the viewport, with a margin. */
  function reveal(n) {
    const { w, h } = size();
    const m = 24;
    const left = n.x * view.k + view.x;
    const top = n.y * view.k + view.y;
    const right = left + n.width * view.k;
    const bottom = top + n.height * view.k;
    let { x, y } = view;
    if (left < m) x += m - left;
    else if (right > w - m) x -= right - (w - m);
    if (top < m) y += m - top;
    else if (bottom > h - m) y -= bottom - (h - m);
    if (x !== view.x || y !== view.y) { view = { ...view, x, y }; apply(); }
  }

  // ---- pointer: drag to pan, wheel to zoom (only when the drawing does not fit, or with Ctrl)
  let drag = null;
  viewport.onpointerdown = (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, view: { ...view }, moved: false };
  };
  viewport.onpointermove = (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (!drag.moved) viewport.setPointerCapture?.(ev.pointerId);
    drag.moved = true;
    view = { ...drag.view, x: drag.view.x + dx, y: drag.view.y + dy };
    apply();
  };
  viewport.onpointerup = () => {
    if (drag?.moved) viewport.dataset.dragged = String(Date.now()); // the click that follows is not a pick
    drag = null;
  };
  viewport.onwheel = (ev) => {
    const { w, h } = size();
    if (!ev.ctrlKey && width <= w && height <= h && view.k >= 1) return; // fits: let the page scroll
    ev.preventDefault();
    const r = viewport.getBoundingClientRect();
    zoomAt(ev.deltaY > 0 ? 1 / 1.15 : 1.15, ev.clientX - r.left, ev.clientY - r.top);
  };

  // ---- nodes: pick with a click, Enter or Space; move with the arrow keys
  const nodeOf = (target) => {
    const el = target?.closest?.('[data-node]');
    return el ? byId.get(el.getAttribute('data-node')) : undefined;
  };
  svg.addEventListener('click', (ev) => {
    if (Date.now() - Number(viewport.dataset.dragged ?? 0) < 50) return;
    const n = nodeOf(ev.target);
    if (n) onSelect(n, ev);
  });
  svg.addEventListener('focusin', (ev) => {
    const n = nodeOf(ev.target);
    if (n) reveal(n);
    // A mark drawn over the graph (an unsafe edge's, crd-view.js) at its `data-x`, `data-y`.
    const mark = ev.target.closest?.('[data-x][data-y]');
    if (mark) reveal({ x: Number(mark.getAttribute('data-x')) - 12, y: Number(mark.getAttribute('data-y')) - 12, width: 24, height: 24 });
  });
  viewport.onkeydown = (ev) => {
    const n = nodeOf(ev.target);
    const { w, h } = size();
    if (n && (ev.key === 'Enter' || ev.key === ' ')) {
      onSelect(n, ev);
    } else if (n && ev.key.startsWith('Arrow')) {
      const next = nearestNode(picture.nodes, n, ev.key);
      if (next) elements.get(next.id)?.focus();
    } else if (!n && ev.key.startsWith('Arrow')) {
      const step = 60;
      const d = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[ev.key];
      view = { ...view, x: view.x + d[0], y: view.y + d[1] };
      apply();
    } else if (ev.key === '+' || ev.key === '=') zoomAt(1.2, w / 2, h / 2);
    else if (ev.key === '-' || ev.key === '_') zoomAt(1 / 1.2, w / 2, h / 2);
    else if (ev.key === '0') reset();
    else return;
    ev.preventDefault();
  };

  return {
    svg,
    /** The node's element (`[data-node]`). */
    element: (id) => elements.get(id),
    /** Move keyboard focus to a node and bring it into view. */
    focusNode(id) {
      const el = elements.get(id);
      el?.focus();
      return Boolean(el);
    },
    zoomIn() { const { w, h } = size(); zoomAt(1.2, w / 2, h / 2); },
    zoomOut() { const { w, h } = size(); zoomAt(1 / 1.2, w / 2, h / 2); },
    reset,
    /** The current scale (1 = natural size). */
    get zoom() { return view.k; },
  };
}
