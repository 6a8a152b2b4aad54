// Node entry point: the module is instantiated synchronously on import.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { makeApi } from './core.js';
import { looksLikeReference, parseReference, pullImage } from './registry.js';

export { looksLikeReference, parseReference, pullImage };

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

/** The auth files podman and skopeo read, in their order (`authfile` first when given). */
function authFiles(authfile) {
  if (authfile) return [authfile];
  const home = process.env.HOME ?? homedir();
  return [
    process.env.REGISTRY_AUTH_FILE,
    process.env.XDG_RUNTIME_DIR && join(process.env.XDG_RUNTIME_DIR, 'containers/auth.json'),
    join(home, '.config/containers/auth.json'),
    join(home, '.docker/config.json'),
  ].filter(Boolean);
}

/**
 * A registry's `{username, password}` from the first auth file that has an `auths` entry for
 * `registry/repository` (longest prefix first) or `registry`; `undefined` when none has.
 */
export function registryCredentials(registry, repository, authfile) {
  const keys = [];
  const parts = repository.split('/');
  for (let n = parts.length; n > 0; n--) keys.push(`${registry}/${parts.slice(0, n).join('/')}`);
  keys.push(registry, `https://${registry}`, `http://${registry}`);
  if (registry === 'docker.io') keys.push('https://index.docker.io/v1/');
  for (const file of authFiles(authfile)) {
    if (!existsSync(file)) continue;
    let auths;
    try {
      auths = JSON.parse(readFileSync(file, 'utf8')).auths ?? {};
    } catch (e) {
      throw new Error(`${file}: ${e.message}`);
    }
    const key = keys.find((k) => auths[k]?.auth);
    if (key === undefined) continue;
    const decoded = Buffer.from(auths[key].auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new Error(`${file}: auths.${key}.auth is not base64 of user:password`);
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return undefined;
}

/**
 * Read an image named as on the command line (see `imageTransport`) through `readImage`: from disk,
 * or from its registry (`pullImage`, credentials from the auth files). Options: `platform`,
 * `authfile`, `tlsVerify` (`false`: plain HTTP), `fetch`. Returns readImage's result and `name`, how
 * findings name its files (`REF@DIGEST:/configs`, or `REF@DIGEST:` for a bundle).
 */
export async function readImageReference(arg, options = {}) {
  const t = imageTransport(arg);
  if (!t) throw new Error(`${arg}: not an image reference`);
  let image;
  let readOptions = { tag: t.tag, platform: options.platform };
  if (t.transport === 'oci') image = readCatalog(t.path);
  else if (t.transport === 'docker') {
    const ref = parseReference(t.reference);
    const pulled = await pullImage(t.reference, {
      fetch: options.fetch, platform: options.platform, insecure: options.tlsVerify === false ? true : undefined,
      credentials: registryCredentials(ref.registry, ref.repository, options.authfile),
    });
    image = pulled.files;
    readOptions = { tag: pulled.tag, platform: pulled.platform };
  } else image = new Uint8Array(readFileSync(t.path === '-' ? 0 : t.path));
  const content = api.readImage(image, readOptions);
  content.platform ??= readOptions.platform ?? null;
  const at = `${arg}@${content.digest}:`;
  return { ...content, name: content.kind === 'catalog' ? `${at}/${content.configs.replace(/^\/+|\/+$/g, '')}` : at };
}
