// `<olm-upgrade-graph>`: a channel's upgrade graph in any page, drawn by the same Rust layout and
// SVG renderer as the site and `olm-catalog graph --format svg` (`renderGraphSvg`: the core
// WebAssembly module reads the catalog, the picture module lays it out and draws it), with the path from an installed version to the head highlighted and listed
// below it. Loading, parsing and layout run in a worker (element-worker.js); this file is the
// page side: attributes, the shadow DOM, and events. Catalog text only ever reaches the page as
// escaped SVG and as text nodes.
//
//   <script type="module" src="olm-upgrade-graph.js"></script>
//   <olm-upgrade-graph src="catalog/index.json" package="etcd" from="etcd.v0.9.2"></olm-upgrade-graph>
//
// Attributes: `src` (a catalog file, JSON-lines, or a directory index: element-fetch.js),
// `package` (default: the catalog's only package), `channel` (default: the package's default
// channel), `from` (bundle name or version), `semantics` (`v0` | `v1`), `fans` (draw every
// skipRange edge), `theme` (`light` | `dark` | `auto`). Property `catalog`: a `Catalog` from
// `loadCatalog` (drawn on the page's thread, which must have loaded the picture module:
// `await initPicture()`) or a `CatalogFile[]` (loaded in the worker); it wins
// over `src`. Events: `node-select` (a node picked by click, Enter or Space; `detail.bundle`),
// `graph-render` (`detail.picture`), `graph-error` (`detail.error`), `edge-select` (an unsafe
// edge's mark picked; `detail.edge`, the `crdSafety` edge). Property `crdSafety`: a `crdSafety`
// result of the catalog (the tools' module: `await initTools()`, then `crdSafety(files, {package})`):
// the edges its CRDs make unsafe are drawn red and dashed with a focusable mark, and the path's
// steps say why OLM refuses them. Styling: the SVG's
// `--olm-*` custom properties, `--olm-graph-max-height`, and `::part()` (container, toolbar,
// button, viewport, status, steps, step, node, edge and their kinds).
import { showGraph } from './element-view.js';
import { unsafeEdges, unsafeEdge, edgeReason, markUnsafeEdges } from './crd-view.js';

const Base = globalThis.HTMLElement ?? class {};

const CSS = `
:host{display:block;position:relative;font-family:var(--olm-font,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif);font-size:14px;
 --_bg:var(--olm-bg,#fff);--_text:var(--olm-text,#1f2328);--_muted:var(--olm-muted,#59636e);--_border:var(--olm-border,#d0d7de);
 --_focus:var(--olm-focus,#0969da);--_path:var(--olm-path,#0969da);--_error:var(--olm-error,#cf222e);--_button:var(--olm-button-bg,#f6f8fa);
 color:var(--_text);background:var(--_bg);border:1px solid var(--_border);border-radius:6px;color-scheme:light}
:host([theme=dark]){--_bg:var(--olm-bg,#0d1117);--_text:var(--olm-text,#e6edf3);--_muted:var(--olm-muted,#9198a1);--_border:var(--olm-border,#30363d);
 --_focus:var(--olm-focus,#4493f8);--_path:var(--olm-path,#4493f8);--_error:var(--olm-error,#ff7b72);--_button:var(--olm-button-bg,#21262d);color-scheme:dark}
@media (prefers-color-scheme:dark){:host([theme=auto]){--_bg:var(--olm-bg,#0d1117);--_text:var(--olm-text,#e6edf3);--_muted:var(--olm-muted,#9198a1);
 --_border:var(--olm-border,#30363d);--_focus:var(--olm-focus,#4493f8);--_path:var(--olm-path,#4493f8);--_error:var(--olm-error,#ff7b72);--_button:var(--olm-button-bg,#21262d);color-scheme:dark}}
:host([hidden]){display:none}
.toolbar{position:absolute;right:6px;top:6px;z-index:1;display:flex;gap:4px}
button{font:inherit;min-width:28px;height:28px;border:1px solid var(--_border);border-radius:4px;background:var(--_button);color:var(--_text);cursor:pointer}
button:focus-visible,.viewport:focus-visible{outline:2px solid var(--_focus);outline-offset:-2px}
.viewport{height:var(--olm-graph-height);position:relative;overflow:hidden;touch-action:none;cursor:grab;min-height:60px;border-radius:6px 6px 0 0}
.viewport:active{cursor:grabbing}
.status{margin:0;padding:6px 10px;border-top:1px solid var(--_border)}
.status.error{color:var(--_error)}
.status:empty{display:none}
.steps{margin:0;padding:0 10px 8px 34px}
.steps:empty{display:none}
.steps li{padding:1px 0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
`;

let config = {
  workerUrl: () => new URL('./element-worker.js', import.meta.url),
  wasmUrl: () => new URL('./dist/web/olm_catalog_bg.wasm', import.meta.url),
  pictureWasmUrl: () => new URL('./dist/web-picture/olm_graph_picture_bg.wasm', import.meta.url),
};

/**
 * Where the worker script and the two `.wasm` are: the core module's (`wasmUrl`) and the picture
 * module's (`pictureWasmUrl`; the single-file build points them at itself and its neighbours).
 * Call before the first element loads.
 * @param {{workerUrl?: string | URL, wasmUrl?: string | URL, pictureWasmUrl?: string | URL}} urls
 */
export function configure({ workerUrl, wasmUrl, pictureWasmUrl }) {
  if (workerUrl) config = { ...config, workerUrl: () => new URL(workerUrl, location.href) };
  if (wasmUrl) config = { ...config, wasmUrl: () => new URL(wasmUrl, location.href) };
  if (pictureWasmUrl) config = { ...config, pictureWasmUrl: () => new URL(pictureWasmUrl, location.href) };
}

// ---- the worker, shared by every element of the page
let worker = null;

function startWorker() {
  const w = new Worker(config.workerUrl(), { type: 'module' });
  const pending = new Map();
  let next = 0;
  const fail = (err) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    pending.delete(data.id);
    if (!p) return;
    if (data.ok) p.resolve(data.value);
    else {
      if (data.error.code === 'internal-panic' && worker?.w === w) { worker = null; w.terminate(); }
      p.reject(Object.assign(new Error(data.error.message), { name: data.error.name, code: data.error.code }));
    }
  };
  w.onerror = (ev) => {
    ev.preventDefault?.();
    if (worker?.w === w) worker = null;
    fail(Object.assign(new Error(`the graph's worker failed: ${ev.message ?? 'it could not start'}`), { name: 'OlmCatalogError', code: 'worker-failed' }));
  };
  const call = (op, ...args) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    w.postMessage({ id, op, args });
  });
  call('init', String(config.wasmUrl()), String(config.pictureWasmUrl())).catch(() => {});
  return { w, call };
}
const call = (op, ...args) => {
  worker ??= startWorker();
  return worker.call(op, ...args);
};

let filesKeys = 0;
const capped = (names, max = 8) => (names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`);

/** The `<olm-upgrade-graph>` element. */
export class OlmUpgradeGraph extends Base {
  static get observedAttributes() { return ['src', 'package', 'channel', 'from', 'semantics', 'fans', 'theme']; }

  #catalog = null;
  #filesKey = null;
  #expand = [];
  #expandFor = '';
  #generation = 0;
  #scheduled = false;
  #picture = null;
  #view = null;
  #state = 'idle';
  #parts = null;
  #idPrefix = `olm-graph-${Math.random().toString(36).slice(2, 8)}`;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = CSS;
    const el = (tag, attrs, text) => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text) e.textContent = text;
      return e;
    };
    const toolbar = el('div', { part: 'toolbar', class: 'toolbar' });
    const zoomOut = el('button', { type: 'button', part: 'button zoom-out', 'aria-label': 'Zoom out', title: 'Zoom out (-)' }, '−');
    const zoomIn = el('button', { type: 'button', part: 'button zoom-in', 'aria-label': 'Zoom in', title: 'Zoom in (+)' }, '+');
    const reset = el('button', { type: 'button', part: 'button reset', 'aria-label': 'Reset the view', title: 'Reset the view (0)' }, '⤢');
    toolbar.append(zoomOut, zoomIn, reset);
    const viewport = el('div', { part: 'viewport', class: 'viewport', tabindex: '0', role: 'region', 'aria-roledescription': 'upgrade graph viewer', 'aria-label': 'Upgrade graph: Tab or arrow keys move between versions, Enter picks one, + and - zoom, drag to pan' });
    const status = el('p', { part: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });
    const steps = el('ol', { part: 'steps', class: 'steps', 'aria-label': 'Upgrade steps' });
    const container = el('div', { part: 'container', class: 'container' });
    container.append(toolbar, viewport, status, steps);
    root.append(style, container);
    zoomIn.addEventListener('click', () => this.#view?.zoomIn());
    zoomOut.addEventListener('click', () => this.#view?.zoomOut());
    reset.addEventListener('click', () => this.#view?.reset());
    this.#parts = { viewport, status, steps, toolbar };
  }

  connectedCallback() { this.#schedule(); }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (name === 'src' && !this.#catalog) this.#dropFiles();
    this.#schedule();
  }

  /** A `Catalog` (from `loadCatalog`) or a `CatalogFile[]` to draw instead of `src`; null to use `src`. */
  get catalog() { return this.#catalog; }
  set catalog(value) {
    this.#dropFiles();
    this.#catalog = value ?? null;
    if (Array.isArray(value)) this.#filesKey = `files:${++filesKeys}`;
    this.#schedule();
  }

  /** A `crdSafety` result of the catalog: its unsafe edges are marked (null: none). */
  get crdSafety() { return this.#crd; }
  set crdSafety(value) {
    this.#crd = value ?? null;
    this.#schedule();
  }

  #crd = null;

  /** The last drawn `Picture` (null before the first). */
  get picture() { return this.#picture; }
  /** `idle`, `loading`, `ready` or `error`. */
  get state() { return this.#state; }

  /** Move keyboard focus to a node (by id: the bundle name, or a group's id); false if not drawn. */
  focusNode(id) { return this.#view?.focusNode(id) ?? false; }

  #dropFiles() {
    if (this.#filesKey) call('drop', this.#filesKey).catch(() => {});
    this.#filesKey = null;
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.isConnected) this.#render();
    });
  }

  #setStatus(text, error = false) {
    this.#parts.status.textContent = text;
    this.#parts.status.classList.toggle('error', error);
  }

  async #render() {
    const gen = ++this.#generation;
    const stale = () => gen !== this.#generation;
    const src = this.getAttribute('src');
    const catalog = this.#catalog;
    if (!catalog && !src) {
      this.#state = 'idle';
      this.#setStatus('No catalog: set the src attribute or the catalog property.', true);
      return;
    }
    this.#state = 'loading';
    if (!this.#picture) this.#setStatus('Loading the catalog…');
    try {
      const local = catalog && !Array.isArray(catalog);
      const key = catalog ? this.#filesKey : new URL(src, document.baseURI).href;
      const packages = local
        ? catalog.packages().map((p) => ({ name: p.name, defaultChannel: p.defaultChannel, channels: p.channels.map((c) => c.name) }))
        : await call('load', key, catalog ? { files: catalog } : { url: key });
      if (stale()) return;
      const options = this.#options(packages);
      const drawn = await drawOrExplain(local ? async (o) => drawLocal(catalog, o) : (o) => call('draw', key, o), options);
      if (stale()) return;
      this.#show(drawn.svg, drawn.picture, options);
    } catch (e) {
      if (stale()) return;
      this.#state = 'error';
      this.#setStatus(e.message, true);
      this.dispatchEvent(new CustomEvent('graph-error', { detail: { error: e } }));
    }
  }

  /** The `renderGraphSvg` options from the attributes. */
  #options(packages) {
    let pkg = this.getAttribute('package');
    if (!pkg) {
      if (packages.length !== 1) {
        throw Object.assign(new Error(`set the package attribute: the catalog has ${packages.length} packages (${capped(packages.map((p) => p.name))})`), { name: 'OlmCatalogError', code: 'invalid-input' });
      }
      pkg = packages[0].name;
    }
    const semantics = this.getAttribute('semantics') === 'v1' ? 'v1' : 'v0';
    const theme = ['dark', 'auto'].includes(this.getAttribute('theme')) ? this.getAttribute('theme') : 'light';
    const channel = this.getAttribute('channel') || undefined;
    const what = `${pkg}\n${channel ?? ''}`;
    if (what !== this.#expandFor) { this.#expand = []; this.#expandFor = what; }
    return {
      package: pkg, channel, from: this.getAttribute('from') || undefined, semantics, fans: this.hasAttribute('fans'),
      expand: this.#expand, theme, interactive: true, legend: false, idPrefix: this.#idPrefix,
    };
  }

  #show(svgText, picture, options) {
    const { viewport, steps } = this.#parts;
    const css = getComputedStyle(this);
    const max = parseFloat(css.getPropertyValue('--olm-graph-max-height')) || 480;
    // Its own height at 1:1, up to the maximum; or what the page sets.
    viewport.style.height = css.getPropertyValue('--olm-graph-height').trim() ? '' : `${Math.max(60, Math.min(max, Math.ceil(picture.height)))}px`;
    const focused = this.shadowRoot.activeElement?.closest?.('[data-node]')?.getAttribute('data-node');
    this.#view = showGraph(viewport, svgText, picture, {
      focus: this.#reveal,
      onSelect: (node, ev) => this.#select(node, ev),
    });
    if (this.#reveal) this.#view.focusNode(this.#reveal);
    else if (focused) this.#view.focusNode(focused);
    this.#reveal = null;
    this.#picture = picture;
    const unsafe = unsafeEdges(this.#crd, picture.channel ?? options.channel);
    const marked = this.#crd ? markUnsafeEdges(this.#view.svg, unsafe, {
      onSelect: (edge) => this.dispatchEvent(new CustomEvent('edge-select', { bubbles: true, composed: true, detail: { edge } })),
    }) : 0;
    steps.replaceChildren(...(picture.path?.lines ?? []).map((line, i) => {
      const li = document.createElement('li');
      const step = picture.path.steps[i];
      li.setAttribute('part', 'step');
      li.dataset.to = step?.to ?? '';
      li.textContent = line;
      const edge = step && unsafeEdge(unsafe, step.from, step.to);
      if (edge) {
        li.setAttribute('part', 'step unsafe-step');
        li.append(` — OLM v1 refuses it: ${edgeReason(edge)}`);
      }
      return li;
    }));
    const path = picture.path;
    const rules = options.semantics === 'v1' ? 'OLM v1' : 'OLM v0';
    const notes = picture.notes.length ? ` ${picture.notes.join('. ')}.` : '';
    const said = path ? `Upgrade path from ${path.from} (${rules} rules): ${path.summary}` : picture.title;
    const crd = marked ? ` ${marked} upgrade${marked === 1 ? '' : 's'} unsafe for ${marked === 1 ? 'its' : 'their'} CRDs (red dashed, marked !).` : '';
    this.#setStatus(`${said}${/[.!?]$/.test(said) ? '' : '.'}${notes}${crd}`, Boolean(path?.stranded));
    this.#state = 'ready';
    this.dispatchEvent(new CustomEvent('graph-render', { detail: { picture } }));
  }

  #reveal = null;

  #select(node, ev) {
    if (node.kind === 'group') {
      // A collapsed run of z-stream releases: show its members (focus goes to the oldest).
      this.#expand = [...this.#expand, node.id];
      this.#reveal = node.group?.first ?? null;
      this.#schedule();
      return;
    }
    this.dispatchEvent(new CustomEvent('node-select', {
      bubbles: true,
      composed: true,
      detail: { bundle: node.name, version: node.version, node, source: ev.type === 'click' ? 'pointer' : 'keyboard' },
    }));
  }
}

function drawLocal(catalog, options) {
  const { theme, interactive, legend, idPrefix, ...pictureOptions } = options;
  return { picture: catalog.graphPicture(pictureOptions), svg: catalog.renderGraphSvg(options) };
}

/** Draw with `draw(options)`; a `from` that names nothing draws the graph anyway and says why. */
async function drawOrExplain(draw, options) {
  try {
    return await draw(options);
  } catch (e) {
    if (e.code !== 'no-path' || !options.from) throw e;
    const drawn = await draw({ ...options, from: undefined });
    drawn.picture = { ...drawn.picture, path: { from: options.from, to: null, steps: [], lines: [], stranded: true, reason: e.message, summary: e.message } };
    return drawn;
  }
}

/** Register `<olm-upgrade-graph>` (once; a page may load the script twice). */
export function define(name = 'olm-upgrade-graph') {
  if (globalThis.customElements && !customElements.get(name)) customElements.define(name, class extends OlmUpgradeGraph {});
}

define();
