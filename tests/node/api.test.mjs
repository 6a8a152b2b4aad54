// The npm package through its real `exports` map, in Node: results agree with the native CLI,
// shapes match index.d.ts, errors are structured, and an internal panic does not poison the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
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

const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object'
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);

test('validate: a real catalog is valid, with the same findings as the native CLI', () => {
  for (const name of ['openshift-optional-v4.17', 'community-v4.20']) {
    const dir = join(catalogs, name);
    const report = olm.validate(olm.readCatalog(dir));
    assert.equal(report.valid, true);
    const nodeCli = run(cli, ['validate', '--format', 'json', dir]);
    const nativeCli = run(native, ['validate', '--format', 'json', dir]);
    assert.equal(nodeCli.code, 0, nodeCli.err);
    assert.equal(nativeCli.code, 0, nativeCli.err);
    assert.deepEqual(sortKeys(JSON.parse(nodeCli.out)), sortKeys(JSON.parse(nativeCli.out)));
    assert.equal(report.diagnostics.length, JSON.parse(nativeCli.out).diagnostics.length);
  }
});

test('validate: {lints: false} reports only what opm checks', () => {
  const files = olm.readCatalog(join(catalogs, 'community-v4.20'));
  assert.ok(olm.validate(files).diagnostics.length > 0);
  assert.equal(olm.validate(files, { lints: false }).diagnostics.length, 0);
  const r = run(cli, ['validate', '--format', 'json', '--no-lints', join(catalogs, 'community-v4.20')]);
  assert.equal(JSON.parse(r.out).diagnostics.length, 0);
});

test('validate: an invalid catalog reports located diagnostics shaped like the types', () => {
  const content = readFileSync(join(repo, 'www/examples/broken/demo/catalog.yaml'));
  const report = olm.validate([{ path: 'demo/catalog.yaml', content }]);
  assert.equal(report.valid, false);
  assert.deepEqual(Object.keys(report).sort(), ['diagnostics', 'passed', 'valid']);
  for (const d of report.diagnostics) {
    for (const k of ['code', 'severity', 'message', 'file', 'line', 'column', 'pointer']) assert.ok(k in d, k);
    assert.ok(['error', 'warning', 'note'].includes(d.severity));
    assert.equal(typeof d.line, 'number');
  }
  const nativeOut = JSON.parse(run(native, ['validate', '--format', 'json', join(repo, 'www/examples/broken')]).out);
  assert.deepEqual(report.diagnostics.map((d) => [d.code, d.line, d.column]), nativeOut.diagnostics.map((d) => [d.code, d.line, d.column]));
});

test('Node and native CLIs agree on text output and exit codes', () => {
  const dir = join(repo, 'www/examples/broken');
  const a = run(cli, ['validate', dir]);
  const b = run(native, ['validate', dir]);
  assert.equal(a.code, 1);
  assert.equal(a.code, b.code);
  assert.equal(a.out, b.out);
  const e = run(cli, ['validate', '/nonexistent']);
  assert.equal(e.code, 2);
  assert.equal(run(cli, ['frobnicate']).code, 2);
});

test('SARIF output for code scanning', () => {
  const r = run(cli, ['validate', '--format', 'sarif', join(repo, 'www/examples/broken')]);
  assert.equal(r.code, 1);
  const s = JSON.parse(r.out);
  assert.equal(s.version, '2.1.0');
  const results = s.runs[0].results;
  assert.ok(results.length >= 5);
  const first = results[0];
  assert.ok(first.ruleId && first.message.text);
  assert.ok(first.locations[0].physicalLocation.region.startLine > 0);
  assert.ok(s.runs[0].tool.driver.rules.some((rule) => rule.id === first.ruleId));
});

test('catalog handle: packages, graphs, paths and exports match the native CLI', () => {
  const dir = join(catalogs, 'community-v4.20');
  const catalog = olm.loadCatalog(olm.readCatalog(dir));
  const pkgs = olm.packages(catalog);
  assert.equal(pkgs.length, 37);
  const pkg = pkgs.find((p) => p.name === 'aws-neuron-operator');
  assert.deepEqual(Object.keys(pkg).sort(), ['bundles', 'channels', 'defaultChannel', 'deprecated', 'description', 'icon', 'name']);
  // An icon is a data: URL of the catalog's bytes (the module hands them over; the package encodes them).
  const icon = /^data:image\/png;base64,([A-Za-z0-9+/]+=*)$/.exec(pkgs.find((p) => p.name === 'alloydb-omni-operator').icon);
  assert.ok(icon, 'alloydb-omni-operator has a PNG icon');
  const png = Buffer.from(icon[1], 'base64');
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a');
  assert.equal(png.toString('base64'), icon[1]);
  assert.equal(pkg.icon, null);
  const g = olm.channelGraph(catalog, 'aws-neuron-operator', 'Fast');
  assert.deepEqual(Object.keys(g).sort(), ['byVersion', 'channel', 'deprecated', 'edges', 'fans', 'head', 'isDefault', 'nodes', 'orderError', 'package']);
  assert.deepEqual(Object.keys(g.nodes[0]).sort(), ['channels', 'deprecated', 'head', 'name', 'onV0Chain', 'skipped', 'stranded', 'version', 'virtual']);
  const nativeGraph = JSON.parse(run(native, ['graph', dir, '--package', 'aws-neuron-operator', '--channel', 'Fast']).out);
  assert.deepEqual(sortKeys(g), sortKeys(nativeGraph));
  const path = olm.upgradePath(catalog, { package: 'aws-neuron-operator', channel: 'Fast', from: 'aws-neuron-operator.v0.0.3' });
  const nativePath = JSON.parse(run(native, ['path', dir, '--package', 'aws-neuron-operator', '--channel', 'Fast', '--from', 'aws-neuron-operator.v0.0.3', '--format', 'json']).out);
  // The CLI's path also says which steps the CRDs make unsafe; in JS that is `crdSafety()`'s.
  assert.ok(Array.isArray(nativePath.crdSafety));
  delete nativePath.crdSafety;
  assert.deepEqual(path, nativePath);
  const mermaid = olm.toMermaid(catalog, { package: 'kubevirt-wol', v0Semantics: true });
  assert.equal(mermaid, run(native, ['graph', dir, '--package', 'kubevirt-wol', '--format', 'mermaid', '--v0-semantics']).out);
  assert.match(olm.toDot(catalog, 'kubevirt-wol'), /^digraph/);
  catalog.free();
  assert.throws(() => catalog.packages(), (e) => e.name === 'OlmCatalogError' && e.code === 'freed');
});

test('Node CLI: graph of a package the catalog lacks fails as the native CLI does, in every format', () => {
  const dir = join(catalogs, 'kube-descheduler');
  for (const format of ['json', 'mermaid', 'dot']) {
    const args = ['graph', dir, '--package', 'nope', '--format', format];
    const [n, r] = [run(cli, args), run(native, args)];
    assert.equal(n.code, 2, format);
    assert.equal(n.code, r.code, format);
    assert.equal(n.err.split('\n')[0], r.err.split('\n')[0], format);
  }
});

test('misuse throws Error objects with name and code', () => {
  assert.throws(() => olm.validate(42), (e) => e instanceof Error && e.name === 'OlmCatalogError' && e.code === 'invalid-input');
  assert.throws(() => olm.validate([{ path: 1, content: '' }]), (e) => e.code === 'invalid-input');
  const c = olm.loadCatalog([]);
  assert.throws(() => c.channelGraph('nope'), (e) => e.code === 'unknown-package');
  assert.throws(() => c.upgradePath({}), (e) => e.code === 'invalid-input');
});

test('an internal panic does not poison later calls', () => {
  const c = olm.loadCatalog([{ path: 'c.yaml', content: 'schema: olm.package\nname: x\ndefaultChannel: s\n' }]);
  assert.throws(() => olm.__panicForTesting(), (e) => e.name === 'OlmCatalogError' && e.code === 'internal-panic');
  const report = olm.validate([{ path: 'c.yaml', content: 'schema: olm.package\nname: x\ndefaultChannel: s\n' }]);
  assert.equal(report.valid, false);
  assert.throws(() => c.packages(), (e) => e.code === 'stale-handle');
  const again = olm.loadCatalog([{ path: 'c.yaml', content: 'schema: olm.package\nname: x\ndefaultChannel: s\n' }]);
  assert.equal(again.packages().length, 1);
});

test('the .wasm is exported for custom loaders', () => {
  const url = import.meta.resolve('olm-catalog/olm_catalog_bg.wasm');
  assert.match(url, /olm_catalog_bg\.wasm$/);
  // The on-demand modules (browsers load them with `initResolver` and `initTools`) are larger than
  // the core one; the name of the single on-demand module of earlier versions is the resolver's.
  const resolver = import.meta.resolve('olm-catalog/olm_catalog_resolver_bg.wasm');
  const tools = import.meta.resolve('olm-catalog/olm_catalog_tools_bg.wasm');
  const size = (u) => readFileSync(new URL(u)).length;
  assert.ok(size(resolver) > size(url), 'the resolver\'s module is larger than the core');
  assert.ok(size(tools) > size(url), 'the tools\' module is larger than the core');
  assert.equal(import.meta.resolve('olm-catalog/olm_catalog_full_bg.wasm'), resolver);
  execFileSync('node', ['-e', `import('olm-catalog').then(m => { if (typeof m.validate !== 'function') process.exit(1) })`]);
});

test('resolve: every conformance resolve case gives the expected outcome through the wasm build', () => {
  const cases = JSON.parse(readFileSync(join(repo, '../shared/conformance/olm-resolver.json'), 'utf8'))
    .filter((c) => c.kind === 'resolve');
  assert.ok(cases.length > 50);
  for (const c of cases) {
    const r = olm.resolve(c.input);
    assert.equal(r.errorType, c.expect.errorType, `${c.id}: ${r.errors.join('; ')}`);
    const names = r.install.map((i) => i.name);
    if (c.tieBreakDependent) {
      assert.ok(c.expect.acceptableInstalls.some((a) => JSON.stringify(a) === JSON.stringify(names)), c.id);
    } else {
      assert.deepEqual(names, c.expect.install, c.id);
    }
    for (const e of c.expect.errors) assert.ok(r.errors.join('\n').includes(e), `${c.id}: missing ${e}`);
    if (r.errorType === 'NotSatisfiable') assert.ok(r.explanation && r.explanation.children.length > 0, c.id);
  }
});

test('resolve: loaded catalogs attach as catalog sources; Node and native CLIs agree', () => {
  for (const name of ['community.json', 'unsatisfiable.json']) {
    const file = join(repo, 'tests/fixtures/resolve', name);
    const nodeCli = run(cli, ['resolve', '--format', 'json', file]);
    const nativeCli = run(native, ['resolve', '--format', 'json', file]);
    assert.equal(nodeCli.code, nativeCli.code, nodeCli.err);
    assert.deepEqual(JSON.parse(nodeCli.out), JSON.parse(nativeCli.out));
    // The same keys in the same order (the outcome crosses from wasm as JSON text).
    assert.equal(JSON.stringify(JSON.parse(nodeCli.out)), JSON.stringify(JSON.parse(nativeCli.out)));
    const text = run(cli, ['resolve', file]);
    assert.equal(text.out, run(native, ['resolve', file]).out);
  }
  const catalog = olm.loadCatalog(olm.readCatalog(join(repo, 'www/examples/community')));
  try {
    const r = olm.resolve({
      namespace: 'operators',
      catalogs: [{ name: 'community', namespace: 'operators', priority: 0, catalog }],
      subscriptions: [{ name: 's', package: 'nfs-provisioner-operator', channel: 'alpha', catalog: 'community', catalogNamespace: 'operators' }],
    });
    assert.equal(r.errorType, null);
    assert.deepEqual(r.install.map((i) => i.name), ['nfs-provisioner-operator.v0.0.9']);
    assert.match(r.picks[0].why, /head of channel alpha/);
  } finally {
    catalog.free();
  }
});

test('resolve: each install keeps every field, null ones and names beyond ASCII included, as the native CLI gives them', () => {
  const bundle = (name, version) => ({ name, version });
  const problem = {
    namespace: 'ns',
    catalogs: [{
      name: 'cat-é', namespace: 'ns', priority: 0,
      packages: [
        { name: 'pkg-😀', defaultChannel: 'stable', channels: [{ name: 'stable', entries: [{ name: 'a-ü.v1' }, { name: 'a-ü.v2', replaces: 'a-ü.v1' }] }],
          bundles: [bundle('a-ü.v1', '1.0.0'), bundle('a-ü.v2', '2.0.0')] },
        { name: 'plain', defaultChannel: 'fast', channels: [{ name: 'fast', entries: [{ name: 'p.v1' }, { name: 'p.v2', replaces: 'p.v1' }] }],
          bundles: [bundle('p.v1', '1.0.0'), bundle('p.v2', '2.0.0')] },
      ],
    }],
    subscriptions: [
      { name: 's', package: 'pkg-😀', channel: 'stable', catalog: 'cat-é', catalogNamespace: 'ns', startingCSV: 'a-ü.v1' },
      { name: 't', package: 'plain', channel: 'fast', catalog: 'cat-é', catalogNamespace: 'ns' },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'olm-installs-'));
  try {
    const file = join(dir, 'problem.json');
    writeFileSync(file, JSON.stringify(problem));
    const expected = JSON.parse(run(native, ['resolve', '--format', 'json', file]).out).install;
    assert.equal(expected.length, 2);
    assert.ok(expected.some((i) => i.startingCSV !== null) && expected.some((i) => i.replaces === null), 'both kinds of field');
    assert.deepEqual(olm.resolve(problem).install, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('resolve: requirement texts are formatted on demand, the same as the native CLI\'s', () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-required-by-'));
  try {
    const cases = JSON.parse(readFileSync(join(repo, '../shared/conformance/olm-resolver.json'), 'utf8'))
      .filter((c) => c.kind === 'resolve');
    let asked = 0;
    for (const c of cases) {
      const r = olm.resolve(c.input);
      if (!r.picks.length) continue;
      // Not in the outcome: not a field of the picks, not serialized.
      assert.ok(r.picks.every((p) => !('requiredBy' in p)), c.id);
      assert.ok(!JSON.stringify(r).includes('requiredBy'), c.id);
      const file = join(dir, 'problem.json');
      writeFileSync(file, JSON.stringify(c.input));
      const expected = JSON.parse(run(native, ['resolve', '--format', 'json', file]).out).picks.map((p) => p.requiredBy);
      assert.deepEqual(r.picks.map((p, i) => r.requiredBy(i)), expected, c.id);
      assert.deepEqual(r.picks.map((p) => r.requiredBy(p)), expected, c.id);
      // A text exactly when a requester had a requirement.
      assert.deepEqual(r.picks.map((p) => p.requester !== null), expected.map((t) => t !== null), c.id);
      asked += 1;
    }
    assert.ok(asked > 30, `${asked} cases with picks`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Attached catalogs: the texts name every candidate of the channel (up to 50).
  const catalog = olm.loadCatalog(olm.readCatalog(join(repo, 'www/examples/community')));
  const r = olm.resolve({
    namespace: 'operators',
    catalogs: [{ name: 'community', namespace: 'operators', priority: 0, catalog }],
    subscriptions: [{ name: 's', package: 'nfs-provisioner-operator', channel: 'alpha', catalog: 'community', catalogNamespace: 'operators' }],
  });
  assert.match(r.requiredBy(0), /^subscription s requires (at least one of )?community\/operators\/alpha\/nfs-provisioner-operator\.v0\.0\.9/);
  assert.throws(() => r.requiredBy(r.picks.length), (e) => e.code === 'invalid-input');
  assert.throws(() => r.requiredBy({ ...r.picks[0] }), (e) => e.code === 'invalid-input');
  // The texts are formatted by resolving again: the catalog must still be loaded.
  const later = olm.resolve({
    namespace: 'operators',
    catalogs: [{ name: 'community', namespace: 'operators', priority: 0, catalog }],
    subscriptions: [{ name: 's', package: 'nfs-provisioner-operator', channel: 'alpha', catalog: 'community', catalogNamespace: 'operators' }],
  });
  catalog.free();
  assert.throws(() => later.requiredBy(0), (e) => e.code === 'freed');
  assert.equal(typeof r.requiredBy(0), 'string', 'texts already formatted are kept');
});

test('resolve: malformed problems throw structured errors; v1 selection', () => {
  assert.throws(() => olm.resolve([]), (e) => e.name === 'OlmCatalogError' && e.code === 'invalid-input');
  assert.throws(() => olm.resolve({ namespace: 1 }), (e) => e.code === 'invalid-input');
  const v1 = JSON.parse(readFileSync(join(repo, '../shared/conformance/olm-upgrade.json'), 'utf8'))
    .filter((c) => c.kind === 'v1-resolve');
  for (const c of v1) {
    if (c.expect.bundle) assert.equal(olm.resolveV1(c.input).bundle, c.expect.bundle, c.id);
    else assert.throws(() => olm.resolveV1(c.input), (e) => e.code === 'no-bundle' && e.message.includes(c.expect.error), c.id);
  }
});
