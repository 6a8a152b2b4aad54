// The registry client of the npm package, for Node and browsers alike (HTTP through `fetch`):
// references as containers/image reads them, manifests by tag or digest with the OCI and Docker
// v2 Accept headers, blobs, the bearer-token challenge flow (`WWW-Authenticate` realm, service,
// scope; anonymous tokens) and basic auth. It only downloads: the image comes back as an OCI image
// layout's files, which `readImage` reads in the WebAssembly module (every manifest, config and
// layer checked against its digest there, the layers unpacked, the labels read).

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

/** A registry on this machine (`localhost`, `127.0.0.0/8`, `[::1]`), which Docker reads over plain HTTP by default. */
function isLoopback(registry) {
  const host = registry.replace(/:\d+$/, '');
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const base64 = (s) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

/** One repository's requests, with the authorization its registry asked for. */
class Session {
  constructor(ref, { fetch = (...a) => globalThis.fetch(...a), credentials, insecure = isLoopback(ref.registry) }) {
    const host = ref.registry === DOCKER_HUB ? DOCKER_HUB_API : ref.registry;
    this.base = `${insecure ? 'http' : 'https'}://${host}/v2/${ref.repository}`;
    this.scope = `repository:${ref.repository}:pull`;
    this.fetch = fetch;
    this.credentials = credentials;
    this.authorization = undefined;
    this.name = `${ref.registry}/${ref.repository}`;
  }

  /** GET `path` under the repository; one 401 answered by its challenge, then retried. */
  async get(path, accept) {
    const url = `${this.base}/${path}`;
    for (let attempt = 0; ; attempt++) {
      const headers = {};
      if (accept) headers.accept = accept;
      if (this.authorization) headers.authorization = this.authorization;
      let res;
      try {
        res = await this.fetch(url, { headers });
      } catch (e) {
        throw new Error(`${url}: ${e.cause?.message ?? e.message}`);
      }
      if (res.status === 401 && attempt === 0) {
        await this.authorize(res.headers.get('www-authenticate'));
        continue;
      }
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}${res.status === 401 ? ' (credentials refused)' : ''}`);
      return res;
    }
  }

  async authorize(header) {
    const challenge = parseChallenge(header);
    const basic = this.credentials && `Basic ${base64(`${this.credentials.username}:${this.credentials.password}`)}`;
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
    const res = await this.fetch(url, { headers: basic ? { authorization: basic } : {} });
    if (!res.ok) throw new Error(`${url.origin}${url.pathname}: token request: HTTP ${res.status}`);
    const body = await res.json();
    const token = body.token ?? body.access_token;
    if (typeof token !== 'string') throw new Error(`${url.origin}${url.pathname}: token response without a token`);
    this.authorization = `Bearer ${token}`;
  }

  /** A manifest or index by tag or digest: its bytes (checked against `digest` when given), digest and JSON. */
  async manifest(reference, digest) {
    const res = await this.get(`manifests/${reference}`, MANIFEST_TYPES);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > MANIFEST_LIMIT) throw new Error(`${this.name}:${reference}: manifest of ${bytes.length} bytes (limit ${MANIFEST_LIMIT})`);
    const got = await sha256(bytes);
    if (digest && got !== digest) throw new Error(`${this.name}: manifest ${digest} has digest ${got}`);
    const json = JSON.parse(new TextDecoder().decode(bytes));
    const mediaType = json.mediaType ?? res.headers.get('content-type')?.split(';')[0];
    return { bytes, digest: got, json, mediaType };
  }

  /** A blob's bytes (its digest is checked by `readImage`); no more than the descriptor's size. */
  async blob(d) {
    const res = await this.get(`blobs/${d.digest}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (typeof d.size === 'number' && bytes.length !== d.size) {
      throw new Error(`${this.name}: blob ${d.digest}: ${bytes.length} bytes, the manifest says ${d.size}`);
    }
    return bytes;
  }
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
 * Download an image from its registry as an OCI image layout's files (`oci-layout`, `index.json`
 * naming it by the tag `image`, `blobs/sha256/…`), for `readImage(files, {tag: 'image'})`.
 * Options: `fetch` (default the global one), `credentials` `{username, password}` (for a basic
 * challenge, or sent to the token realm), `insecure` (plain HTTP; by default for a registry on
 * this machine, as Docker does), `platform`.
 */
export async function pullImage(reference, options = {}) {
  const ref = parseReference(reference);
  const session = new Session(ref, options);
  let top = await session.manifest(ref.digest ?? ref.tag ?? 'latest', ref.digest);
  const blobs = new Map();
  let platform = null;
  if (top.mediaType === OCI_INDEX || top.mediaType === DOCKER_LIST) {
    const picked = pickPlatform(top.json, options.platform);
    platform = [picked.platform?.os, picked.platform?.architecture, picked.platform?.variant].filter(Boolean).join('/') || null;
    top = await session.manifest(picked.digest, picked.digest);
  }
  blobs.set(top.digest, top.bytes);
  for (const d of [top.json.config, ...(top.json.layers ?? [])]) {
    if (d?.digest && !blobs.has(d.digest)) blobs.set(d.digest, await session.blob(d));
  }
  const text = (s) => new TextEncoder().encode(s);
  const index = {
    schemaVersion: 2,
    manifests: [{
      mediaType: top.mediaType, digest: top.digest, size: top.bytes.length,
      annotations: { 'org.opencontainers.image.ref.name': 'image' },
    }],
  };
  const files = [
    { path: 'oci-layout', content: text('{"imageLayoutVersion":"1.0.0"}') },
    { path: 'index.json', content: text(JSON.stringify(index)) },
    ...[...blobs].map(([d, content]) => ({ path: `blobs/sha256/${d.slice('sha256:'.length)}`, content })),
  ];
  return { files, tag: 'image', digest: top.digest, platform, repository: session.name };
}
