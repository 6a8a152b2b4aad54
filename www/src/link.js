// The page's deep link: `#catalog=…&package=…&channel=…&from=…` says what is on screen (the
// catalog is a bundled example's name or a URL; the rest what the Packages & graphs tab shows), so
// that a link restores it. The page rewrites it as the user navigates (without adding history
// entries) and follows it when it changes. The Embed snippet says the same thing as an
// `<olm-upgrade-graph>` element.

/** @typedef {{catalog?: string, package?: string, channel?: string, from?: string}} Link */

const KEYS = ['catalog', 'package', 'channel', 'from'];

/** The link in `hash` (with or without its `#`); unknown keys and empty values are left out. */
export function parseLink(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const link = {};
  for (const k of KEYS) {
    const v = params.get(k);
    if (v) link[k] = v;
  }
  return link;
}

/** `link` as a hash (`''` without a catalog: nothing else can be restored without one). */
export function formatLink(link) {
  if (!link.catalog) return '';
  const params = new URLSearchParams();
  for (const k of KEYS) if (link[k]) params.set(k, link[k]);
  return `#${params}`;
}

/** Show `link` in the address bar, replacing the current entry (no hashchange event). */
export function showLink(link) {
  const hash = formatLink(link);
  if (hash === location.hash || (!hash && !location.hash)) return;
  history.replaceState(history.state, '', hash || `${location.pathname}${location.search}`);
}

/**
 * Where a link's catalog comes from: `{example}` when it names a bundled example, else `{url}`
 * (absolute, resolved against the page); null when it is neither.
 * @param {string} catalog
 * @param {string[]} examples the bundled examples' names
 */
export function catalogSource(catalog, examples) {
  if (examples.includes(catalog)) return { example: catalog };
  try {
    const url = new URL(catalog, location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? { url: url.href } : null;
  } catch {
    return null;
  }
}

/** `&`, `<`, `>` and `"` as entities: a value safe inside a double-quoted HTML attribute. */
export function attr(value) {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The HTML a page author pastes to show what is on screen: the element's script and the element.
 * @param {{script: string, src: string, package: string, channel?: string, from?: string, fans?: boolean}} what
 */
export function embedSnippet({ script, src, package: pkg, channel, from, fans }) {
  const attrs = [['src', src], ['package', pkg], ['channel', channel], ['from', from]]
    .filter(([, v]) => v)
    .map(([k, v]) => ` ${k}="${attr(v)}"`)
    .join('');
  return `<script type="module" src="${attr(script)}"></script>\n<olm-upgrade-graph${attrs}${fans ? ' fans' : ''}></olm-upgrade-graph>`;
}
