// The registry client's Node-only parts, read from the files podman and skopeo read (the native
// CLI's crates/registry reads them the same way): credentials from auth files (`--authfile`,
// `REGISTRY_AUTH_FILE`, `$XDG_RUNTIME_DIR/containers/auth.json`, `~/.config/containers/auth.json`,
// `~/.docker/config.json`; `auths`, `credHelpers`/`credsStore` through `docker-credential-*`),
// registries.conf (v2 and its `.d` drop-ins: location rewrites, mirrors in order, `insecure`,
// `blocked`), the content-addressed cache under `$XDG_CACHE_HOME/olm-catalog` that the native
// CLI shares (`blobs/sha256/HEX`, and the files unpacked from images; verified when read and
// written), and a `fetch` over node:https that checks each registry against the CA certificates
// of `certs.d/HOST` or `--cert-dir`, or not at all when asked (the global fetch cannot take a CA
// per request). Browsers have none of these.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';

const home = () => process.env.HOME ?? homedir();

/** The auth files podman and skopeo read, in their order (`authfile`, the `--authfile` option, alone when given). */
export function authFiles(authfile) {
  if (authfile) return [authfile];
  if (process.env.REGISTRY_AUTH_FILE) return [process.env.REGISTRY_AUTH_FILE];
  return [
    process.env.XDG_RUNTIME_DIR && join(process.env.XDG_RUNTIME_DIR, 'containers/auth.json'),
    join(home(), '.config/containers/auth.json'),
    join(home(), '.docker/config.json'),
  ].filter(Boolean);
}

/** An `auths` key without scheme and API path (`https://index.docker.io/v1/` → `index.docker.io`). */
const normalise = (key) => key.replace(/^https?:\/\//, '').replace(/\/+$/, '').replace(/\/v[12]$/, '');

/** `docker-credential-HELPER get`, the server on standard input; `undefined` when it has none. */
function helperGet(helper, registry) {
  const program = `docker-credential-${helper}`;
  const r = spawnSync(program, ['get'], { input: registry, encoding: 'utf8' });
  if (r.error) throw new Error(`${program}: ${r.error.message}`);
  // "credentials not found in native keychain": none, not an error.
  if (r.status !== 0) return undefined;
  let reply;
  try {
    reply = JSON.parse(r.stdout);
  } catch (e) {
    throw new Error(`${program}: ${e.message}`);
  }
  return { username: reply.Username, password: reply.Secret };
}

function decode(auth, file, key) {
  const decoded = Buffer.from(auth.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new Error(`${file}: auths.${key}.auth is not base64 of user:password`);
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * A registry's `{username, password}` from the first auth file that has some for
 * `registry/repository`: an `auths` entry (the most specific key first: `registry/a/b`,
 * `registry/a`, `registry`), else its `credHelpers` entry or `credsStore`. `undefined` when none has.
 */
export function registryCredentials(registry, repository, authfile) {
  const parts = repository.split('/');
  const keys = [];
  for (let n = parts.length; n > 0; n--) keys.push(`${registry}/${parts.slice(0, n).join('/')}`);
  keys.push(registry);
  if (registry === 'docker.io') keys.push('index.docker.io');
  for (const file of authFiles(authfile)) {
    if (!existsSync(file)) continue;
    let parsed;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`${file}: ${e.message}`);
    }
    const auths = Object.entries(parsed.auths ?? {});
    for (const key of keys) {
      const entry = auths.find(([k, v]) => normalise(k) === key && v?.auth);
      if (entry) return decode(entry[1].auth, file, entry[0]);
    }
    const helper = parsed.credHelpers?.[registry] ?? parsed.credsStore;
    if (helper) {
      const found = helperGet(helper, registry);
      if (found) return found;
    }
  }
  return undefined;
}

/** registries.conf's place as containers/image finds it, or `undefined`. */
function registriesConfPath() {
  if (process.env.CONTAINERS_REGISTRIES_CONF) return process.env.CONTAINERS_REGISTRIES_CONF;
  const user = join(home(), '.config/containers/registries.conf');
  return existsSync(user) ? user : '/etc/containers/registries.conf';
}

/**
 * registries.conf and its `.d` drop-ins (in name order; a later entry with the same prefix
 * replaces the earlier): the `[[registry]]` entries.
 */
export async function loadRegistriesConf(path = registriesConfPath()) {
  const files = existsSync(path) ? [path] : [];
  const dropins = `${path}.d`;
  if (existsSync(dropins)) {
    files.push(...readdirSync(dropins).filter((f) => f.endsWith('.conf')).sort().map((f) => join(dropins, f)));
  }
  const entries = [];
  if (files.length === 0) return entries;
  const { parse } = await import('smol-toml');
  for (const file of files) {
    let parsed;
    try {
      parsed = parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`${file}: ${e.message}`);
    }
    for (const e of parsed.registry ?? []) {
      const prefix = e.prefix ?? e.location ?? '';
      const at = entries.findIndex((old) => (old.prefix ?? old.location ?? '') === prefix);
      if (at >= 0) entries.splice(at, 1);
      entries.push(e);
    }
  }
  return entries;
}

/**
 * Where to read `registry/repository` from, in order (the mirrors, then the location), each
 * `{registry, repository, insecure}`; throws when registries.conf blocks it. The entry is the
 * longest `prefix` (default its `location`) matching whole components. `byDigest`: the reference
 * has a digest (mirrors marked `mirror-by-digest-only` serve only those).
 */
export function registryEndpoints(entries, registry, repository, byDigest) {
  const name = `${registry}/${repository}`;
  let entry;
  let length = -1;
  for (const e of entries) {
    const prefix = e.prefix ?? e.location ?? '';
    const matches = name === prefix || (name.startsWith(prefix) && '/:@'.includes(name[prefix.length]));
    if (matches && prefix.length > length) [entry, length] = [e, prefix.length];
  }
  if (!entry) return [{ registry, repository, insecure: false }];
  if (entry.blocked) throw new Error(`${name}: the registry is blocked by registries.conf`);
  const rest = name.slice(length);
  const rewrite = (location, insecure) => {
    const full = `${location}${rest}`;
    const slash = full.indexOf('/');
    return slash < 0 ? { registry: full, repository: '', insecure } : { registry: full.slice(0, slash), repository: full.slice(slash + 1), insecure };
  };
  const out = [];
  if (byDigest || !entry['mirror-by-digest-only']) out.push(...(entry.mirror ?? []).map((m) => rewrite(m.location, !!m.insecure)));
  out.push(rewrite(entry.location || (entry.prefix ?? ''), !!entry.insecure));
  return out;
}

/** The user's cache directory (`$XDG_CACHE_HOME/olm-catalog`, else `~/.cache/olm-catalog`). */
export function defaultCacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(home(), '.cache');
  return join(base, 'olm-catalog');
}

const sha256 = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
let temporaries = 0;

/**
 * The content-addressed cache at `root` (the native CLI's layout, so that the two CLIs share it):
 * `get` gives a blob (`blobs/ALG/HEX`) verified against its digest (a corrupted entry is removed,
 * and `undefined` given so that it is fetched again), `put` refuses bytes that are not their
 * digest and writes a temporary file renamed into place, so that two processes filling the cache
 * at once never see half a blob. `getTree` and `putTree` keep the files unpacked from an image
 * (`trees/ALG/HEX` for its manifest's digest holds the digest of an index blob, a JSON list of
 * `[path, digest]`; each file is a blob): a tree with a file missing or corrupted is `undefined`,
 * and read from the layers again.
 */
export function diskCache(root) {
  const place = (kind, digest) => {
    const [algorithm, hex] = digest.split(':');
    if (algorithm !== 'sha256' || !/^[0-9a-f]{64}$/.test(hex ?? '')) throw new Error(`unsupported digest ${digest}`);
    return { dir: join(root, kind, algorithm), file: join(root, kind, algorithm, hex), hex };
  };
  /** Write `bytes` as `file` through a temporary file renamed into place. */
  const write = ({ dir, file, hex }, bytes) => {
    mkdirSync(dir, { recursive: true });
    const temp = join(dir, `.${hex}-${process.pid}-${temporaries++}.partial`);
    try {
      writeFileSync(temp, bytes);
      renameSync(temp, file);
    } catch (e) {
      rmSync(temp, { force: true });
      throw new Error(`cache ${dir}: ${e.message}`);
    }
  };
  const cache = {
    async get(digest) {
      const { file } = place('blobs', digest);
      let bytes;
      try {
        bytes = readFileSync(file);
      } catch {
        return undefined;
      }
      if (sha256(bytes) === digest) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      rmSync(file, { force: true });
      return undefined;
    },
    async put(digest, bytes) {
      const actual = sha256(bytes);
      if (actual !== digest) throw new Error(`blob ${digest}: its bytes have digest ${actual}`);
      write(place('blobs', digest), bytes);
    },
    async getTree(image) {
      let index;
      try {
        index = JSON.parse(new TextDecoder().decode(await cache.get(readFileSync(place('trees', image).file, 'utf8').trim())));
      } catch {
        return undefined;
      }
      if (!Array.isArray(index)) return undefined;
      const files = [];
      for (const entry of index) {
        const [path, digest] = Array.isArray(entry) ? entry : [];
        if (typeof path !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(digest ?? '')) return undefined;
        const content = await cache.get(digest);
        if (!content) return undefined;
        files.push({ path, content });
      }
      return files;
    },
    async putTree(image, files) {
      const listed = [];
      for (const { path, content } of files) {
        const digest = sha256(content);
        if (!existsSync(place('blobs', digest).file)) write(place('blobs', digest), content);
        listed.push([path, digest]);
      }
      const index = new TextEncoder().encode(JSON.stringify(listed));
      const digest = sha256(index);
      write(place('blobs', digest), index);
      write(place('trees', image), digest);
    },
  };
  return cache;
}

/**
 * The CA certificates (PEM text) `registry` (`HOST[:PORT]`) is checked against, as containers-image
 * finds them: every `*.crt` of `certDir` (`--cert-dir`) when given, else of the first of
 * `$HOME/.config/containers/certs.d/HOST`, `/etc/containers/certs.d/HOST`, `/etc/docker/certs.d/HOST`
 * that exists; none: the public roots alone.
 */
export function registryCertificates(registry, certDir) {
  const dirs = certDir ? [certDir] : [join(home(), '.config/containers/certs.d', registry), join('/etc/containers/certs.d', registry), join('/etc/docker/certs.d', registry)];
  const dir = dirs.find((d) => existsSync(d) && statSync(d).isDirectory());
  if (!dir) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.crt')).sort().map((f) => readFileSync(join(dir, f), 'utf8'));
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A `fetch` for pullImage over node:https: each host checked against the public roots and its
 * `registryCertificates` (`certDir`: `--cert-dir`), or not checked when `tlsVerify` is false or
 * the request's init has `insecure` (an insecure registry). Follows up to 5 redirects, dropping
 * the authorization header on the way to another origin.
 */
export function tlsFetch({ tlsVerify = true, certDir } = {}) {
  const cas = new Map();
  const tlsFor = (host, insecure) => {
    if (!tlsVerify || insecure) return { rejectUnauthorized: false };
    if (!cas.has(host)) {
      const own = registryCertificates(host, certDir);
      cas.set(host, own.length ? { ca: [...rootCertificates, ...own] } : {});
    }
    return cas.get(host);
  };
  return async (url, init = {}) => {
    let target = new URL(url);
    const headers = { ...init.headers };
    for (let hops = 0; ; hops++) {
      const https = target.protocol === 'https:';
      const res = await new Promise((ok, fail) => {
        const tls = https ? tlsFor(target.host, init.insecure) : {};
        const req = (https ? httpsRequest : httpRequest)(target, { headers, signal: init.signal, ...tls }, ok);
        req.on('error', fail);
        req.end();
      });
      if (REDIRECTS.has(res.statusCode) && res.headers.location && hops < 5) {
        res.resume();
        const next = new URL(res.headers.location, target);
        if (next.origin !== target.origin) delete headers.authorization;
        target = next;
        continue;
      }
      const fields = Object.entries(res.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]));
      const empty = [204, 205, 304].includes(res.statusCode);
      if (empty) res.resume();
      return new Response(empty ? null : Readable.toWeb(res), { status: res.statusCode, headers: fields });
    }
  };
}
