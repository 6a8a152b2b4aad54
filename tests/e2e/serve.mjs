// What the end-to-end tests share: a static server on a loopback port for www/dist (and, under
// /fbc/, the real catalogs of /work/shared/catalogs/fbc; under /pkg/, the npm package's files;
// plus any extra routes a test adds), and
// Debian's headless Chromium through playwright-core (never a downloaded browser).
import { createServer } from 'node:http';
import { before, after } from 'node:test';
import { readFileSync, statSync } from 'node:fs';
import { extname, join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '../..');
export const require = createRequire(join(repo, 'www/package.json'));
export const dist = join(repo, 'www/dist');
export const fbc = resolve(repo, '../shared/catalogs/fbc');
const { chromium } = require('playwright-core');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.map': 'application/json', '.yaml': 'text/yaml' };

/**
 * Serve `dist` (and `/fbc/…`); `routes` maps a path to `{type, body}` for pages a test makes up.
 * @returns {Promise<{base: string, routes: Map<string, {type: string, body: string | Buffer}>, close(): void}>}
 */
export async function serve() {
  const routes = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = decodeURIComponent(url.pathname);
    const made = routes.get(path);
    if (made) { res.writeHead(200, { 'content-type': made.type }).end(made.body); return; }
    const [root, rest] = path.startsWith('/fbc/') ? [fbc, path.slice(4)] : path.startsWith('/pkg/') ? [join(repo, 'pkg'), path.slice(4)] : [dist, path];
    let p = join(root, rest);
    if (!p.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      if (statSync(p).isDirectory()) p = join(p, 'index.html');
      res.writeHead(200, { 'content-type': types[extname(p)] ?? 'text/plain' }).end(readFileSync(p));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}/`, routes, close: () => server.close() };
}

/** Debian's Chromium, headless. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A page that records its errors (uncaught exceptions and console errors) in `errors`. */
/**
 * The site served and Chromium launched before a test file's tests (both handed to `use`), and
 * both stopped after them.
 */
export function useSite(use) {
  let server;
  let browser;
  before(async () => {
    server = await serve();
    browser = await launch();
    use(server, browser);
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
}

export async function newPage(browser, options = {}) {
  const page = await browser.newPage({ viewport: { width: 1300, height: 850 }, ...options });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { page, errors };
}

/**
 * axe-core's serious and critical violations on the page as it is (the page must be opened with
 * `bypassCSP: true`: axe is injected as a script), each as "rule: target, target…".
 */
export async function axeViolations(page, context = 'html') {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  // Every rule axe runs by default (the graph's nodes are named by their <title>, so WCAG 2.5.3's
  // label-in-name check has no aria-label to compare).
  const result = await page.evaluate((ctx) => globalThis.axe.run(ctx, { resultTypes: ['violations'] }), context);
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(', ')}`);
}
