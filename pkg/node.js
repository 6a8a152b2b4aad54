// Node entry point: the module is instantiated synchronously on import.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { makeApi } from './core.js';

const require = createRequire(import.meta.url);
const path = require.resolve('./dist/node-full/olm_catalog.js');
let raw = require(path);

const api = makeApi(
  () => raw,
  () => {
    delete require.cache[path];
    raw = require(path);
  },
);

/** Nothing to wait for in Node; kept so code can be shared with browsers. */
export async function init() {}
/** Nothing to wait for in Node (the resolver is always loaded); kept for browser-shared code. */
export async function initResolver() {}
/** Nothing to wait for in Node (the tools are always loaded); kept for browser-shared code. */
export async function initTools() {}
/** Nothing to wait for in Node (the picture's layout and SVG are always loaded); kept for browser-shared code. */
export async function initPicture() {}
export const {
  validate, diffCatalogs, diffCatalogsText, planEdit, applyEdits, formatDiagnostics, render, expandTemplate, convertToBasicTemplate, readImage, resolve, resolveText, resolveV1, loadCatalog, openCatalog, packages, channelGraph, upgradePath, graphPicture, renderGraphSvg, layoutGraph, toMermaid, toDot, checkOperatorGroups, checkOperatorGroupsText, previewRbac, previewRbacText, Catalog, CatalogSession, __panicForTesting, __parseOnly, __parseAndDecode, __resolveCount,
} = api;
/** The cross-package view of a package (always loaded in Node): `packageDeps(catalog, {package, headsOnly})`, and as the CLI's text. */
export const { packageDeps, packageDepsText } = api;
/** CRD upgrade safety on every upgrade edge of a catalog (always loaded in Node): `crdSafety(files, {package, from})`. */
export const { crdSafety } = api;

/**
 * Read a catalog from disk: every file under a directory (paths relative to it, `/`-separated,
 * in the order opm walks them), or a single file. `.indexignore` files are included and applied by
 * `validate`/`loadCatalog`, as opm does.
 */
export function readCatalog(root) {
  if (statSync(root).isFile()) return [{ path: basename(root), content: new Uint8Array(readFileSync(root)) }];
  const files = [];
  const walk = (dir, rel) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(full).isDirectory()) walk(full, r);
      else files.push({ path: r, content: new Uint8Array(readFileSync(full)) });
    }
  };
  walk(root, '');
  return files;
}
