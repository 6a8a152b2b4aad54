// The `<olm-upgrade-graph>` element's worker: fetching and loading catalogs and laying graphs out
// happen here, never on the page's main thread, so a large catalog never freezes the page. One
// worker serves every element of a page; a catalog fetched by URL is loaded once and shared (the
// four most recently used are kept).
//
// Messages: `{id, op, args}` → `{id, ok: true, value}` or `{id, ok: false, error: {name, code,
// message}}`, handled in order. Operations: `init(wasmUrl, pictureWasmUrl)` (the core module, which
// reads catalogs and computes channel graphs and paths, and the picture module, which lays them out
// and draws them), `load(key, source)` (source `{url}`
// or `{files}`) → the package summaries, `draw(key, options)` → `{svg, picture}` (the
// `renderGraphSvg` options), `drop(key)`.
import wasmInit, { loadCatalog } from './dist/web/olm_catalog.js';
import pictureInit, * as picture from './dist/web-picture/olm_graph_picture.js';
import { pictureInput } from './core.js';
import { fetchCatalog } from './element-fetch.js';

const KEEP = 4;
/** key → { catalog, packages }, least recently used first. */
const catalogs = new Map();
let ready = null;

function error(code, message) {
  return Object.assign(new Error(message), { name: 'OlmCatalogError', code });
}

function get(key) {
  const c = catalogs.get(key);
  if (!c) throw error('freed', 'this catalog is no longer loaded; load it again');
  catalogs.delete(key); // most recently used last
  catalogs.set(key, c);
  return c;
}

const ops = {
  init(wasmUrl, pictureWasmUrl) {
    ready ??= Promise.all([wasmInit({ module_or_path: wasmUrl }), pictureInit({ module_or_path: pictureWasmUrl })]);
    return ready.then(() => true);
  },
  async load(key, source) {
    await ready;
    if (catalogs.has(key)) return get(key).packages;
    const files = source.files ?? await fetchCatalog(source.url);
    const catalog = loadCatalog(files);
    const packages = catalog.packages().map((p) => ({ name: p.name, defaultChannel: p.defaultChannel, channels: p.channels.map((c) => c.name) }));
    catalogs.set(key, { catalog, packages });
    while (catalogs.size > KEEP) {
      const [oldest, c] = catalogs.entries().next().value;
      c.catalog.free();
      catalogs.delete(oldest);
    }
    return packages;
  },
  draw(key, options) {
    const { catalog } = get(key);
    // One graph and path (the core module), drawn twice (the picture module): the picture and its SVG.
    const input = pictureInput(catalog, picture, pictureOptions(options), 'graphPicture');
    return { svg: picture.drawSvg(...input, options), picture: picture.drawPicture(...input) };
  },
  drop(key) {
    catalogs.get(key)?.catalog.free();
    catalogs.delete(key);
    return true;
  },
};

/** The `graphPicture` options among `renderGraphSvg`'s. */
export function pictureOptions({ theme, interactive, legend, idPrefix, ...picture }) {
  return picture;
}

let serving = false;
/** Answer the element's requests (once per worker). */
export function serve() {
  if (serving) return;
  serving = true;
  let queue = Promise.resolve();
  self.onmessage = ({ data: { id, op, args } }) => {
    queue = queue.then(async () => {
      try {
        if (!Object.hasOwn(ops, op)) throw error('unknown-operation', `unknown operation ${op}`);
        self.postMessage({ id, ok: true, value: await ops[op](...args) });
      } catch (e) {
        // A panic (a bug) leaves the module unusable: the element starts another worker.
        const code = e instanceof WebAssembly.RuntimeError ? 'internal-panic' : e?.code;
        self.postMessage({ id, ok: false, error: { name: e?.name ?? 'Error', code, message: e?.message ?? String(e) } });
      }
    });
  };
}

// Started as a worker (not imported by the single-file bundle's page side): serve at once.
if (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope) serve();
