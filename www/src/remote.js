// The page's side of catalog-worker.js: one worker for the whole page, started at once, and the
// catalogs loaded there as `RemoteCatalog`s whose calls return promises. `document.body.dataset.busy`
// counts the calls in flight (the end-to-end tests wait for it to drop to 0).
import { connect } from './rpc.js';

const worker = new Worker(new URL('./catalog-worker.js', import.meta.url), { type: 'module' });
const rpc = connect(worker, (n) => { document.body.dataset.busy = String(n); });

/** Call an operation of catalog-worker.js. */
export const call = (op, ...args) => rpc.call(op, ...args);

/** Instantiate the module in the worker (the resolver's and the tools' modules are fetched when first needed). */
export const start = () => call('init', { core: './olm_catalog_bg.wasm', picture: './olm_graph_picture_bg.wasm', resolver: './olm_catalog_resolver_bg.wasm', tools: './olm_catalog_tools_bg.wasm' });

/** A catalog loaded in the worker: its report, packages and file paths, and async calls on it. */
export class RemoteCatalog {
  /** @param {{handle: number, report: any, packages: any[], paths: string[]}} summary */
  constructor({ handle, report, packages, paths }) {
    this.handle = handle;
    this.report = report;
    this.packages = packages;
    this.paths = paths;
    this.bundleLists = new Map();
  }
  #call(method, ...args) { return call('catalog', this.handle, method, ...args); }
  channelGraph(pkg, channel) { return this.#call('channelGraph', pkg, channel); }
  upgradePath(options) { return this.#call('upgradePath', options); }
  /** `{svg, picture}` of a channel (`renderGraphSvg` options), as the element draws it. */
  draw(options) { return call('draw', this.handle, options); }
  toMermaid(options) { return this.#call('toMermaid', options); }
  toDot(pkg, channel) { return this.#call('toDot', pkg, channel); }
  previewRbac(options) { return call('previewRbac', this.handle, options); }
  /** One install mode's RBAC as Kubernetes manifests (`previewRbacText(options, 'yaml')`). */
  rbacManifests(options) { return call('rbacManifests', this.handle, options); }
  checkOperatorGroups(check) { return call('checkOperatorGroups', { ...check, handle: this.handle }); }
  /** CRD upgrade safety of the package's edges (`crdSafety` options), or null when the catalog carries no CRDs. */
  crdSafety(options) { return call('crdSafety', this.handle, options); }
  /** The CRD diff of an unsafe edge of `crdSafety`'s result. */
  crdDiff(edge) { return call('crdDiff', this.handle, edge); }
  fileText(path) { return call('fileText', this.handle, path); }
  /** The package's bundles as `[name, version]`, unsorted (asked once per package). */
  bundles(pkg) {
    if (!this.bundleLists.has(pkg)) this.bundleLists.set(pkg, call('bundles', this.handle, pkg));
    return this.bundleLists.get(pkg);
  }
  /** This catalog's files as a source for another operation: as opened, or with the edits. */
  source(version = 'edited') { return { handle: this.handle, version }; }
}

/** Open files (text, or `{path, blob}` read in the worker) in `slot`. */
export async function open(slot, files) {
  return new RemoteCatalog(await call('open', slot, files));
}

/** Load `catalog` again with the editor's edits. */
export async function reload(catalog) {
  return new RemoteCatalog(await call('reload', catalog.handle));
}
