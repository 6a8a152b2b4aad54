// The VS Code extension (editors/vscode): its bundled language server on the npm package's
// WebAssembly, driven over stdio by a JSON-RPC client as an editor would (diagnostics as a
// catalog is edited, hover, quick fixes, refactorings, malformed input, shutdown), and its `vsce package`
// output, whose .vsix must carry the extension, the server and the WebAssembly module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient } from './lsp-client.mjs';

const extension = join(process.env.REPO, 'editors/vscode');
const olmModule = fileURLToPath(import.meta.resolve('olm-catalog'));

const channel = (replaces, extra = '') => `---
schema: olm.package
name: pkga
defaultChannel: stable
---
schema: olm.channel
package: pkga
name: stable
entries:
  - name: pkga.v1.0.0
  - name: pkga.v1.1.0
    replaces: pkga.v1.0.0
  - name: pkga.v1.2.0
    replaces: ${replaces}
${extra}`;
const bundle = (v) => `---
schema: olm.bundle
package: pkga
name: pkga.v${v}
image: quay.io/x/pkga:${v}
properties:
  - type: olm.package
    value: {packageName: pkga, version: ${v}}
`;
const bundles = (versions) => versions.map(bundle).join('');

/** A catalog folder: pkga/channel.yaml (1.2.0 replacing a bundle that does not exist) and pkga/bundles.yaml. */
function catalogDir() {
  const root = mkdtempSync(join(tmpdir(), 'olm-vscode-'));
  mkdirSync(join(root, 'pkga'));
  writeFileSync(join(root, 'pkga/channel.yaml'), channel('pkga.v1.0.9'));
  writeFileSync(join(root, 'pkga/bundles.yaml'), bundles(['1.0.0', '1.1.0', '1.2.0']));
  return root;
}

/** The bundled server started on folder `root` and initialized (by default from editors/vscode on the packed package). */
async function startServer(root, server = join(extension, 'server/main.mjs'), env = { OLM_CATALOG_MODULE: olmModule }) {
  const client = new LspClient(process.execPath, [server, '--stdio'], env);
  const uri = pathToFileURL(root).href;
  const init = await client.request('initialize', { processId: process.pid, rootUri: uri, workspaceFolders: [{ uri, name: 'catalog' }], capabilities: {} });
  assert.ok(init.result.capabilities.hoverProvider, JSON.stringify(init));
  client.notify('initialized', {});
  return client;
}

const diagnosticsOf = (client, uri, pred = () => true) =>
  client.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri && pred(m.params.diagnostics));

test('bundled server: diagnostics located and cleared, across files, as documents change', async () => {
  const root = catalogDir();
  const client = await startServer(root);
  try {
    const channelUri = pathToFileURL(join(root, 'pkga/channel.yaml')).href;
    const bundlesUri = pathToFileURL(join(root, 'pkga/bundles.yaml')).href;
    // Pushed for the folder's files as soon as the workspace is open.
    const first = await diagnosticsOf(client, channelUri);
    const heads = first.params.diagnostics.find((d) => d.code === 'multiple-channel-heads');
    assert.ok(heads, JSON.stringify(first));
    assert.equal(heads.severity, 1);
    // `  - name: pkga.v1.1.0` (line 11): the name is the range.
    assert.deepEqual(heads.range, { start: { line: 10, character: 10 }, end: { line: 10, character: 21 } });
    assert.deepEqual(heads.relatedInformation[0].location, { uri: channelUri, range: { start: { line: 12, character: 10 }, end: { line: 12, character: 21 } } });

    client.notify('textDocument/didOpen', { textDocument: { uri: channelUri, languageId: 'yaml', version: 1, text: channel('pkga.v1.0.9') } });
    const fixed = channel('pkga.v1.1.0');
    const replacesLine = 13;
    client.notify('textDocument/didChange', {
      textDocument: { uri: channelUri, version: 2 },
      contentChanges: [{ range: { start: { line: replacesLine, character: 14 }, end: { line: replacesLine, character: 25 } }, text: 'pkga.v1.1.0' }],
    });
    const cleared = await diagnosticsOf(client, channelUri, (ds) => ds.length === 0);
    assert.deepEqual(cleared.params.diagnostics, []);

    // An edit of bundles.yaml (1.2.0's bundle gone) brings a finding located in channel.yaml.
    client.notify('textDocument/didOpen', { textDocument: { uri: bundlesUri, languageId: 'yaml', version: 1, text: bundles(['1.0.0', '1.1.0', '1.2.0']) } });
    client.notify('textDocument/didChange', { textDocument: { uri: bundlesUri, version: 2 }, contentChanges: [{ text: bundles(['1.0.0', '1.1.0']) }] });
    const other = await diagnosticsOf(client, channelUri, (ds) => ds.length > 0);
    assert.ok(other.params.diagnostics.every((d) => d.source === 'olm-catalog' && d.code), JSON.stringify(other));
    assert.ok(other.params.diagnostics.some((d) => d.range.start.line === 12), JSON.stringify(other));
    assert.ok(fixed.includes('replaces: pkga.v1.1.0'));
  } finally {
    await stop(client);
    rmSync(root, { recursive: true, force: true });
  }
});

test('bundled server: lint levels from the .olm-catalog.yaml found above the folder', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'olm-vscode-config-'));
  const root = join(parent, 'catalog');
  mkdirSync(join(root, 'pkga'), { recursive: true });
  writeFileSync(join(parent, '.olm-catalog.yaml'), 'lints:\n  replaces-skipped: note\n');
  // 1.2.0 replaces 1.1.0 and skips it: the lint `replaces-skipped` (a warning by default).
  writeFileSync(join(root, 'pkga/channel.yaml'), channel('pkga.v1.1.0', '    skips: [pkga.v1.1.0]\n'));
  writeFileSync(join(root, 'pkga/bundles.yaml'), bundles(['1.0.0', '1.1.0', '1.2.0']));
  const client = await startServer(root);
  try {
    const published = await diagnosticsOf(client, pathToFileURL(join(root, 'pkga/channel.yaml')).href);
    const lint = published.params.diagnostics.find((d) => d.code === 'replaces-skipped');
    assert.ok(lint, JSON.stringify(published));
    assert.equal(lint.severity, 3);
  } finally {
    await stop(client);
    rmSync(parent, { recursive: true, force: true });
  }
});

test('bundled server: a file or directory deleted under it is dropped from the catalog, its findings with it', async () => {
  const root = catalogDir();
  const client = await startServer(root);
  try {
    const channelUri = pathToFileURL(join(root, 'pkga/channel.yaml')).href;
    const bundlesUri = pathToFileURL(join(root, 'pkga/bundles.yaml')).href;
    await diagnosticsOf(client, channelUri);
    rmSync(join(root, 'pkga/bundles.yaml'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: bundlesUri, type: 3 }] });
    const after = await diagnosticsOf(client, channelUri, (ds) => ds.some((d) => d.code === 'entry-without-bundle'));
    assert.match(after.params.diagnostics.find((d) => d.code === 'entry-without-bundle').message, /pkga\.v1\.0\.0/);
    const hover = await client.request('textDocument/hover', { textDocument: { uri: bundlesUri }, position: { line: 3, character: 8 } });
    assert.equal(hover.result, null);
    // The whole package directory deleted, reported as one event: its files' findings go too.
    rmSync(join(root, 'pkga'), { recursive: true });
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(join(root, 'pkga')).href, type: 3 }] });
    const cleared = await diagnosticsOf(client, channelUri, (ds) => ds.length === 0);
    assert.deepEqual(cleared.params.diagnostics, []);
  } finally {
    await stop(client);
    rmSync(root, { recursive: true, force: true });
  }
});

test('bundled server: hover on bundle and channel names, refactorings from the edit engine', async () => {
  const root = catalogDir();
  const client = await startServer(root);
  try {
    const uri = pathToFileURL(join(root, 'pkga/channel.yaml')).href;
    const fixed = channel('pkga.v1.1.0');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: fixed } });
    await diagnosticsOf(client, uri, (ds) => ds.length === 0);
    // `  - name: pkga.v1.0.0` (line 10), the cursor inside the name.
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 9, character: 14 } });
    const text = hover.result.contents.value;
    assert.match(text, /\*\*pkga\.v1\.0\.0\*\* — bundle of package `pkga`/);
    assert.match(text, /version: 1\.0\.0/);
    assert.match(text, /channels: stable/);
    assert.match(text, /v0: pkga\.v1\.1\.0 \(replaces\) → pkga\.v1\.2\.0 \(replaces\)/);
    assert.match(text, /v1: .*pkga\.v1\.2\.0/);
    assert.deepEqual(hover.result.range, { start: { line: 9, character: 10 }, end: { line: 9, character: 21 } });
    const onChannel = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 7, character: 8 } });
    assert.match(onChannel.result.contents.value, /head: pkga\.v1\.2\.0/);
    const onPackage = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 7 } });
    assert.match(onPackage.result.contents.value, /\*\*pkga\*\* — package\n\n- default channel: stable\n- bundles: 3\n- channels: stable \(head pkga\.v1\.2\.0\)/);
    const nothing = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 6, character: 2 } });
    assert.equal(nothing.result, null);

    const actions = await client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: { line: 12, character: 14 }, end: { line: 12, character: 14 } }, context: { diagnostics: [] } });
    const deprecate = actions.result.find((a) => a.title === 'Deprecate pkga.v1.2.0');
    assert.ok(deprecate, JSON.stringify(actions));
    const edits = Object.values(deprecate.edit.changes).flat();
    assert.ok(edits.some((e) => e.newText.includes('olm.deprecations')), JSON.stringify(edits));
  } finally {
    await stop(client);
    rmSync(root, { recursive: true, force: true });
  }
});

/** `text` with the LSP text edits `edits` applied (those of one document). */
function applyEdits(text, edits) {
  const offset = ({ line, character }) => text.split('\n').slice(0, line).reduce((n, l) => n + l.length + 1, 0) + character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

test('bundled server: quick fixes from the edit engine remove the findings they fix', async () => {
  const root = catalogDir();
  writeFileSync(join(root, 'pkga/bundles.yaml'), bundles(['1.0.0', '1.1.0', '1.2.0', '1.2.1', '1.2.2']));
  const client = await startServer(root);
  try {
    const uri = pathToFileURL(join(root, 'pkga/channel.yaml')).href;
    const extra = "  - name: pkga.v1.2.1\n    replaces: pkga.v1.2.0\n  - name: pkga.v1.2.2\n    replaces: pkga.v1.2.1\n    skipRange: '>=9.0.0 <9.1.0'\n";
    let text = channel('pkga.v1.1.0', extra);
    let version = 1;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
    const codes = (ds) => ds.map((d) => d.code).sort();
    let found = await diagnosticsOf(client, uri, (ds) => codes(ds).join() === 'skip-range-covers-nothing,z-stream-gap');
    for (const [code, title, wanted] of [
      ['skip-range-covers-nothing', 'Remove the skipRange of pkga.v1.2.2, which covers nothing', 'z-stream-gap'],
      ['z-stream-gap', 'Add skipRange ">=1.2.0 <1.2.2" to pkga.v1.2.2', ''],
    ]) {
      const finding = found.params.diagnostics.find((d) => d.code === code);
      const actions = await client.request('textDocument/codeAction', { textDocument: { uri }, range: finding.range, context: { diagnostics: [finding] } });
      const fix = actions.result.find((a) => a.kind === 'quickfix');
      assert.equal(fix?.title, title, JSON.stringify(actions.result));
      assert.deepEqual(fix.diagnostics, [finding]);
      text = applyEdits(text, fix.edit.changes[uri]);
      version += 1;
      client.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
      found = await diagnosticsOf(client, uri, (ds) => codes(ds).join() === wanted);
    }
    assert.match(text, /skipRange: ['"]>=1\.2\.0 <1\.2\.2['"]/);
  } finally {
    await stop(client);
    rmSync(root, { recursive: true, force: true });
  }
});

test('bundled server: the quick fix of replaces-skipped does what its message advises', async () => {
  const root = catalogDir();
  const client = await startServer(root);
  try {
    const uri = pathToFileURL(join(root, 'pkga/channel.yaml')).href;
    // 1.2.0 replaces 1.1.0 and skips it: the message says to drop the skip.
    let text = channel('pkga.v1.1.0', '    skips: [pkga.v1.1.0]\n');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const found = await diagnosticsOf(client, uri, (ds) => ds.some((d) => d.code === 'replaces-skipped'));
    const finding = found.params.diagnostics.find((d) => d.code === 'replaces-skipped');
    assert.match(finding.message, /drop it from the skips of "pkga\.v1\.2\.0"$/);
    const actions = await client.request('textDocument/codeAction', { textDocument: { uri }, range: finding.range, context: { diagnostics: [finding] } });
    const fix = actions.result.find((a) => a.kind === 'quickfix');
    assert.equal(fix?.title, 'Drop pkga.v1.1.0 from the skips of pkga.v1.2.0', JSON.stringify(actions.result));
    text = applyEdits(text, fix.edit.changes[uri]);
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
    await diagnosticsOf(client, uri, (ds) => !ds.some((d) => d.code === 'replaces-skipped' || d.code === 'stranded-entry'));
    assert.doesNotMatch(text, /skips: \[pkga\.v1\.1\.0\]/);
  } finally {
    await stop(client);
    rmSync(root, { recursive: true, force: true });
  }
});

test('bundled server: malformed JSON and unknown methods get error responses, then shutdown and exit', async () => {
  const root = catalogDir();
  const client = await startServer(root);
  try {
    client.sendRaw('{"jsonrpc": "2.0", "id": 99, "method": ');
    const parse = await client.waitFor((m) => m.error?.code === -32700);
    assert.equal(parse.id, null);
    client.sendRaw('[1, 2]');
    const invalid = await client.waitFor((m) => m.error?.code === -32600);
    assert.equal(invalid.id, null);
    const unknown = await client.request('olm/noSuchMethod', {});
    assert.equal(unknown.error.code, -32601);
    const hover = await client.request('textDocument/hover', { textDocument: { uri: 'file:///elsewhere/x.yaml' }, position: { line: 0, character: 0 } });
    assert.equal(hover.result, null);
  } finally {
    const code = await stop(client);
    assert.equal(code, 0, client.stderr);
    rmSync(root, { recursive: true, force: true });
  }
});

test('bundled server: out-of-order messages: a request before initialize, a change of a document never opened', async () => {
  const root = catalogDir();
  const client = new LspClient(process.execPath, [join(extension, 'server/main.mjs')], { OLM_CATALOG_MODULE: olmModule });
  try {
    const uri = pathToFileURL(join(root, 'pkga/channel.yaml')).href;
    const early = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.equal(early.error.code, -32002);
    const init = await client.request('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: {} });
    assert.ok(init.result.capabilities.hoverProvider);
    client.notify('initialized', {});
    client.notify('textDocument/didChange', { textDocument: { uri, version: 5 }, contentChanges: [{ text: 'garbage: [' }] });
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.equal(hover.result, null);
  } finally {
    assert.equal(await stop(client), 0, client.stderr);
    rmSync(root, { recursive: true, force: true });
  }
});

test('extension: `olm-catalog lsp` when configured or on PATH, else the bundled server', () => {
  const { chooseServer } = createRequire(import.meta.url)(join(extension, 'server-choice.js'));
  const bin = mkdtempSync(join(tmpdir(), 'olm-bin-'));
  const dirOnly = mkdtempSync(join(tmpdir(), 'olm-bin-'));
  try {
    mkdirSync(join(dirOnly, 'olm-catalog'));
    writeFileSync(join(bin, 'olm-catalog'), '#!/bin/sh\n');
    chmodSync(join(bin, 'olm-catalog'), 0o755);
    const base = { configured: '', platform: 'linux', bundled: '/ext/server/main.mjs' };
    assert.deepEqual(chooseServer({ ...base, pathVar: `/nonexistent:${dirOnly}:${bin}` }), { command: join(bin, 'olm-catalog'), args: ['lsp'] });
    assert.deepEqual(chooseServer({ ...base, configured: '/opt/olm-catalog', pathVar: bin }), { command: '/opt/olm-catalog', args: ['lsp'] });
    assert.deepEqual(chooseServer({ ...base, pathVar: `/nonexistent:${dirOnly}` }), { module: '/ext/server/main.mjs' });
    assert.deepEqual(chooseServer({ ...base, pathVar: undefined }), { module: '/ext/server/main.mjs' });
  } finally {
    rmSync(bin, { recursive: true, force: true });
    rmSync(dirOnly, { recursive: true, force: true });
  }
});

test('bundled server on community-v4.20: an entry renamed in its largest file is found there; the time to diagnostics is printed', async () => {
  const root = join(process.env.REPO, '../shared/catalogs/fbc/community-v4.20');
  const file = join(root, 'dell-csm-operator/catalog.yaml');
  const uri = pathToFileURL(file).href;
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('- name: dell-csm-operator.v'));
  const client = await startServer(root);
  try {
    // A round trip after `initialized`: the findings of the catalog as read are all in; drop them.
    await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    client.messages.length = 0;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: lines.join('\n') } });
    const end = { line: at, character: lines[at].length };
    const times = [];
    for (let version = 2; version < 12; version += 1) {
      const renamed = version % 2 === 0;
      const range = renamed ? { start: end, end } : { start: end, end: { line: at, character: end.character + 1 } };
      const start = performance.now();
      client.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: renamed ? 'x' : '' }] });
      const published = await diagnosticsOf(client, uri);
      times.push(performance.now() - start);
      const dangling = published.params.diagnostics.filter((d) => d.code === 'entry-without-bundle' && d.range.start.line === at);
      assert.equal(dangling.length, renamed ? 1 : 0, JSON.stringify(published.params.diagnostics.slice(0, 3)));
    }
    times.sort((a, b) => a - b);
    console.log(`bundled server, community-v4.20 dell-csm-operator/catalog.yaml (${lines.length} lines): didChange → publishDiagnostics median ${times[5].toFixed(1)} ms, max ${times[9].toFixed(1)} ms`);
  } finally {
    await stop(client);
  }
});

/** shutdown then exit; the exit code. */
async function stop(client) {
  const shutdown = await client.request('shutdown', null);
  assert.equal(shutdown.result, null);
  client.notify('exit', null);
  return client.exited;
}

test('vsce package: the .vsix carries the extension, the server and the WebAssembly module; its server runs', async () => {
  const out = mkdtempSync(join(tmpdir(), 'olm-vsix-'));
  const root = catalogDir();
  try {
    const vsix = join(out, 'olm-catalog.vsix');
    execFileSync('npx', ['--no-install', 'vsce', 'package', '--skip-license', '--out', vsix], {
      cwd: extension,
      env: { ...process.env, OLM_CATALOG_PKG: join(olmModule, '..') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A .vsix is a zip: listed and unpacked by Python's zipfile (python3 is a `make setup` requirement).
    const listing = execFileSync('python3', ['-m', 'zipfile', '-l', vsix]).toString();
    for (const entry of [
      'extension/package.json',
      'extension/extension.js',
      'extension/server-choice.js',
      'extension/server/main.mjs',
      'extension/olm-catalog/node.js',
      'extension/olm-catalog/registry.js',
      'extension/olm-catalog/registry-node.js',
      'extension/olm-catalog/dist/node-full/olm_catalog_bg.wasm',
      'extension/node_modules/vscode-languageclient/package.json',
      'extension/node_modules/vscode-languageserver/package.json',
    ]) {
      assert.ok(listing.includes(entry), `${entry} missing from:\n${listing}`);
    }
    assert.ok(!listing.includes('node_modules/@vscode/vsce'), listing);
    // The unpacked extension's own server, on its own copy of the module, finds the catalog's problem.
    execFileSync('python3', ['-m', 'zipfile', '-e', vsix, join(out, 'unpacked')]);
    const client = await startServer(root, join(out, 'unpacked/extension/server/main.mjs'), { OLM_CATALOG_MODULE: '' });
    const published = await diagnosticsOf(client, pathToFileURL(join(root, 'pkga/channel.yaml')).href);
    assert.ok(published.params.diagnostics.some((d) => d.code === 'multiple-channel-heads'), JSON.stringify(published));
    assert.equal(await stop(client), 0, client.stderr);
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
});
