// render, templates and convert-template through the npm package: the Node CLI prints exactly
// what the native CLI prints (stdout, stderr, exit code), and the API's results have the shapes
// index.d.ts declares.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const native = process.env.NATIVE_CLI;
const shared = join(repo, '../shared/catalogs');
const cli = join(process.cwd(), 'node_modules/.bin/olm-catalog');
const kubeGreen = join(shared, 'bundles/kube-green');
const community = join(shared, 'fbc/community-v4.20');
const semverTemplate = join(shared, 'templates/kubevirt-wol/semver.yaml');

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Both CLIs on the same arguments: identical stdout, stderr and exit code; the Node result. */
function same(args, expectedCode) {
  const a = run(cli, args);
  const b = run(native, args);
  assert.equal(a.code, b.code, `exit code of ${args.join(' ')}: ${a.err}`);
  if (expectedCode !== undefined) assert.equal(a.code, expectedCode, a.err);
  assert.equal(a.out, b.out, `stdout of ${args.join(' ')}`);
  assert.deepEqual(a.err.split('\n'), b.err.split('\n'), `stderr of ${args.join(' ')}`);
  return a;
}

function assertResultShape(r, kind) {
  const template = kind === 'template' ? ['missingImages'] : [];
  assert.deepEqual(Object.keys(r).sort(), ['catalog', 'diagnostics', 'kind', ...template, 'packages', 'valid']);
  assert.equal(r.kind, kind);
  assert.equal(typeof r.catalog, 'string');
  assert.equal(typeof r.valid, 'boolean');
  for (const p of r.packages) {
    assert.deepEqual(Object.keys(p).sort(), ['content', 'package']);
    assert.equal(typeof p.content, 'string');
  }
  for (const d of r.diagnostics) {
    for (const k of ['code', 'severity', 'message', 'file', 'line', 'column']) assert.ok(k in d, k);
    assert.ok(['error', 'warning'].includes(d.severity));
  }
}

test('render a bundle directory: both CLIs agree, the API gives one bundle', () => {
  const dir = join(kubeGreen, '0.5.2');
  const tmpl = 'quay.io/kube-green/{{.Package}}-bundle:{{.Version}}';
  for (const format of ['json', 'yaml']) same(['render', dir, '--format', format, '--image-ref-template', tmpl], 0);
  same(['render', dir, '--image-ref-template', tmpl, '--migrate-level', 'bundle-object-to-csv-metadata'], 0);
  // Without an image the bundle still renders (opm leaves `image` empty for directories).
  same(['render', dir]);
  const r = olm.render(olm.readCatalog(dir), { imageRefTemplate: tmpl });
  assertResultShape(r, 'bundle-directory');
  const blobs = r.catalog.trim().split(/\n(?=\{)/).map((b) => JSON.parse(b));
  assert.equal(blobs.length, 1);
  assert.equal(blobs[0].schema, 'olm.bundle');
  assert.equal(blobs[0].image, 'quay.io/kube-green/kube-green-bundle:0.5.2');
});

test('render a tree of bundle directories: both CLIs agree, with and without --validate', () => {
  same(['render', kubeGreen]);
  same(['render', kubeGreen, '--format', 'yaml', '--validate']);
  const r = olm.render(olm.readCatalog(kubeGreen));
  assertResultShape(r, 'tree');
  assert.deepEqual(r.packages.map((p) => p.package), ['kube-green']);
  // Several inputs make one catalog, findings named per input.
  same(['render', join(kubeGreen, '0.5.2'), join(kubeGreen, '0.6.0'), '--image-ref-template', 'q/{{.Name}}']);
});

test('render -o DIR writes one catalog per package, as the native CLI does', () => {
  const a = mkdtempSync(join(tmpdir(), 'render-node-'));
  const b = mkdtempSync(join(tmpdir(), 'render-native-'));
  try {
    const x = run(cli, ['render', kubeGreen, '-o', a, '--format', 'yaml']);
    const y = run(native, ['render', kubeGreen, '-o', b, '--format', 'yaml']);
    assert.equal(x.code, y.code);
    assert.equal(x.out, '');
    assert.deepEqual(readdirSync(a), readdirSync(b));
    const file = join('kube-green', 'catalog.yaml');
    assert.equal(readFileSync(join(a, file), 'utf8'), readFileSync(join(b, file), 'utf8'));
  } finally {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
});

test('template against a catalog: both CLIs agree in every format', () => {
  for (const format of ['json', 'yaml', 'mermaid']) {
    same(['template', semverTemplate, '--bundles', community, '--format', format], 0);
  }
  same(['template', semverTemplate, '--validate', '--bundles', community, '--kind', 'semver'], 0);
  const r = olm.expandTemplate(
    { path: 'semver.yaml', content: readFileSync(semverTemplate) },
    [olm.readCatalog(community)],
  );
  assertResultShape(r, 'template');
  assert.equal(r.valid, true, JSON.stringify(r.diagnostics));
  assert.deepEqual(r.packages.map((p) => p.package), ['kubevirt-wol']);
});

test('a template image not found: located diagnostic, exit code 1 from both CLIs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'template-'));
  try {
    const content = 'schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/nowhere/none:1.0.0\n';
    const file = join(dir, 'semver.yaml');
    writeFileSync(file, content);
    const r = olm.expandTemplate({ path: 'semver.yaml', content }, [olm.readCatalog(community)]);
    assert.equal(r.valid, false);
    assert.deepEqual(r.missingImages, ['quay.io/nowhere/none:1.0.0']);
    const d = r.diagnostics.find((x) => x.severity === 'error');
    assert.ok(d, JSON.stringify(r.diagnostics));
    assert.equal(d.file, 'semver.yaml');
    assert.equal(d.line, 4);
    assert.ok(d.column > 0);
    // Both CLIs would pull the image (`--offline`: from the cache only, so no network here) and
    // say so on a line of their own. Both report the same finding.
    const located = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: error\\[template-image-not-found\\]`, 'm');
    const [a, b] = [run(cli, ['template', file, '--bundles', community, '--offline']), run(native, ['template', file, '--bundles', community, '--offline'])];
    assert.match(a.err, /^olm-catalog: warning: quay\.io\/nowhere\/none:1\.0\.0: .*--offline/m);
    assert.equal(a.code, 1, a.err);
    assert.equal(b.code, 1, b.err);
    assert.match(a.err, located);
    assert.equal(a.err.split('\n').find((l) => located.test(l)), b.err.split('\n').find((l) => located.test(l)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('template with bundle directories as sources; --bundles takes several paths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'template-'));
  try {
    const file = join(dir, 'basic.yaml');
    writeFileSync(file, [
      'schema: olm.template.basic',
      'entries:',
      '- schema: olm.package',
      '  name: kube-green',
      '  defaultChannel: alpha',
      '- schema: olm.channel',
      '  package: kube-green',
      '  name: alpha',
      '  entries:',
      '  - name: kube-green.v0.5.2',
      '  - name: kube-green.v0.6.0',
      '    replaces: kube-green.v0.5.2',
      '- schema: olm.bundle',
      '  image: q/kube-green:0.5.2',
      '- schema: olm.bundle',
      '  image: q/kube-green:0.6.0',
      '',
    ].join('\n'));
    const tmpl = ['--image-ref-template', 'q/{{.Package}}:{{.Version}}'];
    same(['template', file, '--bundles', join(kubeGreen, '0.5.2'), join(kubeGreen, '0.6.0'), ...tmpl]);
    same(['template', file, ...tmpl, '--bundles', join(kubeGreen, '0.5.2'), '--bundles', join(kubeGreen, '0.6.0'), '--format', 'mermaid']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('convert-template basic: both CLIs agree; the API gives the same text', () => {
  const dir = join(shared, 'fbc/community-v4.20');
  same(['convert-template', 'basic', dir], 0);
  const yaml = same(['convert-template', 'basic', dir, '--format', 'yaml'], 0);
  assert.equal(olm.convertToBasicTemplate(olm.readCatalog(dir), { format: 'yaml' }), yaml.out);
  // A catalog that does not load: its errors on stderr (named as given), exit code 1.
  const broken = mkdtempSync(join(tmpdir(), 'broken-'));
  try {
    writeFileSync(join(broken, 'catalog.yaml'), 'schema: olm.package\nname: x\n---\nschema: olm.channel\n  bad: [\n');
    for (const path of [broken, join(broken, 'catalog.yaml')]) {
      const r = same(['convert-template', 'basic', path], 1);
      assert.match(r.err, new RegExp(`^${join(broken, 'catalog.yaml')}:5:\\d+: error\\[yaml-syntax\\]`));
    }
  } finally {
    rmSync(broken, { recursive: true, force: true });
  }
});

test('usage errors exit with code 2 from both CLIs', () => {
  for (const args of [
    ['render', kubeGreen, '--format', 'toml'],
    ['render', kubeGreen, '--migrate-level', 'nope'],
    ['render'],
    ['template', semverTemplate, '--bundles', community, '--kind', 'weird'],
    ['convert-template', 'semver', community],
    ['render', '/nonexistent'],
  ]) {
    assert.equal(run(cli, args).code, 2, args.join(' '));
    assert.equal(run(native, args).code, 2, args.join(' '));
  }
  // Without --bundles both CLIs pull the template's images (here `--offline` from an empty
  // cache: none found, exit 1), and say the same.
  const env = { XDG_CACHE_HOME: join(tmpdir(), 'olm-catalog-no-cache-here') };
  const [a, b] = [run(cli, ['template', semverTemplate, '--offline'], env), run(native, ['template', semverTemplate, '--offline'], env)];
  assert.equal(a.code, 1, a.err);
  assert.equal(b.code, 1, b.err);
  assert.equal(a.err, b.err);
});

test('misuse of the API throws OlmCatalogError with code invalid-input', () => {
  const files = olm.readCatalog(join(kubeGreen, '0.5.2'));
  const invalid = (e) => e instanceof Error && e.name === 'OlmCatalogError' && e.code === 'invalid-input';
  assert.throws(() => olm.render(files, { format: 'toml' }), invalid);
  assert.throws(() => olm.render(files, { migrateLevel: 'nope' }), invalid);
  assert.throws(() => olm.render(files, { nope: true }), invalid);
  const template = { path: 't.yaml', content: 'schema: olm.semver\n' };
  assert.throws(() => olm.expandTemplate(template, [], { kind: 'weird' }), invalid);
  assert.throws(() => olm.expandTemplate(template, 'nope'), invalid);
  assert.throws(() => olm.expandTemplate(template, [], { format: 'mermaid' }), invalid);
  assert.throws(() => olm.convertToBasicTemplate(files, { format: 'xml' }), invalid);
});
