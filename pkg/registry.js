// The registry client of the npm package, for Node and browsers alike (HTTP through `fetch`):
// references as containers/image reads them, manifests by tag or digest with the OCI and Docker
// v2 Accept headers, blobs, the bearer-token challenge flow (`WWW-Authenticate` realm, service,
// scope; anonymous tokens) and basic auth; retries with backoff on 429, 5xx, dropped connections
// and timeouts; endpoints tried in order (registries.conf's mirrors, then its location) and a
// content-addressed cache, both given by the caller (Node's are in registry-node.js, which reads
// the files podman and skopeo read). It only downloads: the image comes back as an OCI image
// layout's files, which `readImage` reads in the WebAssembly module (every manifest, config and
// layer checked against its digest there, the layers unpacked, the labels read); or, when the
// cache kept the files `readImage` unpacked from that image before, as those files.

const DOCKER_HUB = 'docker.io';
const DOCKER_HUB_API = 'registry-1.docker.io';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';
const MANIFEST_TYPES = [
  'application/vnd.oci.image.manifest.v1+json', OCI_INDEX,
  'application/vnd.docker.distribution.manifest.v2+json', DOCKER_LIST,
].join(', ');
/** A manifest or index larger than this is refused (containers/image's limit is 4 MiB). */
const MANIFEST_LIMIT = 4 << 20;

/** containers/image's rule: the first part names a registry when it has `.` or `:`, or is `localhost`. */
function isRegistry(first) {
  return /^[A-Za-z0-9.:-]+$/.test(first) && !/^\.+$/.test(first) && (/[.:]/.test(first) || first === 'localhost');
}

/**
 * Parse `REGISTRY/REPO[:TAG][@sha256:…]` (a leading `docker://` dropped; no registry: Docker Hub,
 * `library/` for a one-part name). Throws on an invalid reference.
 */
export function parseReference(s) {
  const bad = (why) => new Error(`${s}: invalid reference: ${why}`);
  const rest = s.replace(/^docker:\/\//, '');
  const at = rest.indexOf('@');
  const name0 = at < 0 ? rest : rest.slice(0, at);
  const digest = at < 0 ? undefined : rest.slice(at + 1);
  if (digest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(digest)) throw bad('invalid digest');
  const colon = name0.lastIndexOf(':');
  const hasTag = colon >= 0 && !name0.slice(colon + 1).includes('/');
  const name = hasTag ? name0.slice(0, colon) : name0;
  const tag = hasTag ? name0.slice(colon + 1) : undefined;
  const slash = name.indexOf('/');
  let registry = DOCKER_HUB;
  let repository = name;
  if (slash >= 0 && isRegistry(name.slice(0, slash))) {
    registry = name.slice(0, slash);
    repository = name.slice(slash + 1);
  }
  if (registry === DOCKER_HUB && !repository.includes('/')) repository = `library/${repository}`;
  if (!repository.split('/').every((p) => /^[a-z0-9._-]+$/.test(p))) throw bad('invalid repository name');
  if (tag !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(tag)) throw bad('invalid tag');
  return { registry, repository, tag, digest };
}

/** Whether `s` reads as a registry reference with an explicit registry (`quay.io/org/x:1`), not a path. */
export function looksLikeReference(s) {
  const rest = s.replace(/^docker:\/\//, '');
  const slash = rest.indexOf('/');
  if (slash < 0 || !isRegistry(rest.slice(0, slash))) return false;
  try {
    parseReference(s);
    return true;
  } catch {
    return false;
  }
}

/** `Bearer realm="…",service="…"` → `{scheme: 'bearer', params: {realm, service}}`. */
export function parseChallenge(header) {
  const m = /^\s*(\S+)\s*(.*)$/s.exec(header ?? '');
  if (!m) return undefined;
  const params = {};
  for (const p of m[2].matchAll(/([A-Za-z]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    params[p[1].toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3];
  }
  return { scheme: m[1].toLowerCase(), params };
}

async function sha256(bytes) {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The scheme each insecure registry host answers on (`https` or `http`), found once per host. */
const schemes = new Map();

const base64 = (s) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

/** Statuses worth another attempt: too many requests, and server errors but "not implemented". */
const retryable = (status) => status === 429 || (status >= 500 && status < 600 && status !== 501);

/** An error no further attempt can cure (a body over its limit, a digest mismatch). */
class Final extends Error {}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Read a response's body into `got` (`{chunks, length}`, kept when the connection drops, so that
 * a blob's read can go on where it stopped), at most `limit` bytes in all, each read waiting at
 * most `timeout` ms (a stalled connection is aborted through `controller`).
 */
async function readBody(res, controller, timeout, limit, what, got) {
  const reader = res.body?.getReader() ?? new Response(await res.arrayBuffer()).body.getReader();
  for (;;) {
    const timer = setTimeout(() => controller.abort(new Error(`no data for ${timeout} ms`)), timeout);
    let chunk;
    try {
      chunk = await reader.read();
    } finally {
      clearTimeout(timer);
    }
    if (chunk.done) break;
    got.length += chunk.value.length;
    if (got.length > limit) {
      controller.abort();
      throw new Final(`${what}: more than ${limit} bytes`);
    }
    got.chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(got.length);
  let at = 0;
  for (const c of got.chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

/**
 * One repository's requests (an endpoint: `{registry, repository, insecure}`), with the
 * authorization its registry asked for; 429, 5xx, dropped connections and timeouts tried again
 * with backoff.
 */
class Session {
  constructor(endpoint, options) {
    const { registry, repository } = endpoint;
    this.insecure = options.insecure || endpoint.insecure;
    this.host = registry === DOCKER_HUB ? DOCKER_HUB_API : registry;
    this.path = `/v2/${repository}`;
    this.scope = `repository:${repository}:pull`;
    this.fetch = options.fetch ?? ((...a) => globalThis.fetch(...a));
    const { credentials } = options;
    this.credentials = () => (typeof credentials === 'function' ? credentials(registry, repository) : credentials);
    this.timeout = options.timeout ?? 30000;
    this.attempts = Math.max(1, options.attempts ?? 4);
    this.backoff = options.backoff ?? 250;
    this.authorization = undefined;
    this.name = `${registry}/${repository}`;
  }

  /**
   * GET `url`'s bytes (at most `limit`), tried again on 429, 5xx, a dropped connection or a
   * timeout (waiting `backoff` ms, doubled each time, or the `Retry-After` asked, up to 30 s).
   * `resumable` (a blob): a body cut short is asked for from where it stopped (`Range`); a
   * registry that sends the whole blob again has it read again from the start.
   */
  async send(url, headers, limit, what, resumable = false) {
    let wait = this.backoff;
    const got = { chunks: [], length: 0 };
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.attempts;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`no answer in ${this.timeout} ms`)), this.timeout);
      const range = resumable && got.length > 0 ? { range: `bytes=${got.length}-` } : {};
      try {
        const res = await this.fetch(url, { headers: { ...headers, ...range }, signal: controller.signal, insecure: this.insecure });
        clearTimeout(timer);
        if (!last && retryable(res.status)) {
          const after = res.headers.get('retry-after')?.trim();
          await res.body?.cancel().catch(() => {});
          await sleep(Math.min(/^\d+$/.test(after ?? '') ? Number(after) * 1000 : wait, 30000));
        } else {
          if (res.status !== 206) Object.assign(got, { chunks: [], length: 0 });
          const bytes = res.ok ? await readBody(res, controller, this.timeout, limit, what, got) : undefined;
          return { res, bytes };
        }
      } catch (e) {
        clearTimeout(timer);
        if (e instanceof Final || last) throw new Error(`${url}: ${e.cause?.message ?? e.message}`);
        await sleep(wait);
      }
      wait *= 2;
    }
  }

  /**
   * `https`, or for an insecure registry whatever it answers on (HTTPS first, unverified where
   * the `fetch` takes `insecure`, then plain HTTP), found once per host.
   */
  async scheme() {
    if (!this.insecure) return 'https';
    if (!schemes.has(this.host)) {
      const signal = AbortSignal.timeout(this.timeout);
      const answers = await this.fetch(`https://${this.host}/v2/`, { signal, insecure: true })
        .then((res) => res.body?.cancel().catch(() => {}), () => false);
      schemes.set(this.host, answers === false ? 'http' : 'https');
    }
    return schemes.get(this.host);
  }

  /** GET `path` under the repository; one 401 answered by its challenge, then retried. */
  async get(path, accept, limit, resumable = false) {
    const url = `${await this.scheme()}://${this.host}${this.path}/${path}`;
    for (let round = 0; ; round++) {
      const headers = {};
      if (accept) headers.accept = accept;
      if (this.authorization) headers.authorization = this.authorization;
      const { res, bytes } = await this.send(url, headers, limit, url, resumable);
      if (res.status === 401 && round === 0) {
        await this.authorize(res.headers.get('www-authenticate'));
        continue;
      }
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}${res.status === 401 ? ' (credentials refused)' : ''}`);
      return { res, bytes };
    }
  }

  async authorize(header) {
    const challenge = parseChallenge(header);
    const credentials = await this.credentials();
    const basic = credentials && `Basic ${base64(`${credentials.username}:${credentials.password}`)}`;
    if (challenge?.scheme === 'basic') {
      if (!basic) throw new Error(`${this.name}: the registry asks for credentials and none were found`);
      this.authorization = basic;
      return;
    }
    if (challenge?.scheme !== 'bearer' || !challenge.params.realm) {
      throw new Error(`${this.name}: unsupported authentication challenge: ${header ?? '(none)'}`);
    }
    const url = new URL(challenge.params.realm);
    if (challenge.params.service) url.searchParams.set('service', challenge.params.service);
    url.searchParams.set('scope', challenge.params.scope ?? this.scope);
    const realm = `${url.origin}${url.pathname}`;
    const { res, bytes } = await this.send(url, basic ? { authorization: basic } : {}, 1 << 20, `${realm}: token response`);
    if (!res.ok) throw new Error(`${realm}: token request: HTTP ${res.status}`);
    const body = JSON.parse(new TextDecoder().decode(bytes));
    const token = body.token ?? body.access_token;
    if (typeof token !== 'string') throw new Error(`${realm}: token response without a token`);
    this.authorization = `Bearer ${token}`;
  }

  /** A manifest or index by tag or digest: its bytes (checked against `digest` when given), digest and JSON. */
  async manifest(reference, digest) {
    const { res, bytes } = await this.get(`manifests/${reference}`, MANIFEST_TYPES, MANIFEST_LIMIT);
    const got = await sha256(bytes);
    if (digest && got !== digest) throw new Error(`${this.name}: manifest ${digest} has digest ${got}`);
    const claimed = res.headers.get('docker-content-digest');
    if (!digest && claimed?.startsWith('sha256:') && claimed !== got) {
      throw new Error(`${this.name}:${reference}: the registry says manifest ${claimed}, its bytes are ${got}`);
    }
    return manifestOf(bytes, got, res.headers.get('content-type')?.split(';')[0]);
  }

  /** A blob's bytes (its digest is checked by the cache and by `readImage`); no more than the descriptor's size. */
  async blob(d) {
    const limit = typeof d.size === 'number' ? d.size : Infinity;
    const { bytes } = await this.get(`blobs/${d.digest}`, undefined, limit, true);
    if (typeof d.size === 'number' && bytes.length !== d.size) {
      throw new Error(`${this.name}: blob ${d.digest}: ${bytes.length} bytes, the manifest says ${d.size}`);
    }
    return bytes;
  }
}

/** A manifest's bytes as `pullImage` uses them: digest, JSON and media type. */
function manifestOf(bytes, digest, contentType) {
  const json = JSON.parse(new TextDecoder().decode(bytes));
  const mediaType = json.mediaType ?? contentType ?? (Array.isArray(json.manifests) ? OCI_INDEX : undefined);
  return { bytes, digest, json, mediaType };
}

/** An index's manifest for `platform` (`os/arch[/variant]`; default linux/amd64, else the first). */
function pickPlatform(index, platform) {
  const [os, architecture, variant] = (platform ?? 'linux/amd64').split('/');
  const fits = (m) => m.platform?.os === os && m.platform?.architecture === architecture
    && (variant === undefined || m.platform?.variant === variant);
  const picked = index.manifests?.find(fits) ?? (platform === undefined ? index.manifests?.[0] : undefined);
  if (!picked) throw new Error(`no manifest for platform ${platform} in the image index`);
  return picked;
}

/**
 * The blobs of one pull: from `cache` when it has them (a cache checks what it gives and keeps),
 * else from the endpoint that answered the manifest (and then kept in the cache).
 */
class Blobs {
  constructor(options, reference) {
    this.cache = options.cache;
    this.offline = !!options.offline;
    this.reference = reference;
    this.session = undefined;
  }

  refuseOffline() {
    if (this.offline) throw new Error(`${this.reference}: not in the cache, and --offline forbids the network`);
  }

  async cached(digest) {
    return this.cache ? this.cache.get(digest) : undefined;
  }

  async keep(digest, bytes) {
    if (this.cache) await this.cache.put(digest, bytes);
  }

  /** An index's manifest, by digest. */
  async manifest(digest) {
    const bytes = await this.cached(digest);
    if (bytes) return manifestOf(bytes, digest);
    this.refuseOffline();
    const m = await this.session.manifest(digest, digest);
    await this.keep(digest, m.bytes);
    return m;
  }

  async blob(d) {
    const bytes = await this.cached(d.digest);
    if (bytes) return bytes;
    this.refuseOffline();
    const fetched = await this.session.blob(d);
    await this.keep(d.digest, fetched);
    return fetched;
  }
}

/**
 * The manifest `ref` names: from the cache for a cached digest, else from the first endpoint that
 * has it (which then serves the blobs).
 */
async function topManifest(ref, endpoints, blobs, options) {
  if (ref.digest) {
    const bytes = await blobs.cached(ref.digest);
    if (bytes) return manifestOf(bytes, ref.digest);
  }
  blobs.refuseOffline();
  let failure;
  for (const endpoint of endpoints) {
    const session = new Session(endpoint, options);
    try {
      const m = await session.manifest(ref.digest ?? ref.tag ?? 'latest', ref.digest);
      blobs.session = session;
      blobs.endpoint = endpoint;
      await blobs.keep(m.digest, m.bytes);
      return m;
    } catch (e) {
      failure ??= e;
      if (endpoints.length === 1) throw e;
    }
  }
  throw failure;
}

const CONFIGS_LABEL = 'operators.operatorframework.io.index.configs.v1';
const DATABASE_LABEL = 'operators.operatorframework.io.index.database.v1';
const MANIFESTS_LABEL = 'operators.operatorframework.io.bundle.manifests.v1';

/**
 * `readImage`'s result for the image of manifest `digest` when `cache.getTree` kept the files
 * unpacked from it (after a `readImage` that read them without skipping any entry): the kind and
 * catalog directory from its config's labels, as readImage finds them. `undefined` when the cache
 * has no such tree, or the labels name neither a catalog nor a bundle (readImage then reads the
 * layers, and says why).
 */
async function keptContent(cache, digest, configBytes, platform) {
  if (!cache?.getTree || !configBytes) return undefined;
  let labels;
  try {
    labels = JSON.parse(new TextDecoder().decode(configBytes)).config?.Labels ?? {};
  } catch {
    return undefined;
  }
  const configs = labels[CONFIGS_LABEL];
  const catalog = typeof configs === 'string';
  const bundle = !catalog && labels[DATABASE_LABEL] === undefined && typeof labels[MANIFESTS_LABEL] === 'string';
  if (!catalog && !bundle) return undefined;
  const files = await cache.getTree(digest);
  if (!files) return undefined;
  return { kind: catalog ? 'catalog' : 'bundle', digest, configs: catalog ? configs : null, platform, findings: [], files };
}

/**
 * Download an image from its registry as an OCI image layout's files (`oci-layout`, `index.json`
 * naming it by the tag `image`, `blobs/sha256/…`), for `readImage(files, {tag: 'image'})`.
 * Options: `fetch` (default the global one), `credentials` `{username, password}` or a function
 * of `(registry, repository)` giving them (for a basic challenge, or sent to the token realm),
 * `insecure` (every registry as registries.conf's `insecure` reads one: HTTPS first, unverified
 * where the `fetch` takes an `insecure` init field as the Node one does, else plain HTTP),
 * `platform`, `endpoints` (where to read the repository from, in order:
 * `[{registry, repository, insecure}]`, as registries.conf's mirrors and location give them;
 * default the reference's own), `cache` (`{get(digest), put(digest, bytes)}`, async: a
 * content-addressed store that checks digests; one that also has `getTree(digest)`, the files
 * unpacked from the image of that manifest digest, may hold the image's files: then no layer is
 * read, the layout has none, and the result's `content` is what `readImage` gives), `offline`
 * (the cache alone), `timeout` (ms of silence before a request is abandoned, default 30000),
 * `attempts` (per request, default 4) and `backoff` (ms before the second attempt, doubled after
 * each, default 250).
 */
export async function pullImage(reference, options = {}) {
  const ref = parseReference(reference);
  const endpoints = options.endpoints ?? [{ registry: ref.registry, repository: ref.repository, insecure: false }];
  const blobs = new Blobs(options, reference);
  let top = await topManifest(ref, endpoints, blobs, options);
  const files = new Map();
  let platform = null;
  if (top.mediaType === OCI_INDEX || top.mediaType === DOCKER_LIST) {
    const picked = pickPlatform(top.json, options.platform);
    platform = [picked.platform?.os, picked.platform?.architecture, picked.platform?.variant].filter(Boolean).join('/') || null;
    blobs.session ??= new Session(endpoints[0], options);
    top = await blobs.manifest(picked.digest);
  }
  files.set(top.digest, top.bytes);
  blobs.session ??= new Session(endpoints[0], options);
  const read = async (list) => {
    for (const d of list) if (d?.digest && !files.has(d.digest)) files.set(d.digest, await blobs.blob(d));
  };
  await read([top.json.config]);
  const content = await keptContent(options.cache, top.digest, files.get(top.json.config?.digest), platform);
  if (!content) await read(top.json.layers ?? []);
  const text = (s) => new TextEncoder().encode(s);
  const index = {
    schemaVersion: 2,
    manifests: [{
      mediaType: top.mediaType, digest: top.digest, size: top.bytes.length,
      annotations: { 'org.opencontainers.image.ref.name': 'image' },
    }],
  };
  const layout = [
    { path: 'oci-layout', content: text('{"imageLayoutVersion":"1.0.0"}') },
    { path: 'index.json', content: text(JSON.stringify(index)) },
    ...[...files].map(([d, content]) => ({ path: `blobs/sha256/${d.slice('sha256:'.length)}`, content })),
  ];
  const from = blobs.endpoint ?? endpoints[0];
  const pulled = { files: layout, tag: 'image', digest: top.digest, platform, repository: `${from.registry}/${from.repository}` };
  return content ? { ...pulled, content } : pulled;
}
