// The page's long work, in a Web Worker so that the page never freezes: the WebAssembly module,
// the files of every opened catalog and the loaded catalogs, and every call on them (load and
// validate, graphs and paths, the editor's checks, template expansion, diffs, OperatorGroup checks,
// RBAC previews, resolution). The page sends files (text, or `File`s that are read here) and gets
// back reports, package lists, graphs and results, never a catalog's text unless it asks for a file.
// Loading, validation, graphs and paths use the core module; drawing graphs (their layout and SVG)
// the picture module, with the core making each picture's draft; resolution the resolver's module, and
// the rest (templates, diffs, edits, OperatorGroup checks, RBAC previews, Mermaid and DOT, the deps
// view, the editor's session) the tools' module, each fetched the first time it is needed.
//
// A loaded catalog has a handle (a number); each named slot ('main', the Resolve panel's second
// source, the Compare panel's sides, the Templates panel's expansion) holds at most one, so
// loading into a slot frees what it held and later calls on the old handle fail with `freed`.
// Requests and replies follow rpc.js; the operations are `ops` below.
import init, {
  initPicture, initResolver, initTools, loadCatalog, openCatalog, layoutGraph, expandTemplate, diffCatalogs, resolve, checkOperatorGroups, previewRbac,
  previewRbacText, readImage, pullImage, crdSafety,
} from '../../pkg/index.js';
import { bundleCrds, crdDiff } from '../../pkg/crd-view.js';
import { fetchCatalog } from '../../pkg/element-fetch.js';
import { serve } from './rpc.js';
import { editOps } from './edit-worker.js';

/** @typedef {{path: string, content: string}} CatalogFile */
/** @typedef {CatalogFile | {path: string, blob: Blob}} FileInput a file as text, or to be read here */
/**
 * @typedef {FileInput[] | {handle: number, version?: 'saved' | 'edited'} | {url: string} | {image: string}} Source the
 *   files given (or an image given as files: a `docker save`/oci-archive tarball, an OCI layout
 *   folder), those of a loaded catalog (as opened: 'saved', or with the editor's edits:
 *   'edited', the default), those fetched from a URL (a catalog file or a directory index,
 *   pkg/element-fetch.js), or a catalog image's from its registry (`REGISTRY/REPO:TAG`)
 */

let modules = null; // { core, picture, resolver, tools }: the .wasm URLs
let lastOutcome = null; // the last `resolve`'s outcome, for its picks' requirement texts
/** Load the picture module (once). */
const picture = () => initPicture(modules.picture);
/** Load the resolver's module (once), without the tools'. */
const resolverModule = () => initResolver(modules.resolver, { tools: false });
/** Load the tools' module (once). */
const tools = () => initTools(modules.tools);
let nextHandle = 1;
/**
 * handle → { slot, saved: CatalogFile[], files: CatalogFile[], catalog, session? }; `session` is
 * the editor's incremental validation (`openCatalog`), opened at the first check.
 */
const loaded = new Map();
/** slot → handle */
const slots = new Map();

function error(code, message) {
  return Object.assign(new Error(message), { name: 'OlmCatalogError', code });
}

function entry(handle) {
  const e = loaded.get(handle);
  if (!e) throw error('freed', 'this catalog was replaced or closed; load it again');
  return e;
}

/** Whether the first bytes are a tar archive's (`ustar` at offset 257). */
const isTar = (bytes) => bytes.length > 262 && new TextDecoder().decode(bytes.subarray(257, 262)) === 'ustar';

/**
 * A catalog image's files as text (read by `readImage` in the tools' module); a bundle image is
 * not a catalog to open here.
 */
async function imageFiles(image, options) {
  await tools();
  const content = readImage(image, options);
  if (content.kind !== 'catalog') throw error('invalid-image', 'this is a bundle image, not a catalog image');
  const text = new TextDecoder();
  return content.files.map((f) => ({ path: f.path, content: text.decode(f.content) }));
}

/**
 * The files given, or the catalog of the image they are: one tarball (`docker save`, `podman
 * save`, an oci-archive), or an OCI layout folder (`oci-layout` and `index.json` at its root).
 * @param {FileInput[]} list
 */
async function read(list) {
  if (!Array.isArray(list)) throw error('invalid-input', 'expected a list of files');
  const bytes = async (f) => (f.blob ? new Uint8Array(await f.blob.arrayBuffer()) : new TextEncoder().encode(f.content));
  if (list.length === 1 && list[0].blob) {
    const b = await bytes(list[0]);
    if (isTar(b)) return imageFiles(b);
  }
  if (list.some((f) => f.path === 'oci-layout') && list.some((f) => f.path === 'index.json')) {
    return imageFiles(await Promise.all(list.map(async (f) => ({ path: f.path, content: await bytes(f) }))));
  }
  return Promise.all(list.map(async (f) => (f.blob ? { path: f.path, content: await f.blob.text() } : { path: f.path, content: f.content })));
}

/** A registry on this machine (`localhost`, `127.0.0.0/8`, `[::1]`), insecure as Docker reads it: HTTPS, else plain HTTP. */
const onThisMachine = (reference) => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\//.test(reference.replace(/^docker:\/\//, ''));

/** A catalog image from its registry, which must send CORS headers for this page to read it. */
async function registryImage(reference) {
  let pulled;
  try {
    pulled = await pullImage(reference, { insecure: onThisMachine(reference) });
  } catch (e) {
    if (e.message.includes('Failed to fetch') || e.message.includes('NetworkError')) {
      throw error('no-cors', `the registry of ${reference} did not let this page read it: it sends no CORS headers (or is unreachable). Use the CLI (olm-catalog validate ${reference}), or save the image (skopeo copy docker://${reference} oci-archive:cat.tar) and drop the file here`);
    }
    throw e;
  }
  return imageFiles(pulled.files, { tag: pulled.tag });
}

/** @param {Source} source */
async function filesOf(source) {
  if (Array.isArray(source)) return read(source);
  if (typeof source?.url === 'string') return fetchCatalog(source.url);
  if (typeof source?.image === 'string') return registryImage(source.image);
  const e = entry(source.handle);
  return source.version === 'saved' ? e.saved : e.files;
}

function free(slot) {
  const old = slots.get(slot);
  if (old === undefined) return;
  const e = loaded.get(old);
  e?.catalog.free();
  e?.session?.free();
  loaded.delete(old);
  slots.delete(slot);
}

/** What the page shows of a loaded catalog. */
function summary(handle) {
  const { catalog, files } = loaded.get(handle);
  return { handle, report: catalog.report(), packages: catalog.packages(), paths: files.map((f) => f.path) };
}

/** Load `files` into `slot` (freeing what it held); `saved` is the catalog as opened. */
function put(slot, files, saved) {
  const catalog = loadCatalog(files);
  free(slot);
  const handle = nextHandle++;
  loaded.set(handle, { slot, saved, files, catalog });
  slots.set(slot, handle);
  return handle;
}

/** The methods of a loaded catalog the page may call. */
const CATALOG_METHODS = new Set(['report', 'packages', 'channelGraph', 'upgradePath', 'toMermaid', 'toDot']);
/** Those of them in the tools' module. */
const TOOLS_METHODS = new Set(['toMermaid', 'toDot']);

const ops = {
  /**
   * Instantiate the core module; `urls.picture`, `urls.resolver` and `urls.tools` are the on-demand
   * modules' (the graphs' layout and SVG; the resolver's; templates, diffs, edits and the other
   * tools'), each fetched on first use.
   */
  async init(urls) {
    modules = urls;
    await init(urls.core);
    return true;
  },

  /** Open a catalog in `slot`: read and load its files, validate them. */
  async open(slot, source) {
    const files = await filesOf(source);
    const copy = files.map((f) => ({ ...f }));
    return summary(put(slot, copy, files.map((f) => ({ ...f }))));
  },

  /** Load a catalog again with the editor's edits (as opened stays as it was; so does the session). */
  reload(handle) {
    const e = entry(handle);
    const { session, edit } = e;
    e.session = undefined;
    try {
      const next = put(e.slot, e.files, e.saved);
      Object.assign(loaded.get(next), { session, edit });
      return summary(next);
    } catch (err) {
      e.session = session;
      throw err;
    }
  },

  /** Close `slot`'s catalog. */
  close(slot) {
    free(slot);
    return true;
  },

  /** The text of one file of a loaded catalog, with the editor's edits. */
  fileText(handle, path) {
    const f = entry(handle).files.find((x) => x.path === path);
    if (!f) throw error('not-found', `no file ${path}`);
    return f.content;
  },

  /**
   * The editor changed `path` to `content`: keep it, and return that file's located findings in the
   * whole catalog with the edit. An editing session re-reads only that file and re-checks only the
   * packages it touches (the report equals a full validation); the loaded catalog, for graphs and
   * the other tabs, is re-loaded by `reload`.
   */
  async check(handle, path, content) {
    await tools(); // the session (`openCatalog`) is in the tools' module
    const e = entry(handle);
    const f = e.files.find((x) => x.path === path);
    if (!f) throw error('not-found', `no file ${path}`);
    f.content = content;
    e.session ??= openCatalog(e.files);
    return e.session.update(path, content).diagnostics.filter((d) => d.file === path && d.line > 0);
  },

  /** Call `method` of a loaded catalog. */
  async catalog(handle, method, ...args) {
    if (!CATALOG_METHODS.has(method)) throw error('invalid-input', `no catalog method ${method}`);
    if (TOOLS_METHODS.has(method)) await tools();
    return entry(handle).catalog[method](...args);
  },

  /**
   * A channel laid out and drawn (`{svg, picture}`): `renderGraphSvg` and `graphPicture` with the
   * same options, as the `<olm-upgrade-graph>` element shows it.
   */
  async draw(handle, options) {
    await picture();
    const { catalog } = entry(handle);
    const { theme, interactive, legend, idPrefix, ...pictureOptions } = options;
    return { picture: catalog.graphPicture(pictureOptions), svg: catalog.renderGraphSvg(options) };
  },

  /**
   * The shared layered layout (`layoutGraph`, as the element's and the CLI's pictures) of a graph
   * that is no catalog's, such as a comparison's merged channel.
   */
  async layout(input) {
    await picture();
    return layoutGraph(input);
  },

  /** The bundles of a package (name and version), from its channel graphs; none without channels. */
  bundles(handle, pkg) {
    const seen = new Map();
    try {
      for (const ch of entry(handle).catalog.channelGraph(pkg).channels) {
        for (const n of ch.nodes) if (!n.virtual && !seen.has(n.name)) seen.set(n.name, n.version ?? '');
      }
    } catch (e) {
      if (e.code === 'freed') throw e;
    }
    return [...seen];
  },

  /**
   * Expand a template against catalogs (`sources`, each a Source). With `slot`, the expanded
   * catalog is loaded there too and its packages returned, for drawing its graphs.
   */
  async expandTemplate(template, sources, options, slot) {
    const lists = [];
    for (const s of sources) lists.push(await filesOf(s));
    await tools();
    const result = expandTemplate(template, lists, options);
    if (!slot) return { result };
    free(slot);
    let expanded = null;
    if (result.catalog.trim()) {
      try {
        expanded = summary(put(slot, [{ path: 'expanded.json', content: result.catalog }], []));
      } catch { /* nothing to draw */ }
    }
    return { result, expanded };
  },

  /** Load two catalogs (into `slots[0]` and `slots[1]`) and diff them. */
  async diff(oldSource, newSource, options, [oldSlot, newSlot]) {
    const [o, n] = [await filesOf(oldSource), await filesOf(newSource)];
    await tools();
    const oldHandle = put(oldSlot, o, o);
    const newHandle = put(newSlot, n, n);
    return { oldHandle, newHandle, diff: diffCatalogs(loaded.get(oldHandle).catalog, loaded.get(newHandle).catalog, options) };
  },

  /** `checkOperatorGroups`; `check.handle` names the loaded catalog holding the bundle. */
  async checkOperatorGroups({ handle, ...check }) {
    await tools();
    return checkOperatorGroups(handle === undefined ? check : { ...check, catalog: entry(handle).catalog });
  },

  /** `previewRbac` on a loaded catalog. */
  async previewRbac(handle, options) {
    await tools();
    return previewRbac(entry(handle).catalog, options);
  },

  /** The objects of one install mode's `previewRbac` as Kubernetes manifests (a YAML stream). */
  async rbacManifests(handle, options) {
    await tools();
    return previewRbacText(entry(handle).catalog, options, 'yaml');
  },

  /** The cross-package view of a package (`packageDeps`, tools' module): `{package, headsOnly}`. */
  async packageDeps(handle, options) {
    await tools();
    return entry(handle).catalog.packageDeps(options);
  },

  /**
   * CRD upgrade safety of a package's edges (`crdSafety`, tools' module), kept per catalog; null,
   * without loading the tools' module, when no file carries `olm.bundle.object` properties.
   */
  async crdSafety(handle, options) {
    const e = entry(handle);
    if (!e.files.some((f) => f.content.includes('olm.bundle.object'))) return null;
    await tools();
    e.crd ??= new Map();
    const k = JSON.stringify(options);
    if (!e.crd.has(k)) e.crd.set(k, crdSafety(e.files, options));
    return e.crd.get(k);
  },

  /**
   * The CRD diff of an unsafe edge (`{from, to, findings}`, a `crdSafety` edge): for each CRD its
   * findings name, the old and the new CRD's lines with the offending fields marked (crd-view.js).
   */
  crdDiff(handle, edge) {
    const { files } = entry(handle);
    const [old, updated] = [bundleCrds(files, edge.from), bundleCrds(files, edge.to)];
    const names = [...new Set(edge.findings.map((f) => f.crd))];
    const named = (list, name) => list.find((c) => c?.metadata?.name === name);
    return names.map((crd) => {
      const findings = edge.findings.filter((f) => f.crd === crd);
      return { crd, findings, diff: crdDiff(named(old, crd), named(updated, crd), findings) };
    });
  },

  /**
   * Resolve; each catalog source with a `handle` is that loaded catalog. Loads the resolver's
   * module once. The outcome is kept for `requiredBy` (its method does not cross to the page).
   */
  async resolve(problem) {
    await resolverModule();
    const catalogs = (problem.catalogs ?? []).map(({ handle, ...c }) => (handle === undefined ? c : { ...c, catalog: entry(handle).catalog }));
    lastOutcome = resolve({ ...problem, catalogs });
    return lastOutcome;
  },

  /** The requirement text of pick `index` of the last resolution, formatted when asked. */
  requiredBy(index) {
    if (!lastOutcome) throw Object.assign(new Error('nothing was resolved yet'), { code: 'invalid-input' });
    return lastOutcome.requiredBy(index);
  },
};

// Editing operations, their previews, undo and redo, and saving (edit-worker.js).
Object.assign(ops, editOps({ entry, tools, put, summary, reload: (handle) => ops.reload(handle), close: free }));

// After an internal error the module is instantiated afresh before the next request.
serve(ops, { before: () => (modules ? init() : undefined) });
