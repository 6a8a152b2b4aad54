// Catalog images in the site, in headless Chromium, made by real tools (umoci builds the image from
// a catalog directory, skopeo writes its docker-archive and oci-archive forms and pushes it): a
// `docker save` tarball and an oci-archive picked as one file, an OCI layout folder picked as a
// folder, each showing the report the catalog's own folder shows; a registry reference from
// Debian's `docker-registry` on 127.0.0.1 configured to send CORS headers opens the same, and one
// that sends none is refused with a plain sentence saying so.
// Screenshots go to www/e2e-screenshots/ (git-ignored).
// Run after `scripts/build-site.sh`: `node --test tests/e2e/images.test.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, newPage, fbc, repo } from './serve.mjs';

const shots = join(repo, 'www/e2e-screenshots');
mkdirSync(shots, { recursive: true });
const catalogDir = join(fbc, 'openshift-optional-v4.17');
const scratch = mkdtempSync(join(tmpdir(), 'olm-e2e-images-'));
const at = (p) => join(scratch, p);
const sh = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const registries = [];

let server;
let browser;
before(async () => {
  server = await serve();
  browser = await launch();
  const image = `${at('layout')}:cat`;
  sh('umoci', ['init', '--layout', at('layout')]);
  sh('umoci', ['new', '--image', image]);
  sh('umoci', ['unpack', '--image', image, at('unpacked')]);
  sh('cp', ['-a', catalogDir, at('unpacked/rootfs/configs')]);
  sh('umoci', ['repack', '--image', image, at('unpacked')]);
  sh('umoci', ['config', '--image', image, '--config.label', 'operators.operatorframework.io.index.configs.v1=/configs']);
  writeFileSync(at('policy.json'), '{"default":[{"type":"insecureAcceptAnything"}]}');
  const copy = (to, extra = []) => sh('skopeo', ['--policy', at('policy.json'), 'copy', '-q', ...extra, `oci:${image}`, to]);
  copy(`docker-archive:${at('docker.tar')}:example.com/cat:v1`);
  copy(`oci-archive:${at('oci.tar')}:cat`);
  for (const cors of [true, false]) {
    const addr = await registry(cors);
    copy(`docker://${addr}/cat:v1`, ['--dest-tls-verify=false']);
    registries.push(addr);
  }
});
after(async () => {
  await browser?.close();
  server?.close();
  for (const child of children) child.kill();
  rmSync(scratch, { recursive: true, force: true });
});

const children = [];
async function freePort() {
  const s = createServer();
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

/** Debian's docker-registry on 127.0.0.1, sending CORS headers (Distribution's `http.headers`) or not. */
async function registry(cors) {
  const port = await freePort();
  const headers = cors
    ? "  headers:\n    Access-Control-Allow-Origin: ['*']\n    Access-Control-Allow-Headers: ['Accept', 'Authorization']\n    Access-Control-Allow-Methods: ['GET', 'HEAD', 'OPTIONS']\n"
    : '';
  const config = at(`registry-${port}.yml`);
  writeFileSync(config, `version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: ${at(`data-${port}`)}\nhttp:\n  addr: 127.0.0.1:${port}\n${headers}`);
  children.push(spawn('docker-registry', ['serve', config], { stdio: 'ignore' }));
  for (let i = 0; ; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/v2/`);
      return `127.0.0.1:${port}`;
    } catch (e) {
      if (i > 200) throw e;
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
}

/** Run `act` and wait for the page to finish loading a catalog; what it shows. */
async function loaded(page, act) {
  const before = await page.evaluate(() => document.body.dataset.loaded ?? '');
  await act();
  try {
    await page.waitForFunction((b) => (document.body.dataset.loaded ?? '') !== b, before, { timeout: 60000 });
  } catch (e) {
    throw new Error(`not loaded: ${await page.textContent('#summary')}`, { cause: e });
  }
  return page.evaluate(() => ({
    summary: document.querySelector('#summary').textContent,
    report: document.querySelector('#report').textContent,
    files: [...document.querySelectorAll('#files li')].map((li) => li.textContent),
  }));
}

test('a docker-archive, an oci-archive and an OCI layout folder open as the catalog\'s folder does', async () => {
  const { page, errors } = await newPage(browser);
  await page.goto(server.base);
  const folder = await loaded(page, () => page.setInputFiles('#pick-folder', catalogDir));
  assert.match(folder.summary, /files?$/);
  assert.ok(folder.files.length > 3);
  for (const tar of ['docker.tar', 'oci.tar']) {
    const shown = await loaded(page, () => page.setInputFiles('#pick-files', at(tar)));
    assert.deepEqual(shown, folder, tar);
  }
  assert.ok(existsSync(join(at('layout'), 'oci-layout')));
  const layout = await loaded(page, () => page.setInputFiles('#pick-folder', at('layout')));
  assert.deepEqual(layout, folder);
  await page.screenshot({ path: join(shots, 'image-archive.png') });
  assert.deepEqual(errors, []);
});

test('a registry reference opens when the registry sends CORS headers, and says so plainly when it does not', async () => {
  const { page } = await newPage(browser);
  await page.goto(server.base);
  const folder = await loaded(page, () => page.setInputFiles('#pick-folder', catalogDir));
  await page.click('#image-open summary');
  await page.fill('#image-ref', `${registries[0]}/cat:v1`);
  const shown = await loaded(page, () => page.click('#image-load'));
  assert.deepEqual(shown, folder);
  await page.fill('#image-ref', `${registries[1]}/cat:v1`);
  await page.click('#image-load');
  await page.waitForFunction(() => document.querySelector('#summary').textContent.startsWith('Could not load'), null, { timeout: 30000 });
  const summary = await page.textContent('#summary');
  assert.match(summary, /no-cors: the registry of 127\.0\.0\.1:\d+\/cat:v1 did not let this page read it: it sends no CORS headers/);
  await page.screenshot({ path: join(shots, 'image-no-cors.png') });
});
