// Node entry point: the module is instantiated synchronously on import.
import { createRequire } from 'node:module';
import { makeApi } from './core.js';

const require = createRequire(import.meta.url);
const path = require.resolve('./dist/node/olm_catalog.js');
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
export const {
  validate, loadCatalog, packages, channelGraph, upgradePath, toMermaid, toDot, Catalog, __panicForTesting, __parseOnly,
} = api;
