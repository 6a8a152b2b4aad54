// The `<olm-upgrade-graph>` examples of README.md and docs/*.md in headless Chromium: every fenced
// block whose info string is `html example` becomes a page at the root of the built site (so its
// relative `src` attributes resolve as they would beside `olm-upgrade-graph.js` on any host), and
// each element on it must draw its graph without an error: nodes shown, and the path's steps
// listed when it has `from`. tests/doc_examples.rs checks that no HTML block is left unmarked.
// Run after `scripts/build-site.sh`: `node --test tests/e2e/docs.test.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useSite, newPage, repo } from './serve.mjs';
import { blocks } from '../node/markdown.mjs';

const documents = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const examples = documents.flatMap((doc) => blocks(readFileSync(join(repo, doc), 'utf8'))
  .filter((b) => b.info === 'html example').map((block) => ({ doc, block })));

let server;
let browser;
useSite((s, b) => {
  [server, browser] = [s, b];
});

test('the documents have element examples', () => {
  assert.ok(examples.length > 0);
});

for (const { doc, block } of examples) {
  test(`${doc}:${block.line}: every element draws its graph`, async () => {
    const name = `/doc-example-${doc.replace(/\W/g, '_')}-${block.line}.html`;
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${doc}</title><link rel="icon" href="data:,"></head>
<body><main>${block.body.join('\n')}</main></body></html>`;
    server.routes.set(name, { type: 'text/html', body });
    const { page, errors } = await newPage(browser, { bypassCSP: true });
    await page.goto(server.base + name.slice(1));
    const count = await page.locator('olm-upgrade-graph').count();
    assert.ok(count > 0, 'the example has an element');
    await page.waitForFunction(() => [...document.querySelectorAll('olm-upgrade-graph')].every((e) => ['ready', 'error'].includes(e.state)), null, { timeout: 30000 });
    const shown = await page.evaluate(() => [...document.querySelectorAll('olm-upgrade-graph')].map((e) => ({
      state: e.state,
      from: e.getAttribute('from'),
      nodes: e.shadowRoot.querySelectorAll('[data-node]').length,
      steps: e.shadowRoot.querySelectorAll('[part=steps] li').length,
    })));
    for (const s of shown) {
      assert.equal(s.state, 'ready', JSON.stringify(s));
      assert.ok(s.nodes > 0, `nodes drawn: ${JSON.stringify(s)}`);
      if (s.from) assert.ok(s.steps > 0, `the path listed: ${JSON.stringify(s)}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}
