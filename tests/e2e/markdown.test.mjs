// The pull-request comment (`--format markdown` of `validate` and `diff`) rendered to HTML as a
// forge renders it (marked, GitHub-flavoured tables) and read back in Debian's headless Chromium:
// one table row per finding, the columns a reviewer reads, and the update-safety table. Run by
// `make test-e2e`; uses the native CLI built by `make build`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const require = createRequire(join(repo, 'www/package.json'));
const { chromium } = require('playwright-core');
const { marked } = require('marked');
const cli = join(process.env.CARGO_TARGET_DIR ?? join(repo, 'target'), 'release/olm-catalog');
const shared = join(repo, '../shared/catalogs/fbc');

/** stdout of the native CLI, whatever its exit code (1 means findings, which is what we want). */
function run(...args) {
  try {
    return execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (e) {
    if (e.status === 1) return e.stdout;
    throw e;
  }
}

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] });
});
after(async () => {
  await browser?.close();
});

/** The tables of `markdown` rendered in a page: per table, its header cells and its rows' cells. */
async function tables(markdown) {
  const page = await browser.newPage();
  await page.setContent(`<!doctype html><meta charset="utf-8"><body>${marked.parse(markdown)}</body>`);
  const out = await page.$$eval('table', (ts) => ts.map((t) => ({
    head: [...t.querySelectorAll('thead th')].map((c) => c.textContent.trim()),
    rows: [...t.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent.trim())),
  })));
  await page.close();
  return out;
}

test('diff --format markdown renders to a findings table and update-safety tables', async () => {
  const [oldDir, newDir] = ['v4.20', 'v4.22'].map((v) => join(shared, 'kube-descheduler', v, 'catalog'));
  const json = JSON.parse(run('diff', oldDir, newDir, '--format', 'json'));
  const [findings, ...rest] = await tables(run('diff', oldDir, newDir, '--format', 'markdown'));
  assert.deepEqual(findings.head, ['Status', 'Code', 'Location', 'Message']);
  assert.equal(findings.rows.length, json.findings.length);
  findings.rows.forEach((row, i) => {
    assert.equal(row[1], json.findings[i].code);
    assert.ok(row[0].endsWith(json.findings[i].severity), row[0]);
    assert.ok(row[2].startsWith(newDir), row[2]);
  });
  const safety = rest.find((t) => t.head[0] === 'Channel');
  assert.ok(safety, 'an update-safety table');
  assert.deepEqual(safety.head, ['Channel', 'Installed', 'OLM v0 (old → new)', 'OLM v1 (old → new)', 'Findings']);
  assert.ok(safety.rows.some((r) => r[4] === 'update-release-removed'));
});

test('validate --format markdown renders one row per finding', async () => {
  const catalog = join(shared, 'community-v4.20');
  const json = JSON.parse(run('validate', catalog, '--format', 'json'));
  const [findings] = await tables(run('validate', catalog, '--format', 'markdown'));
  assert.deepEqual(findings.head, ['Status', 'Code', 'Location', 'Message']);
  assert.equal(findings.rows.length, json.diagnostics.length);
  assert.ok(findings.rows.every((r, i) => r[1] === json.diagnostics[i].code));
});
