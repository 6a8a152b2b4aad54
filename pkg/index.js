// Browser (and bundler) entry point: `await init()` once before calling anything. `init` takes an
// optional URL, Response, BufferSource or WebAssembly.Module for custom loaders; by default the
// `.wasm` next to this file is fetched.
import wasmInit, * as rawModule from './dist/web/olm_catalog.js';
import { makeApi } from './core.js';

let raw = null;
let lastInput;
let broken = false;

/** Instantiate the WebAssembly module. Safe to call more than once. */
export async function init(input) {
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

let resolverRaw = null;

/**
 * Load the full module: the resolver (`resolve`, `resolveText`, `resolveV1`), `render`,
 * `expandTemplate`, `convertToBasicTemplate`, `diffCatalogs*`, `checkOperatorGroups*`,
 * `previewRbac*`, `toMermaid`, `toDot`, `packageDeps*` (also as `Catalog` methods), `openCatalog` (the
 * editor's session) and `formatDiagnostics`. It is larger and kept separate so that pages
 * validating and drawing catalogs load less. By default the `.wasm` next to this package's
 * `dist/web-full/olm_catalog.js` is fetched. Safe to call more than once.
 */
export async function initResolver(input) {
  if (resolverRaw) return;
  const m = await import('./dist/web-full/olm_catalog.js');
  await m.default(input !== undefined ? { module_or_path: input } : undefined);
  resolverRaw = m;
}

function currentResolver() {
  if (!resolverRaw) {
    const err = new Error('call `await initResolver()` first: the resolver, render, templates, diffs, OperatorGroup checks, RBAC previews, Mermaid, DOT, packageDeps, openCatalog and formatDiagnostics are in the module it loads');
    err.name = 'OlmCatalogError';
    err.code = 'not-initialized';
    throw err;
  }
  return resolverRaw;
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

const api = makeApi(current, () => { broken = true; }, currentResolver);
export const {
  validate, diffCatalogs, diffCatalogsText, planEdit, applyEdits, formatDiagnostics, render, expandTemplate, convertToBasicTemplate, resolve, resolveText, resolveV1, loadCatalog, openCatalog, packages, channelGraph, upgradePath, graphPicture, renderGraphSvg, layoutGraph, toMermaid, toDot, checkOperatorGroups, checkOperatorGroupsText, previewRbac, previewRbacText, Catalog, CatalogSession, __panicForTesting, __parseOnly,
} = api;
/** The cross-package view of a package (full module: `await initResolver()` first in browsers): `packageDeps(catalog, {package, headsOnly})`, and as the CLI's text. */
export const { packageDeps, packageDepsText } = api;
export default init;
