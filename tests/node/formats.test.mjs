// CI output formats and catalog diffs through the npm package: `formatDiagnostics`,
// `diffCatalogs`, and the Node CLI printing byte for byte what the native CLI prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const native = process.env.NATIVE_CLI;
const catalogs = join(repo, '../shared/catalogs/fbc');
const cli = join(process.cwd(), 'node_modules/.bin/olm-catalog');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const VALID = `schema: olm.package
name: foo
defaultChannel: stable
---
schema: olm.channel
package: foo
name: stable
entries:
- name: foo.v1.0.0
---
schema: olm.bundle
package: foo
name: foo.v1.0.0
image: quay.io/foo/bundle:v1.0.0
properties:
- type: olm.package
  value: {packageName: foo, version: 1.0.0}
`;
const TWO = `${VALID}---\nschema: olm.channel\npackage: foo\nname: fast\nentries:\n- name: foo.v1.0.0\n`;
// An error (bad image), with a warning-level lint next to it.
const BAD = VALID.replace('quay.io/foo/bundle', 'quay.io/Foo/bundle').replace('defaultChannel: stable', 'defaultChannel: stable\ndescription: "a | pipe, 100% <b>"');

function fixture() {
  const d = mkdtempSync(join(tmpdir(), 'olm-formats-'));
  for (const [dir, content] of [['old', TWO], ['new', VALID], ['bad', BAD]]) {
    mkdirSync(join(d, dir, 'foo'), { recursive: true });
    writeFileSync(join(d, dir, 'foo/catalog.yaml'), content);
  }
  return d;
}

/** A workflow command parsed back: command, properties, message (unescaped). */
function parseGithub(line) {
  const unescape = (s) => s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%3A', ':').replaceAll('%2C', ',').replaceAll('%25', '%');
  const m = /^::(\w+) ([^:]*)::(.*)$/s.exec(line);
  assert.ok(m, line);
  const props = Object.fromEntries(m[2].split(',').map((p) => p.split('=')).map(([k, v]) => [k, unescape(v)]));
  return { command: m[1], props, message: unescape(m[3]) };
}

/** Well-formed enough: every tag closed in order; returns the element names seen. */
function checkXml(xml) {
  const body = xml.replace(/^<\?xml[^>]*\?>\n/, '');
  assert.ok(!/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;)/.test(body), 'bare &');
  const stack = [];
  const names = [];
  for (const [, close, name, , self] of body.matchAll(/<(\/?)([\w-]+)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>/g)) {
    if (close) assert.equal(stack.pop(), name);
    else {
      names.push(name);
      if (!self) stack.push(name);
    }
  }
  assert.deepEqual(stack, []);
  assert.equal(body.replace(/<[^>]*>/g, '').includes('<'), false);
  return names;
}

test('formatDiagnostics: SARIF structure, GitHub lines, Markdown table, JUnit XML', () => {
  const report = olm.validate([{ path: 'foo/catalog.yaml', content: BAD }]);
  const ds = report.diagnostics;
  const errors = ds.filter((d) => d.severity === 'error').length;
  assert.ok(errors >= 1);

  const sarif = JSON.parse(olm.formatDiagnostics(ds, { format: 'sarif' }));
  assert.equal(sarif.version, '2.1.0');
  assert.match(sarif.$schema, /sarif-2\.1\.0/);
  assert.equal(sarif.runs[0].tool.driver.name, 'olm-catalog');
  assert.equal(sarif.runs[0].results.length, ds.length);
  for (const [r, d] of sarif.runs[0].results.map((r, i) => [r, ds[i]])) {
    assert.equal(r.ruleId, d.code);
    assert.equal(r.level, d.severity);
    assert.equal(r.message.text, d.message);
    assert.equal(r.locations[0].physicalLocation.artifactLocation.uri, d.file);
  }

  const lines = olm.formatDiagnostics(ds, { format: 'github' }).trimEnd().split('\n');
  assert.equal(lines.length, ds.length);
  lines.forEach((line, i) => {
    const { command, props, message } = parseGithub(line);
    assert.equal(command, ds[i].severity === 'note' ? 'notice' : ds[i].severity);
    assert.deepEqual(props, { file: ds[i].file, line: String(ds[i].line), col: String(ds[i].column), title: ds[i].code });
    assert.ok(message.startsWith(ds[i].message));
  });

  const md = olm.formatDiagnostics(ds, { format: 'markdown', valid: report.valid });
  const mdLines = md.trimEnd().split('\n');
  assert.equal(mdLines[0], '### olm-catalog validate');
  assert.match(mdLines[2], /^\*\*invalid: \d+ errors?, \d+ warnings?/);
  const rows = mdLines.filter((l) => l.startsWith('|'));
  assert.equal(rows.length, ds.length + 2);
  for (const row of rows) assert.equal(row.replaceAll('\\|', '').split('|').length, 6, row);

  const xml = olm.formatDiagnostics(ds, { format: 'junit' });
  const names = checkXml(xml);
  assert.equal(names.filter((n) => n === 'testsuite').length, 1);
  assert.equal(names.filter((n) => n === 'testcase').length, ds.length);
  assert.equal(names.filter((n) => n === 'failure').length, errors);

  assert.throws(() => olm.formatDiagnostics(ds, { format: 'html' }), { code: 'invalid-input' });
});

test('diffCatalogs: file lists or loaded catalogs give the same CatalogDiff', () => {
  const old = [{ path: 'foo/catalog.yaml', content: TWO }];
  const neu = [{ path: 'foo/catalog.yaml', content: VALID }];
  const d = olm.diffCatalogs(old, neu);
  assert.deepEqual(d.findings.map((f) => f.code), ['update-channel-removed']);
  assert.equal(d.packages[0].channels[0].kind, 'removed');
  assert.equal(d.safety[0].rows[0].new, null);
  const a = olm.loadCatalog(old);
  const b = olm.loadCatalog(neu);
  assert.deepEqual(olm.diffCatalogs(a, b), d);
  assert.deepEqual(olm.diffCatalogs(old, b), d);
  const same = olm.diffCatalogs(old, old);
  assert.deepEqual([same.packages, same.findings, same.pathsChanged, d.pathsChanged], [[], [], false, true]);
  assert.deepEqual(olm.diffCatalogs(old, neu, { package: 'bar' }).findings, []);
  const { text, failed } = olm.diffCatalogsText(a, b, { format: 'json' });
  assert.equal(failed, true);
  assert.deepEqual(JSON.parse(text), d);
  a.free();
  b.free();
  assert.throws(() => olm.diffCatalogs(old, neu, { pkg: 'x' }), { code: 'invalid-input' });
  assert.throws(() => olm.diffCatalogs('old', neu), { code: 'invalid-input' });
});

test('Node CLI validate prints what the native CLI prints, in every format', () => {
  const d = fixture();
  for (const format of ['text', 'json', 'sarif', 'github', 'markdown', 'junit']) {
    for (const target of [join(d, 'bad'), join(d, 'new'), join(d, 'bad/foo/catalog.yaml')]) {
      const n = run(native, ['validate', '--format', format, target]);
      const j = run(cli, ['validate', '--format', format, target]);
      assert.equal(j.out, n.out, `${format} ${target}`);
      assert.equal(j.code, n.code, `${format} ${target}`);
    }
  }
});

test('Node CLI diff prints what the native CLI prints, in every format', () => {
  const d = fixture();
  for (const format of ['text', 'json', 'markdown', 'sarif', 'github', 'junit']) {
    for (const [a, b, extra] of [['old', 'new', []], ['new', 'old', []], ['old', 'old', []], ['old', 'new', ['--package', 'bar']]]) {
      const args = ['diff', '--format', format, join(d, a), join(d, b), ...extra];
      const n = run(native, args);
      const j = run(cli, args);
      assert.equal(j.out, n.out, args.join(' '));
      assert.equal(j.code, n.code, args.join(' '));
    }
  }
  const k = join(catalogs, 'kube-descheduler');
  for (const format of ['markdown', 'github', 'json']) {
    const args = ['diff', '--format', format, join(k, 'v4.16'), join(k, 'v4.20')];
    const n = run(native, args);
    const j = run(cli, args);
    assert.equal(n.code, 1);
    assert.equal(j.out, n.out, format);
    assert.equal(j.code, n.code);
  }
  assert.equal(run(cli, ['diff', join(d, 'old')]).code, 2);
  assert.equal(run(cli, ['diff', '--format', 'dot', join(d, 'old'), join(d, 'new')]).code, 2);
});

test('Node CLI: --color as the native CLI: always colours as it does, never and a pipe do not, NO_COLOR and CLICOLOR_FORCE', () => {
  const broken = join(repo, 'www/examples/broken');
  const runEnv = (cmd, args, env) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '', CLICOLOR_FORCE: '', ...env } });
    return r.stdout;
  };
  const always = runEnv(cli, ['validate', broken, '--color', 'always'], {});
  assert.match(always, /\x1b\[1m\x1b\[31minvalid\x1b\[0m: 5 errors, 1 warning\n$/);
  assert.match(always, /\x1b\[1m\x1b\[31merror\x1b\[0m\x1b\[1m\[invalid-image\]\x1b\[0m: /);
  assert.equal(always, runEnv(native, ['validate', broken, '--color', 'always'], {}), 'byte for byte the native CLI');
  const plain = runEnv(cli, ['validate', broken], {});
  assert.doesNotMatch(plain, /\x1b/, 'a pipe is not coloured');
  assert.equal(plain, runEnv(cli, ['validate', broken, '--color=never'], { CLICOLOR_FORCE: '1' }));
  assert.equal(runEnv(cli, ['validate', broken, '--color', 'auto'], { NO_COLOR: '1' }), plain);
  assert.equal(runEnv(cli, ['validate', broken], { CLICOLOR_FORCE: '1' }), always, 'CLICOLOR_FORCE colours a pipe');
  assert.equal(runEnv(cli, ['validate', broken, '--color', 'always'], { NO_COLOR: '1' }), always, 'always wins over NO_COLOR');
  assert.doesNotMatch(runEnv(cli, ['validate', broken, '--format', 'json', '--color', 'always'], {}), /\x1b/, 'JSON never');
  const bad = spawnSync(cli, ['validate', broken, '--color', 'sometimes'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /invalid --color sometimes/);
});
