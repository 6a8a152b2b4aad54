// Node entry point: the module is instantiated synchronously on import.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { makeApi } from './core.js';
import { looksLikeReference, parseReference, pullImage } from './registry.js';
import { defaultCacheRoot, diskCache, loadRegistriesConf, registryCredentials, registryCertificates, registryEndpoints, tlsFetch } from './registry-node.js';

export { looksLikeReference, parseReference, pullImage };
export { registryCredentials, loadRegistriesConf, registryEndpoints, diskCache, defaultCacheRoot, registryCertificates, tlsFetch };

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

/**
 * The image `arg` names, if it is one rather than a path: `oci:DIR[:TAG]`, `oci-archive:FILE[:TAG]`,
 * `docker-archive:FILE[:REF]` (`-`: standard input), `docker://REF`, or a registry reference
 * (`quay.io/org/index:v1`) where no such path exists. `undefined` for a path.
 */
export function imageTransport(arg) {
  const m = /^(oci|oci-archive|docker-archive):(.*)$/s.exec(arg);
  if (m) {
    const colon = m[2].indexOf(':');
    const path = colon < 0 ? m[2] : m[2].slice(0, colon);
    const tag = colon < 0 || colon === m[2].length - 1 ? undefined : m[2].slice(colon + 1);
    return { transport: m[1], path, tag };
  }
  if (arg.startsWith('docker://') || (!existsSync(arg) && looksLikeReference(arg))) {
    return { transport: 'docker', reference: arg.replace(/^docker:\/\//, '') };
  }
  return undefined;
}

/**
 * Read an image named as on the command line (see `imageTransport`) through `readImage`: from disk,
 * or from its registry (`pullImage`: credentials from the auth files, endpoints from
 * registries.conf, blobs through the cache, TLS checked against `certs.d/HOST`'s CA certificates;
 * the files unpacked from the image kept in the cache, so that a warm read unpacks no layer).
 * Options: `platform`, `authfile`, `tlsVerify` (`false`: TLS unchecked, else plain HTTP),
 * `certDir` (the CA certificates of every registry, instead of `certs.d`), `noCache`, `offline`
 * (the cache alone), `fetch` (instead of the node:https one). Returns readImage's result, `name`,
 * how findings name its files (`REF@DIGEST:/configs`, or `REF@DIGEST:` for a bundle), and for a
 * registry image `repository`, the one it was read from.
 */
export async function readImageReference(arg, options = {}) {
  const t = imageTransport(arg);
  if (!t) throw new Error(`${arg}: not an image reference`);
  let content;
  let repository;
  if (t.transport === 'docker') ({ content, repository } = await pullContent(t.reference, options));
  else {
    const image = t.transport === 'oci' ? readCatalog(t.path) : new Uint8Array(readFileSync(t.path === '-' ? 0 : t.path));
    content = api.readImage(image, { tag: t.tag, platform: options.platform });
    content.platform ??= options.platform ?? null;
  }
  const at = `${arg}@${content.digest}:`;
  const name = content.kind === 'catalog' ? `${at}/${content.configs.replace(/^\/+|\/+$/g, '')}` : at;
  return repository === undefined ? { ...content, name } : { ...content, name, repository };
}

/**
 * A registry image's content (see `readImageReference`): the files the cache kept from an earlier
 * read, else `readImage` of the pulled layout, its files then kept (when no entry was skipped: the
 * warnings of skipped entries are given on every read).
 */
async function pullContent(reference, options) {
  const ref = parseReference(reference);
  const cache = options.noCache ? undefined : diskCache(defaultCacheRoot());
  const pulled = await pullImage(reference, {
    fetch: options.fetch ?? tlsFetch({ tlsVerify: options.tlsVerify !== false, certDir: options.certDir }),
    platform: options.platform, insecure: options.tlsVerify === false,
    credentials: (registry, repository) => registryCredentials(registry, repository, options.authfile),
    endpoints: registryEndpoints(await loadRegistriesConf(), ref.registry, ref.repository, ref.digest !== undefined),
    cache,
    offline: !!options.offline,
  });
  let content = pulled.content;
  if (!content) {
    content = api.readImage(pulled.files, { tag: pulled.tag, platform: pulled.platform });
    content.platform ??= pulled.platform ?? null;
    // A cache that cannot be written is no reason to fail the read.
    if (cache && content.findings.length === 0) await cache.putTree(content.digest, content.files).catch(() => {});
  }
  return { content, repository: pulled.repository };
}
