// Fetching a catalog by URL, for the `<olm-upgrade-graph>` element's `src` and the site's deep
// links: the URL is one of
// - a catalog file (YAML, JSON, or JSON-lines: objects one after another; the loader tells them
//   apart by their text, whatever the file is called);
// - a directory index: JSON `{"files": ["pkg-a/catalog.yaml", …]}` (or just the array) listing
//   the catalog's files relative to the index, fetched in turn (eight at a time).
// What comes back is `[{path, content}]`, what `loadCatalog` takes. Failures are `Error`s named
// `OlmCatalogError` with a `code` (`fetch-failed`, `invalid-index`, `too-large`) and the `url`.

/** The most files a directory index may list. */
export const MAX_INDEX_FILES = 50_000;
/** The most bytes of catalog text fetched for one catalog (the site and element load it whole). */
export const MAX_CATALOG_BYTES = 512 * 1024 * 1024;
const PARALLEL = 8;

function error(code, message, fields) {
  return Object.assign(new Error(message), { name: 'OlmCatalogError', code, ...fields });
}

async function fetchText(url, { fetch: get = fetch, signal, budget }) {
  let res;
  try {
    res = await get(url, { signal });
  } catch (e) {
    if (e?.name === 'AbortError') throw e;
    throw error('fetch-failed', `could not fetch ${url}: ${e?.message ?? e}`, { url });
  }
  if (!res.ok) throw error('fetch-failed', `could not fetch ${url}: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, { url, status: res.status });
  const declared = Number(res.headers.get('content-length'));
  if (declared > budget.left) throw tooLarge(url);
  const text = await res.text();
  budget.left -= text.length;
  if (budget.left < 0) throw tooLarge(url);
  return text;
}

function tooLarge(url) {
  return error('too-large', `the catalog at ${url} is larger than ${MAX_CATALOG_BYTES / 1024 / 1024} MB`, { url });
}

/** The files an index lists, or null when `text` is not an index (then it is a catalog file). */
export function indexFiles(text, url) {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return null;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // several JSON objects in a row: a catalog file
  }
  const list = Array.isArray(value) ? value : value && typeof value === 'object' && !('schema' in value) ? value.files : undefined;
  if (list === undefined) return null;
  if (!Array.isArray(list) || !list.every((f) => typeof f === 'string' && f !== '')) {
    throw error('invalid-index', `the index at ${url} must list its files as {"files": ["dir/catalog.yaml", …]}`, { url });
  }
  if (list.length > MAX_INDEX_FILES) {
    throw error('invalid-index', `the index at ${url} lists ${list.length.toLocaleString('en-US')} files, more than ${MAX_INDEX_FILES.toLocaleString('en-US')}`, { url });
  }
  return list;
}

/** The last segment of a URL's path: the name a single fetched file gets. */
function fileName(url) {
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || '');
  return name || 'catalog.json';
}

/**
 * Fetch the catalog at `url` (a file or a directory index) as `[{path, content}]`.
 * @param {string | URL} url absolute, or relative to `base`
 * @param {{fetch?: typeof fetch, signal?: AbortSignal, base?: string}} [options]
 */
export async function fetchCatalog(url, { fetch: get = globalThis.fetch, signal, base } = {}) {
  const href = new URL(url, base ?? globalThis.location?.href).href;
  const opts = { fetch: get, signal, budget: { left: MAX_CATALOG_BYTES } };
  const text = await fetchText(href, opts);
  const listed = indexFiles(text, href);
  if (!listed) return [{ path: fileName(href), content: text }];
  const out = new Array(listed.length);
  let next = 0;
  const worker = async () => {
    while (next < listed.length) {
      const i = next++;
      const fileUrl = new URL(listed[i], href);
      if (!/^https?:$/.test(fileUrl.protocol)) {
        throw error('invalid-index', `the index at ${href} lists ${listed[i]}, which is not an http(s) URL`, { url: href });
      }
      out[i] = { path: listed[i].replace(/^\.?\//, ''), content: await fetchText(fileUrl.href, opts) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, listed.length) }, worker));
  return out;
}
