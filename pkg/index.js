// Browser (and bundler) entry point: `await init()` once before calling anything. `init` takes an
// optional URL, Response, BufferSource or WebAssembly.Module for custom loaders; by default the
// `.wasm` next to this file is fetched.
import wasmInit, * as rawModule from './dist/web/olm_catalog.js';
import { makeApi } from './core.js';

let raw = null;
let lastInput;
let broken = false;

/**
 * Instantiate the core WebAssembly module. Safe to call more than once. `options.picture`: also
 * load the picture module (as `initPicture()`; `true`, or its `.wasm`), which `graphPicture`,
 * `renderGraphSvg` and `layoutGraph` need.
 */
export async function init(input, { picture = false } = {}) {
  if (picture !== false) await Promise.all([init(input), initPicture(picture)]);
  if (raw && !broken) return;
  if (input !== undefined) lastInput = input;
  if (!raw) {
    await wasmInit(lastInput !== undefined ? { module_or_path: lastInput } : undefined);
    raw = rawModule;
  } else {
    // After an internal panic: a fresh copy of the glue module gets a fresh instance.
    const fresh = await import(`./dist/web/olm_catalog.js?instance=${Date.now()}`);
    await fresh.default(lastInput !== undefined ? { module_or_path: lastInput } : undefined);
    raw = fresh;
  }
  broken = false;
}

// The on-demand modules: the picture module (the layout and the SVG, no catalog reader), the resolver's (the core with the resolver and CEL) and the tools' (the
// core with render, templates, diffs, edits, OperatorGroup checks, RBAC previews, Mermaid, DOT,
// packageDeps, openCatalog and formatDiagnostics). Each is loaded once; a `Catalog` loaded in the
// core is loaded again in the module of the first call that needs it there.
const onDemand = {
  picture: { raw: null, loading: null, load: () => import('./dist/web-picture/olm_graph_picture.js') },
  resolver: { raw: null, loading: null, load: () => import('./dist/web-resolver/olm_catalog.js') },
  tools: { raw: null, loading: null, load: () => import('./dist/web-tools/olm_catalog.js') },
};

async function loadModule(which, input) {
  const m = onDemand[which];
  if (m.raw) return;
  // Concurrent calls share one load; a failed load may be retried.
  m.loading ??= (async () => {
    const glue = await m.load();
    await glue.default(input !== undefined && input !== true ? { module_or_path: input } : undefined);
    m.raw = glue;
  })().finally(() => { m.loading = null; });
  await m.loading;
}

/**
 * Load the on-demand modules: the resolver's (`resolve`, `resolveText`, `resolveV1`) and, unless
 * `options.tools` is `false`, the tools' (as `initTools()`: `render`, `expandTemplate`,
 * `convertToBasicTemplate`, `diffCatalogs*`, `planEdit`, `applyEdits`, `checkOperatorGroups*`,
 * `previewRbac*`, `toMermaid`, `toDot`, `packageDeps*`, `openCatalog` and `formatDiagnostics`,
 * also as `Catalog` methods). They are larger and kept separate so that pages validating and
 * drawing catalogs load less, and a page that only resolves loads the resolver's alone
 * (`initResolver(input, {tools: false})`). `input` is the resolver's `.wasm` (by default the one
 * next to this package's `dist/web-resolver/olm_catalog.js`); `options.tools` may also be the
 * tools' `.wasm` (a URL, `Response`, `BufferSource` or `WebAssembly.Module`). Safe to call more
 * than once.
 */
export async function initResolver(input, { tools = true } = {}) {
  await Promise.all([loadModule('resolver', input), tools === false ? undefined : loadModule('tools', tools)]);
}

/**
 * Load the tools' module alone: `render`, `expandTemplate`, `convertToBasicTemplate`,
 * `diffCatalogs*`, `planEdit`, `applyEdits`, `checkOperatorGroups*`, `previewRbac*`, `toMermaid`,
 * `toDot`, `packageDeps*`, `openCatalog` and `formatDiagnostics` (not the resolver: see
 * `initResolver`). By default the `.wasm` next to this package's `dist/web-tools/olm_catalog.js`
 * is fetched. Safe to call more than once.
 */
export async function initTools(input) {
  await loadModule('tools', input);
}

/**
 * Load the picture module: the layout and the SVG of upgrade graphs (`graphPicture`,
 * `renderGraphSvg`, also as `Catalog` methods, and `layoutGraph`). The core module reads the
 * catalog and makes each picture's draft; this small module lays it out and draws it, so pages
 * that only validate never fetch it. By default the `.wasm` next to this package's
 * `dist/web-picture/olm_graph_picture.js` is fetched. Safe to call more than once.
 */
export async function initPicture(input) {
  await loadModule('picture', input);
}

function notLoaded(message) {
  const err = new Error(message);
  err.name = 'OlmCatalogError';
  err.code = 'not-initialized';
  return err;
}

function currentResolver() {
  if (!onDemand.resolver.raw) {
    throw notLoaded('call `await initResolver()` first: the resolver (resolve, resolveText, resolveV1) is in the module it loads');
  }
  return onDemand.resolver.raw;
}

function currentTools() {
  if (!onDemand.tools.raw) {
    throw notLoaded('call `await initTools()` (or `await initResolver()`) first: render, templates, diffs, edits, OperatorGroup checks, RBAC previews, Mermaid, DOT, packageDeps, crdSafety, openCatalog, formatDiagnostics and the lint configuration of validate (config, lint, olmV1) are in the module it loads');
  }
  return onDemand.tools.raw;
}

function currentPicture() {
  if (!onDemand.picture.raw) {
    throw notLoaded('call `await initPicture()` first: the layout and the SVG of graphPicture, renderGraphSvg and layoutGraph are in the picture module it loads');
  }
  return onDemand.picture.raw;
}

function current() {
  if (!raw || broken) {
    const err = new Error(broken ? 'olm-catalog needs `await init()` again after an internal error' : 'call `await init()` first');
    err.name = 'OlmCatalogError';
    err.code = 'not-initialized';
    throw err;
  }
  return raw;
}

const api = makeApi(current, () => { broken = true; }, currentResolver, currentTools, currentPicture);
export const {
  validate, diffCatalogs, diffCatalogsText, planEdit, applyEdits, formatDiagnostics, render, expandTemplate, convertToBasicTemplate, readImage, resolve, resolveText, resolveV1, loadCatalog, openCatalog, packages, channelGraph, upgradePath, graphPicture, renderGraphSvg, layoutGraph, toMermaid, toDot, checkOperatorGroups, checkOperatorGroupsText, previewRbac, previewRbacText, Catalog, CatalogSession, __panicForTesting, __parseOnly, __parseAndDecode, __resolveCount,
} = api;
/** The cross-package view of a package (tools' module: `await initTools()` first in browsers): `packageDeps(catalog, {package, headsOnly})`, and as the CLI's text. */
export const { packageDeps, packageDepsText } = api;
/** CRD upgrade safety on every upgrade edge of a catalog (tools' module: `await initTools()` first in browsers): `crdSafety(files, {package, from})`. */
export const { crdSafety } = api;
/** The registry client (HTTP through `fetch`; the image is read by `readImage`). */
export { looksLikeReference, parseReference, pullImage } from './registry.js';
export default init;
