// The README's picture of the site (docs/images/site.png): the built site (www/dist, from
// scripts/build-site.sh) served on a loopback port, opened in Debian's headless Chromium through
// playwright-core (never a downloaded browser) on the bundled example's deep link, and captured.
// Usage: node scripts/screenshot-site.mjs [OUT.png]
import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(repo, 'www/dist');
const out = process.argv[2] ?? join(repo, 'docs/images/site.png');
const { chromium } = createRequire(join(repo, 'www/package.json'))('playwright-core');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

const server = createServer((req, res) => {
  let p = join(dist, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (!p.startsWith(dist)) return res.writeHead(403).end();
  try {
    if (statSync(p).isDirectory()) p = join(p, 'index.html');
    res.writeHead(200, { 'content-type': types[extname(p)] ?? 'text/plain' }).end(readFileSync(p));
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/#catalog=community&package=aws-neuron-operator&channel=Fast&from=aws-neuron-operator.v1.1.1`);
  await page.waitForSelector('#path-v0 li', { timeout: 60000 });
  await page.waitForFunction(() => (document.body.dataset.busy ?? '0') === '0');
  await page.evaluate(() => { for (const e of [document.scrollingElement, ...document.querySelectorAll('main, section, aside')]) e.scrollTop = 0; });
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  server.close();
}
