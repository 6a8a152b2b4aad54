// Images through the npm package, made by real tools (umoci builds them from directories, skopeo
// writes the oci-archive and docker-archive forms and pushes them): `readImage` gives the files the
// directories hold; the Node CLI reads every transport as the native CLI does (same stdout, stderr
// and exit code); the JS registry client reads from Debian's `docker-registry` started here on
// 127.0.0.1: anonymous, htpasswd basic auth (credentials from auth.json), and a token realm (a
// Node token server here, whose RS256 tokens the registry verifies against its certificate).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { createHash, createSign, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const native = process.env.NATIVE_CLI;
const catalogDir = join(repo, '../shared/catalogs/fbc/openshift-optional-v4.17');
const bundleDir = firstBundle(join(repo, '../shared/catalogs/bundles'));
const cli = join(process.cwd(), 'node_modules/.bin/olm-catalog');
const CONFIGS_LABEL = 'operators.operatorframework.io.index.configs.v1';
const scratch = mkdtempSync(join(tmpdir(), 'olm-node-images-'));
const running = [];
after(() => {
  for (const child of running) child.kill();
  rmSync(scratch, { recursive: true, force: true });
});

function firstBundle(root) {
  for (const op of readdirSync(root).sort()) {
    const versions = existsSync(join(root, op)) ? readdirSync(join(root, op)).sort().reverse() : [];
    const v = versions.find((d) => existsSync(join(root, op, d, 'manifests')) && existsSync(join(root, op, d, 'metadata')));
    if (v) return join(root, op, v);
  }
  throw new Error('no bundle directory');
}

const sh = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const at = (p) => join(scratch, p);

function skopeo(from, to, extra = []) {
  const policy = at('policy.json');
  if (!existsSync(policy)) writeFileSync(policy, '{"default":[{"type":"insecureAcceptAnything"}]}');
  sh('skopeo', ['--policy', policy, 'copy', '-q', ...extra, from, to]);
}

/** A catalog image as tests/images/build.rs makes it: two layers, the second whiting out a package. */
function umociCatalog(layout, tag) {
  const image = `${at(layout)}:${tag}`;
  if (!existsSync(at(layout))) sh('umoci', ['init', '--layout', at(layout)]);
  sh('umoci', ['new', '--image', image]);
  sh('umoci', ['unpack', '--image', image, at(`${tag}-1`)]);
  sh('cp', ['-a', catalogDir, at(`${tag}-1/rootfs/configs`)]);
  mkdirSync(at(`${tag}-1/rootfs/configs/zz-whited-out`));
  writeFileSync(at(`${tag}-1/rootfs/configs/zz-whited-out/catalog.json`), '{"schema":"olm.package","name":"zz-whited-out"}');
  sh('umoci', ['repack', '--image', image, at(`${tag}-1`)]);
  sh('umoci', ['unpack', '--image', image, at(`${tag}-2`)]);
  rmSync(at(`${tag}-2/rootfs/configs/zz-whited-out`), { recursive: true });
  sh('umoci', ['repack', '--image', image, at(`${tag}-2`)]);
  sh('umoci', ['config', '--image', image, '--config.label', `${CONFIGS_LABEL}=/configs`]);
}

function umociBundle(layout, tag) {
  const image = `${at(layout)}:${tag}`;
  sh('umoci', ['new', '--image', image]);
  for (const d of ['manifests', 'metadata']) sh('umoci', ['insert', '--image', image, join(bundleDir, d), `/${d}`]);
  sh('umoci', ['config', '--image', image,
    '--config.label', 'operators.operatorframework.io.bundle.mediatype.v1=registry+v1',
    '--config.label', 'operators.operatorframework.io.bundle.manifests.v1=manifests/',
    '--config.label', 'operators.operatorframework.io.bundle.metadata.v1=metadata/']);
}

umociCatalog('layout', 'cat');
umociBundle('layout', 'bundle');
skopeo(`oci:${at('layout')}:cat`, `oci-archive:${at('cat.tar')}:cat`);
skopeo(`oci:${at('layout')}:cat`, `docker-archive:${at('docker.tar')}:example.com/cat:v1`);
skopeo(`oci:${at('layout')}:cat`, `oci:${at('zstd')}:cat`, ['--dest-compress-format', 'zstd', '--dest-compress']);
skopeo(`oci:${at('layout')}:bundle`, `docker-archive:${at('bundle.tar')}`);

const sorted = (files) => files.map((f) => [f.path, Buffer.from(f.content).toString('base64')]).sort();

test('readImage gives a catalog image\'s configs from a layout folder, an oci-archive, a docker-archive and zstd layers', () => {
  const expected = sorted(olm.readCatalog(catalogDir));
  const inputs = [
    [olm.readCatalog(at('layout')), { tag: 'cat' }],
    [new Uint8Array(readFileSync(at('cat.tar'))), undefined],
    [new Uint8Array(readFileSync(at('docker.tar'))), { tag: 'example.com/cat:v1' }],
    [olm.readCatalog(at('zstd')), { tag: 'cat' }],
  ];
  for (const [image, options] of inputs) {
    const r = olm.readImage(image, options);
    assert.deepEqual(Object.keys(r).sort(), ['configs', 'digest', 'files', 'findings', 'kind', 'platform']);
    assert.equal(r.kind, 'catalog');
    assert.equal(r.configs, '/configs');
    assert.match(r.digest, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(r.findings, []);
    assert.ok(r.files.every((f) => f.content instanceof Uint8Array));
    // The whited-out package of the first layer is gone; the rest is the directory, byte for byte.
    assert.deepEqual(sorted(r.files), expected);
  }
});

test('readImage gives a bundle image\'s manifests and metadata', () => {
  const expected = sorted(['manifests', 'metadata'].flatMap((d) => olm.readCatalog(join(bundleDir, d)).map((f) => ({ ...f, path: `${d}/${f.path}` }))));
  for (const [image, options] of [[olm.readCatalog(at('layout')), { tag: 'bundle' }], [new Uint8Array(readFileSync(at('bundle.tar')))]]) {
    const r = olm.readImage(image, options);
    assert.equal(r.kind, 'bundle');
    assert.equal(r.configs, null);
    assert.deepEqual(sorted(r.files), expected);
  }
});

test('readImage refuses a tampered blob, an unknown tag and bytes that are no image', () => {
  const files = olm.readCatalog(at('layout'));
  const index = JSON.parse(Buffer.from(files.find((f) => f.path === 'index.json').content));
  const manifest = index.manifests.find((m) => m.annotations['org.opencontainers.image.ref.name'] === 'cat');
  const path = `blobs/sha256/${manifest.digest.slice(7)}`;
  const tampered = files.map((f) => (f.path === path ? { path, content: new Uint8Array([...f.content, 0x20]) } : f));
  const refused = (image, options, pattern) => assert.throws(() => olm.readImage(image, options), (e) => {
    assert.equal(e.code, 'invalid-image');
    assert.match(e.message, pattern);
    return true;
  });
  refused(tampered, { tag: 'cat' }, new RegExp(manifest.digest.slice(7)));
  refused(files, { tag: 'nope' }, /nope/);
  refused(new Uint8Array([1, 2, 3]), undefined, /./);
});

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Both CLIs on the same arguments: identical stdout, stderr and exit code. */
function same(args, expectedCode) {
  const a = run(cli, args);
  const b = run(native, args);
  assert.equal(a.code, b.code, `exit code of ${args.join(' ')}: ${a.err} / ${b.err}`);
  if (expectedCode !== undefined) assert.equal(a.code, expectedCode, a.err);
  assert.equal(a.out, b.out, `stdout of ${args.join(' ')}`);
  assert.equal(a.err, b.err, `stderr of ${args.join(' ')}`);
  return a;
}

test('the Node CLI reads oci:, oci-archive: and docker-archive: images as the native CLI does', () => {
  const catalogs = [`oci:${at('layout')}:cat`, `oci-archive:${at('cat.tar')}`, `docker-archive:${at('docker.tar')}`, `oci:${at('zstd')}:cat`];
  for (const image of catalogs) {
    const r = same(['validate', image, '--format', 'json']);
    const report = JSON.parse(r.out);
    assert.ok(report.diagnostics.length > 0, 'the catalog has findings to locate');
    assert.ok(report.diagnostics.every((d) => d.file.startsWith(`${image}@sha256:`) && d.file.includes(':/configs/')), r.out);
    same(['graph', image, '--package', 'metallb-operator', '--format', 'mermaid'], 0);
  }
  same(['diff', `oci-archive:${at('cat.tar')}`, `docker-archive:${at('docker.tar')}`, '--format', 'json']);
  // A bundle image renders as `opm render IMAGE`: the reference as given is its image.
  const bundle = `oci:${at('layout')}:bundle`;
  const r = same(['render', bundle], 0);
  assert.ok(r.out.includes(`"image": "${bundle}"`), r.out);
  // A template naming that bundle image finds it in `--bundles`.
  const { package: pkg, name } = JSON.parse(r.out);
  const template = at('template.yaml');
  writeFileSync(template, `schema: olm.template.basic\nentries:\n  - schema: olm.package\n    name: ${pkg}\n    defaultChannel: stable\n`
    + `  - schema: olm.channel\n    package: ${pkg}\n    name: stable\n    entries:\n      - name: ${name}\n  - schema: olm.bundle\n    image: ${bundle}\n`);
  const expanded = same(['template', template, '--bundles', bundle], 0);
  assert.ok(expanded.out.includes(`"image": "${bundle}"`), expanded.out);
  // A docker-archive from standard input.
  const stdin = spawnSync(cli, ['validate', 'docker-archive:-', '--format', 'json'], { input: readFileSync(at('docker.tar')), encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.deepEqual(JSON.parse(stdin.stdout).diagnostics.length, JSON.parse(same(['validate', `docker-archive:${at('docker.tar')}`, '--format', 'json']).out).diagnostics.length);
  // Refusals: exit code 2 and the reference named.
  const bad = run(cli, ['validate', `oci:${at('layout')}:nope`]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /oci:.*:nope/);
});

async function freePort() {
  const server = createNetServer();
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/** Debian's docker-registry on 127.0.0.1 (`auth`: the config's `auth:` section, YAML; `data`: its storage). */
async function registry(name, auth = '', data = 'registry-data') {
  const port = await freePort();
  const config = at(`${name}.yml`);
  writeFileSync(config, `version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: ${at(data)}\nhttp:\n  addr: 127.0.0.1:${port}\n${auth}`);
  const child = spawn('docker-registry', ['serve', config], { stdio: 'ignore' });
  running.push(child);
  for (let i = 0; ; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/v2/`);
      return `127.0.0.1:${port}`;
    } catch (e) {
      if (i > 200) throw new Error(`docker-registry did not start: ${e.message}`);
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
}

const insecureConf = (addr) => `[[registry]]\nlocation = "${addr}"\ninsecure = true\n`;

/** The environment of the CLIs' registry runs: no auth files but those written in the scratch `home`, its own cache. */
const isolated = () => ({ HOME: at('home'), REGISTRY_AUTH_FILE: '', XDG_RUNTIME_DIR: '', XDG_CACHE_HOME: at('cache') });

/** The Node CLI with `HOME` in the scratch directory (no auth files but those written there). */
function nodeCli(args, env = {}) {
  return run(cli, [...args, '--tls-verify=false'], { ...isolated(), ...env });
}

/** `run` without blocking this process, whose servers (a token realm, a proxy) must answer the CLI. */
function runAsync(cmd, args, env = {}) {
  return new Promise((ok) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code) => ok({ code, out, err }));
  });
}

/** `nodeCli` without blocking this process. */
const nodeCliAsync = (args, env = {}) => runAsync(cli, [...args, '--tls-verify=false'], { ...isolated(), ...env });

/** The report with each finding's file cut to its path inside the catalog. */
function cut(json) {
  const report = JSON.parse(json);
  for (const d of report.diagnostics) d.file = d.file.replace(/^.*:\/configs\//, '');
  return report;
}

let anonymous;
test('the JS registry client reads an anonymous registry as the native CLI does', async () => {
  anonymous = await registry('anonymous');
  skopeo(`oci:${at('layout')}:cat`, `docker://${anonymous}/cat:v1`, ['--dest-tls-verify=false']);
  skopeo(`oci:${at('layout')}:bundle`, `docker://${anonymous}/bundle:v1`, ['--dest-tls-verify=false']);
  const reference = `${anonymous}/cat:v1`;
  const node = nodeCli(['validate', reference, '--format', 'json']);
  writeFileSync(at('registries.conf'), insecureConf(anonymous));
  const nat = run(native, ['validate', reference, '--format', 'json', '--no-cache'], { HOME: at('home'), CONTAINERS_REGISTRIES_CONF: at('registries.conf') });
  assert.equal(node.code, nat.code, node.err);
  assert.equal(node.out, nat.out);
  // --tls-verify=false: a registry with no HTTPS answer is read over plain HTTP, by both (as containers/image does).
  assert.equal(run(native, ['validate', reference, '--format', 'json', '--no-cache', '--tls-verify=false'], isolated()).out, nat.out);
  assert.deepEqual(cut(node.out), cut(run(cli, ['validate', catalogDir, '--format', 'json']).out.replaceAll(`${catalogDir}/`, '')));
  // By digest, and a bundle image with its reference as its image.
  const digest = JSON.parse(node.out).diagnostics[0].file.match(/@(sha256:[0-9a-f]{64}):/)[1];
  assert.equal(nodeCli(['validate', `docker://${anonymous}/cat@${digest}`, '--format', 'json']).code, node.code);
  const bundle = nodeCli(['render', `${anonymous}/bundle:v1`]);
  assert.equal(bundle.code, 0, bundle.err);
  assert.ok(bundle.out.includes(`"image": "${anonymous}/bundle:v1"`));
  // A tag and a digest the registry does not have.
  assert.match(nodeCli(['validate', `${anonymous}/cat:missing`]).err, /HTTP 404/);
  const wrong = `${anonymous}/cat@sha256:${'0'.repeat(64)}`;
  assert.equal(nodeCli(['validate', wrong]).code, 2);
});

/** A registry asking for basic auth: the htpasswd entry of tester / s3cret (bcrypt, cost 4). */
async function basicRegistry(name) {
  writeFileSync(at('htpasswd'), 'tester:$2b$04$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5DG\n');
  return registry(name, `auth:\n  htpasswd:\n    realm: test-realm\n    path: ${at('htpasswd')}\n`);
}

test('basic auth: credentials from auth.json, refused without them', async () => {
  const addr = await basicRegistry('basic');
  const reference = `${addr}/cat:v1`;
  const without = nodeCli(['validate', reference]);
  assert.equal(without.code, 2);
  assert.match(without.err, /asks for credentials and none were found/);
  const auth = Buffer.from('tester:s3cret').toString('base64');
  mkdirSync(at('home/.config/containers'), { recursive: true });
  writeFileSync(at('home/.config/containers/auth.json'), JSON.stringify({ auths: { [addr]: { auth } } }));
  const withAuth = nodeCli(['validate', reference, '--format', 'json']);
  assert.deepEqual(cut(withAuth.out), cut(nodeCli(['validate', `${anonymous}/cat:v1`, '--format', 'json']).out));
  writeFileSync(at('wrong.json'), JSON.stringify({ auths: { [addr]: { auth: Buffer.from('tester:nope').toString('base64') } } }));
  const wrong = nodeCli(['validate', reference, '--authfile', at('wrong.json')]);
  assert.match(wrong.err, /HTTP 401 \(credentials refused\)/);
  rmSync(at('home/.config'), { recursive: true });
});

/** A self-signed RSA certificate and key (openssl), for the token server's signatures. */
function signingCertificate(name) {
  sh('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=olm-test-token-issuer',
    '-keyout', at(`${name}.key`), '-out', at(`${name}.crt`)]);
  const der = readFileSync(at(`${name}.crt`), 'utf8').replace(/-----[^-]+-----|\s/g, '');
  return { key: readFileSync(at(`${name}.key`), 'utf8'), x5c: [der], certificate: at(`${name}.crt`) };
}

const b64url = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

test('a token realm: the challenge\'s realm, service and scope, credentials sent to it, a token the registry verifies', async () => {
  const trusted = signingCertificate('trusted');
  let signer = trusted;
  const requests = [];
  const tokens = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.push({ service: url.searchParams.get('service'), scope: url.searchParams.get('scope'), authorization: req.headers.authorization });
    const [type, name, actions] = url.searchParams.get('scope').split(':');
    const granted = req.headers.authorization === `Basic ${Buffer.from('tester:s3cret').toString('base64')}`;
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: 'RS256', typ: 'JWT', x5c: signer.x5c };
    const claims = {
      iss: 'olm-test-issuer', sub: 'tester', aud: url.searchParams.get('service'), exp: now + 300, nbf: now - 10, iat: now,
      jti: randomUUID(), access: granted ? [{ type, name, actions: actions.split(',') }] : [],
    };
    const input = `${b64url(header)}.${b64url(claims)}`;
    const signature = createSign('RSA-SHA256').update(input).sign(signer.key).toString('base64url');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ token: `${input}.${signature}` }));
  });
  await new Promise((ok) => tokens.listen(0, '127.0.0.1', ok));
  after(() => tokens.close());
  const realm = `http://127.0.0.1:${tokens.address().port}/token`;
  const addr = await registry('token', `auth:\n  token:\n    realm: ${realm}\n    service: olm-test-registry\n    issuer: olm-test-issuer\n    rootcertbundle: ${trusted.certificate}\n`);
  const reference = `${addr}/cat:v1`;
  // Anonymous: a token without access, which the registry refuses.
  const anon = await nodeCliAsync(['validate', reference]);
  assert.equal(anon.code, 2);
  assert.match(anon.err, /HTTP 401/);
  assert.deepEqual(requests[0], { service: 'olm-test-registry', scope: 'repository:cat:pull', authorization: undefined });
  // With credentials: sent to the realm, and the registry accepts the signed token.
  writeFileSync(at('auth.json'), JSON.stringify({ auths: { [addr]: { auth: Buffer.from('tester:s3cret').toString('base64') } } }));
  const ok = await nodeCliAsync(['validate', reference, '--format', 'json', '--authfile', at('auth.json')]);
  assert.ok(ok.code === 0 || ok.code === 1, ok.err);
  assert.deepEqual(cut(ok.out), cut(nodeCli(['validate', `${anonymous}/cat:v1`, '--format', 'json']).out));
  assert.equal(requests.at(-1).authorization, `Basic ${Buffer.from('tester:s3cret').toString('base64')}`);
  // The registry checks the signature: a token signed by a certificate it does not trust is refused.
  signer = signingCertificate('untrusted');
  const forged = await nodeCliAsync(['validate', reference, '--authfile', at('auth.json')]);
  assert.equal(forged.code, 2);
  assert.match(forged.err, /HTTP 401/);
  assert.equal(requests.at(-1).authorization, `Basic ${Buffer.from('tester:s3cret').toString('base64')}`);
});

test('parseReference and looksLikeReference read references as containers/image does', () => {
  assert.deepEqual(olm.parseReference('quay.io/org/index:v4.18'), { registry: 'quay.io', repository: 'org/index', tag: 'v4.18', digest: undefined });
  assert.deepEqual(olm.parseReference('docker://busybox'), { registry: 'docker.io', repository: 'library/busybox', tag: undefined, digest: undefined });
  assert.deepEqual(olm.parseReference('localhost:5000/cat@sha256:' + 'a'.repeat(64)).registry, 'localhost:5000');
  assert.throws(() => olm.parseReference('quay.io/Org/x'), /invalid repository name/);
  assert.equal(olm.looksLikeReference('quay.io/org/x:1'), true);
  assert.equal(olm.looksLikeReference('catalog/dir'), false);
});

/** A basic template naming one bundle image, and the package and bundle it names. */
function templateNaming(file, image, rendered) {
  const { package: pkg, name } = JSON.parse(rendered);
  writeFileSync(at(file), `schema: olm.template.basic\nentries:\n  - schema: olm.package\n    name: ${pkg}\n    defaultChannel: stable\n`
    + `  - schema: olm.channel\n    package: ${pkg}\n    name: stable\n    entries:\n      - name: ${name}\n  - schema: olm.bundle\n    image: ${image}\n`);
  return at(file);
}

test('resolve and operatorgroup: catalogs named in problem and check files as images, read by the Node CLI as by the native CLI', () => {
  mkdirSync(at('problems'), { recursive: true });
  const registryCat = `${anonymous}/cat:v1`;
  const catalog = (name, path) => ({ name, namespace: 'operators', priority: 0, path });
  const subscription = (name, pkg, from) => ({ name, package: pkg, channel: '', catalog: from, catalogNamespace: 'operators' });
  const problem = at('problems/resolve.json');
  writeFileSync(problem, JSON.stringify({
    namespace: 'operators',
    // A registry reference as it is; a layout and an archive relative to the problem file.
    catalogs: [catalog('registry', registryCat), catalog('layout', 'oci:../layout:cat'), catalog('archive', 'oci-archive:../cat.tar')],
    subscriptions: [subscription('metallb', 'metallb-operator', 'registry'), subscription('nfd', 'nfd', 'layout'), subscription('ptp', 'ptp-operator', 'archive')],
  }));
  const check = (path) => ({ path, package: 'metallb-operator', bundle: 'metallb-operator.v4.17.0-202409101036', operatorNamespace: 'operators', targetNamespaces: [''] });
  writeFileSync(at('problems/registry-check.json'), JSON.stringify(check(registryCat)));
  writeFileSync(at('problems/layout-check.json'), JSON.stringify(check('docker-archive:../docker.tar')));
  const env = { ...isolated(), CONTAINERS_REGISTRIES_CONF: at('registries.conf') };
  const runs = [
    ['resolve', problem, '--format', 'json'], ['resolve', problem],
    ['operatorgroup', at('problems/registry-check.json'), '--format', 'json'], ['operatorgroup', at('problems/layout-check.json')],
  ];
  for (const args of runs) {
    const nat = run(native, [...args, '--no-cache'], env);
    const node = run(cli, [...args, '--no-cache'], env);
    assert.equal(nat.code, 0, `${args.join(' ')}: ${nat.err}`);
    assert.equal(node.code, nat.code, node.err);
    assert.equal(node.out, nat.out);
    assert.equal(node.err, nat.err);
  }
  const installed = JSON.parse(run(cli, [...runs[0], '--no-cache'], env).out).install.map((b) => `${b.catalog}/${b.package}`);
  assert.deepEqual(installed.sort(), ['archive/ptp-operator', 'layout/nfd', 'registry/metallb-operator']);
  // A problem naming a tag the registry does not have: exit code 2, the reference named.
  writeFileSync(at('problems/missing.json'), JSON.stringify({ namespace: 'operators', catalogs: [catalog('registry', `${anonymous}/cat:missing`)], subscriptions: [] }));
  const missing = run(cli, ['resolve', at('problems/missing.json'), '--no-cache'], env);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cat:missing.*HTTP 404/);
});

test('template: a bundle image missing from --bundles is pulled, by the Node CLI as by the native CLI', () => {
  const image = `${anonymous}/bundle:v1`;
  const template = templateNaming('pulled.yaml', image, nodeCli(['render', image]).out);
  for (const extra of [[], ['--bundles', catalogDir]]) {
    const nat = run(native, ['template', template, '--no-cache', ...extra], { ...isolated(), CONTAINERS_REGISTRIES_CONF: at('registries.conf') });
    assert.equal(nat.code, 0, nat.err);
    assert.ok(nat.out.includes(`"image": "${image}"`), nat.out);
    const node = nodeCli(['template', template, '--no-cache', ...extra]);
    assert.equal(node.code, 0, node.err);
    assert.equal(node.out, nat.out);
    assert.equal(node.err, nat.err);
  }
  // --offline: from the cache alone. An empty cache: a warning, and the image reported missing.
  const offline = nodeCli(['template', template, '--offline'], { XDG_CACHE_HOME: at('empty-cache') });
  assert.equal(offline.code, 1);
  assert.match(offline.err, /^olm-catalog: warning: .*--offline forbids the network$/m);
  assert.match(offline.err, /error\[template-image-not-found\]/);
});

/**
 * A proxy in front of the anonymous registry that forwards every request and records it in `seen`
 * (`METHOD PATH`), and each connection made to it (`connection`).
 */
async function recordingProxy(seen) {
  const server = createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const headers = {};
    for (const h of ['accept', 'range', 'authorization']) if (req.headers[h]) headers[h] = req.headers[h];
    const r = await fetch(`http://${anonymous}${req.url}`, { headers });
    const body = Buffer.from(await r.arrayBuffer());
    const out = {};
    for (const h of ['content-type', 'docker-content-digest', 'content-range']) if (r.headers.get(h)) out[h] = r.headers.get(h);
    res.writeHead(r.status, { ...out, 'content-length': body.length }).end(body);
  });
  server.on('connection', () => seen.push('connection'));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  after(() => { server.closeAllConnections(); server.close(); });
  return `127.0.0.1:${server.address().port}`;
}

/** A cache's parts: its blob files, an image's layers (from its cached manifest) and the files of its kept tree. */
function cacheParts(root, digest) {
  const blob = (d) => join(root, 'olm-catalog/blobs/sha256', d.slice('sha256:'.length));
  const manifest = JSON.parse(readFileSync(blob(digest), 'utf8'));
  const tree = join(root, 'olm-catalog/trees/sha256', digest.slice('sha256:'.length));
  const listed = existsSync(tree) ? JSON.parse(readFileSync(blob(readFileSync(tree, 'utf8').trim()), 'utf8')) : undefined;
  return { blob, tree, layers: manifest.layers.map((l) => blob(l.digest)), files: listed?.map(([, d]) => blob(d)) };
}

const digestOf = (report) => JSON.parse(report).diagnostics[0].file.match(/@(sha256:[0-9a-f]{64}):/)[1];
const sha256File = (file) => `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;

test('the cache: a warm digest read makes no request and unpacks no layer, a tag one manifest request; the same report as cold', async () => {
  const seen = [];
  const proxy = await recordingProxy(seen);
  const env = { XDG_CACHE_HOME: at('warm-cache') };
  const cold = await nodeCliAsync(['validate', `${proxy}/cat:v1`, '--format', 'json'], env);
  assert.ok(cold.code === 0 || cold.code === 1, cold.err);
  const digest = digestOf(cold.out);
  const reference = `${proxy}/cat@${digest}`;
  const unkept = await nodeCliAsync(['validate', reference, '--format', 'json', '--no-cache'], env);
  const parts = cacheParts(at('warm-cache'), digest);
  assert.ok(existsSync(parts.tree), 'the unpacked files are kept under the manifest digest');
  // Every layer corrupted: a warm read does not read them.
  for (const layer of parts.layers) writeFileSync(layer, 'corrupted');
  seen.length = 0;
  const warm = await nodeCliAsync(['validate', reference, '--format', 'json'], env);
  assert.deepEqual(seen, [], 'no request, no connection');
  assert.equal(warm.code, unkept.code, warm.err);
  assert.equal(warm.out, unkept.out);
  assert.equal(warm.err, unkept.err);
  // A tag: the manifest asked for, nothing else.
  seen.length = 0;
  const tagged = await nodeCliAsync(['validate', `${proxy}/cat:v1`, '--format', 'json'], env);
  assert.deepEqual(seen.filter((s) => s !== 'connection'), ['GET /v2/cat/manifests/v1']);
  assert.equal(tagged.out, cold.out);
  // A bundle image: rendered from its kept files as from its layers.
  const bundle = nodeCli(['render', `${anonymous}/bundle:v1`], env);
  assert.equal(bundle.code, 0, bundle.err);
  const trees = readdirSync(at('warm-cache/olm-catalog/trees/sha256')).filter((f) => !f.startsWith('.'));
  assert.equal(trees.length, 2);
  const bundleDigest = `sha256:${trees.find((t) => t !== digest.slice('sha256:'.length))}`;
  for (const layer of cacheParts(at('warm-cache'), bundleDigest).layers) writeFileSync(layer, 'corrupted');
  assert.equal(nodeCli(['render', `${anonymous}/bundle:v1`], env).out, bundle.out);
});

test('the cache: shared with the native CLI both ways, a corrupted kept file read again from the layers, filled by two runs at once', async () => {
  const env = { XDG_CACHE_HOME: at('shared-cache') };
  const digest = digestOf(nodeCli(['validate', `${anonymous}/cat:v1`, '--format', 'json'], env).out);
  const reference = `${anonymous}/cat@${digest}`;
  const parts = cacheParts(at('shared-cache'), digest);
  // The tree the Node CLI kept, the native CLI reads with no network and no layer (all corrupted), and both say the same.
  for (const layer of parts.layers) writeFileSync(layer, 'corrupted');
  const nat = run(native, ['validate', reference, '--format', 'json', '--offline'], { ...isolated(), ...env });
  assert.ok(nat.code === 0 || nat.code === 1, nat.err);
  const node = nodeCli(['validate', reference, '--format', 'json', '--offline'], env);
  assert.equal(node.out, nat.out);
  // A corrupted kept file: detected, the tree read again from the layers (refused offline: they
  // are corrupted too), fetched again online and kept again, then good offline.
  writeFileSync(parts.files[0], '{"schema":"olm.package","name":"corrupted"}');
  assert.equal(nodeCli(['validate', reference, '--offline'], env).code, 2);
  assert.equal(nodeCli(['validate', reference, '--format', 'json'], env).out, nat.out);
  for (const f of cacheParts(at('shared-cache'), digest).files) assert.equal(sha256File(f), `sha256:${f.split('/').pop()}`);
  for (const layer of parts.layers) writeFileSync(layer, 'corrupted');
  assert.equal(nodeCli(['validate', reference, '--format', 'json', '--offline'], env).out, nat.out);
  // The tree the native CLI kept, the Node CLI reads with no network and no layer.
  const nativeEnv = { ...isolated(), XDG_CACHE_HOME: at('native-cache') };
  const fromNative = run(native, ['validate', reference, '--format', 'json', '--tls-verify=false'], nativeEnv);
  assert.equal(fromNative.out, nat.out, fromNative.err);
  for (const layer of cacheParts(at('native-cache'), digest).layers) writeFileSync(layer, 'corrupted');
  assert.equal(nodeCli(['validate', reference, '--format', 'json', '--offline'], { XDG_CACHE_HOME: at('native-cache') }).out, nat.out);
  // Two runs filling one cache at once: both read the image, and what they kept reads back.
  const both = await Promise.all([0, 1].map(() => nodeCliAsync(['validate', reference, '--format', 'json'], { XDG_CACHE_HOME: at('raced-cache') })));
  for (const r of both) assert.equal(r.out, nat.out, r.err);
  assert.equal(nodeCli(['validate', reference, '--format', 'json', '--offline'], { XDG_CACHE_HOME: at('raced-cache') }).out, nat.out);
  assert.deepEqual(readdirSync(at('raced-cache/olm-catalog/blobs/sha256')).filter((f) => f.startsWith('.')), [], 'no temporary file left');
  // --no-cache keeps nothing.
  nodeCli(['validate', `${anonymous}/cat:v1`, '--no-cache'], { XDG_CACHE_HOME: at('unused-cache') });
  assert.equal(existsSync(at('unused-cache/olm-catalog')), false);
});

test('registries.conf: mirrors in order, location rewrites and blocked registries, as the native CLI reads them', async () => {
  const empty = await registry('empty', '', 'empty-data');
  const conf = at('mirrors.conf');
  writeFileSync(conf, `[[registry]]\nprefix = "example.com/org"\nlocation = "example.com/unreachable"\n`
    + `[[registry.mirror]]\nlocation = "${empty}/nothing"\ninsecure = true\n[[registry.mirror]]\nlocation = "${anonymous}"\ninsecure = true\n`);
  mkdirSync(`${conf}.d`, { recursive: true });
  writeFileSync(join(`${conf}.d`, 'blocked.conf'), `[[registry]]\nlocation = "${anonymous}/private"\nblocked = true\n`);
  const env = { ...isolated(), CONTAINERS_REGISTRIES_CONF: conf };
  const args = ['validate', 'example.com/org/cat:v1', '--format', 'json', '--no-cache', '--verbose'];
  const node = run(cli, args, env);
  const nat = run(native, args, env);
  assert.equal(node.code, nat.code, node.err);
  assert.equal(node.out, nat.out);
  assert.equal(node.err, nat.err);
  assert.match(node.err, new RegExp(`read from ${anonymous}/cat$`, 'm'));
  assert.deepEqual(cut(node.out), cut(nodeCli(['validate', `${anonymous}/cat:v1`, '--format', 'json']).out));
  const blocked = run(cli, ['validate', `${anonymous}/private/cat:v1`], env);
  assert.equal(blocked.code, 2);
  assert.match(blocked.err, /blocked by registries\.conf/);
  assert.equal(run(native, ['validate', `${anonymous}/private/cat:v1`], env).code, 2);
});

test('credentials through a docker-credential helper (credHelpers) and REGISTRY_AUTH_FILE, as the native CLI finds them', async () => {
  const addr = await basicRegistry('helper-basic');
  mkdirSync(at('bin'), { recursive: true });
  const helper = at('bin/docker-credential-olmtest');
  writeFileSync(helper, `#!/bin/sh\nread server\n[ "$1" = get ] && [ "$server" = "${addr}" ] || { echo "credentials not found in native keychain"; exit 1; }\necho '{"ServerURL":"${addr}","Username":"tester","Secret":"s3cret"}'\n`, { mode: 0o755 });
  mkdirSync(at('helper-home/.docker'), { recursive: true });
  writeFileSync(at('helper-home/.docker/config.json'), JSON.stringify({ credHelpers: { [addr]: 'olmtest' } }));
  writeFileSync(at('helper.conf'), insecureConf(addr));
  const env = { ...isolated(), HOME: at('helper-home'), PATH: `${at('bin')}:${process.env.PATH}`, CONTAINERS_REGISTRIES_CONF: at('helper.conf') };
  const args = ['validate', `${addr}/cat:v1`, '--format', 'json', '--no-cache'];
  const node = run(cli, args, env);
  assert.ok(node.code === 0 || node.code === 1, node.err);
  assert.deepEqual(cut(node.out), cut(nodeCli(['validate', `${anonymous}/cat:v1`, '--format', 'json']).out));
  assert.equal(run(native, args, env).out, node.out);
  // REGISTRY_AUTH_FILE comes before the others: wrong credentials there are refused.
  writeFileSync(at('wrong-auth.json'), JSON.stringify({ auths: { [addr]: { auth: Buffer.from('tester:nope').toString('base64') } } }));
  const refused = run(cli, args, { ...env, REGISTRY_AUTH_FILE: at('wrong-auth.json') });
  assert.equal(refused.code, 2);
  assert.match(refused.err, /HTTP 401/);
});

/**
 * A proxy in front of the anonymous registry that fails each path's first requests: a manifest
 * with 503, a blob with 429 (`Retry-After: 0`) and then a connection dropped after half its body.
 * `seen` gets `KIND N[ RANGE]` for each request (the Nth to its path, and the range asked).
 */
async function flakyProxy(seen) {
  const upstream = `http://${anonymous}`;
  const tries = new Map();
  const server = createServer(async (req, res) => {
    const n = (tries.get(req.url) ?? 0) + 1;
    tries.set(req.url, n);
    seen.push(`${req.url.includes('/blobs/') ? 'blob' : 'manifest'} ${n}${req.headers.range ? ` ${req.headers.range}` : ''}`);
    if (req.url.includes('/manifests/') && n === 1) return res.writeHead(503).end('busy');
    if (req.url.includes('/blobs/') && n === 1) return res.writeHead(429, { 'retry-after': '0' }).end();
    const headers = {};
    for (const h of ['accept', 'range', 'authorization']) if (req.headers[h]) headers[h] = req.headers[h];
    const r = await fetch(`${upstream}${req.url}`, { headers, redirect: 'follow' });
    const body = Buffer.from(await r.arrayBuffer());
    const out = {};
    for (const h of ['content-type', 'docker-content-digest', 'content-range']) if (r.headers.get(h)) out[h] = r.headers.get(h);
    res.writeHead(r.status, { ...out, 'content-length': body.length });
    if (req.url.includes('/blobs/') && n === 2 && body.length > 1) {
      res.write(body.subarray(0, body.length >> 1));
      setTimeout(() => res.socket.destroy(), 20);
      return undefined;
    }
    return res.end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  after(() => { server.closeAllConnections(); server.close(); });
  return `127.0.0.1:${server.address().port}`;
}

test('retries: 503 and 429 answered again with backoff, a dropped blob read on from where it stopped; a stalled request times out and is retried', async () => {
  const seen = [];
  const proxy = await flakyProxy(seen);
  writeFileSync(at('proxy.conf'), insecureConf(proxy));
  const node = await nodeCliAsync(['validate', `${proxy}/cat:v1`, '--format', 'json', '--no-cache']);
  assert.ok(node.code === 0 || node.code === 1, node.err);
  assert.deepEqual(cut(node.out), cut(nodeCli(['validate', `${anonymous}/cat:v1`, '--format', 'json']).out));
  // The dropped blobs were read on from where they stopped.
  const retried = (list) => list.includes('manifest 2') && list.some((r) => /^blob 3 bytes=[1-9]\d*-$/.test(r));
  assert.ok(retried(seen), seen.join(', '));
  // The native CLI, through a proxy of its own, rides out the same failures to the same report.
  const seenNative = [];
  const nativeProxy = await flakyProxy(seenNative);
  writeFileSync(at('native-proxy.conf'), insecureConf(nativeProxy));
  const nat = await runAsync(native, ['validate', `${nativeProxy}/cat:v1`, '--format', 'json', '--no-cache'], { ...isolated(), CONTAINERS_REGISTRIES_CONF: at('native-proxy.conf') });
  assert.equal(nat.code, node.code, nat.err);
  assert.deepEqual(cut(nat.out), cut(node.out));
  assert.ok(retried(seenNative), seenNative.join(', '));
  // A server that answers a request only once it is asked again: pullImage's timeout gives up on the first.
  let calls = 0;
  const stalling = createServer((req, res) => {
    calls++;
    if (calls === 1) return undefined;
    return fetch(`http://${anonymous}${req.url}`, { headers: { accept: req.headers.accept ?? '*/*' } }).then(async (r) => {
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/octet-stream' });
      res.end(Buffer.from(await r.arrayBuffer()));
    });
  });
  await new Promise((ok) => stalling.listen(0, '127.0.0.1', ok));
  after(() => { stalling.closeAllConnections(); stalling.close(); });
  const pulled = await olm.pullImage(`127.0.0.1:${stalling.address().port}/cat:v1`, { timeout: 300, backoff: 10, insecure: true });
  assert.equal(olm.readImage(pulled.files, { tag: pulled.tag }).kind, 'catalog');
  assert.ok(calls >= 2);
});

/** A test CA and a certificate for 127.0.0.1 it signs (openssl), in `dir`: `ca.crt`, `tls.crt`, `tls.key`, and `certs/ca.crt`. */
function testCa(dir) {
  mkdirSync(join(dir, 'certs'), { recursive: true });
  const f = (n) => join(dir, n);
  sh('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-subj', '/CN=olm-test-ca', '-days', '2']);
  sh('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('tls.key'), '-out', f('tls.csr'), '-subj', '/CN=127.0.0.1']);
  writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  sh('openssl', ['x509', '-req', '-in', f('tls.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('tls.crt'), '-extfile', f('ext.cnf'), '-days', '2']);
  writeFileSync(f('certs/ca.crt'), readFileSync(f('ca.crt')));
  return f;
}

test('TLS: checked against the CA of certs.d or --cert-dir, unchecked with --tls-verify=false or registries.conf insecure, as the native CLI does', async () => {
  const f = testCa(at('tls'));
  const addr = await registry('tls', `  tls:\n    certificate: ${f('tls.crt')}\n    key: ${f('tls.key')}\n`, 'tls-data');
  skopeo(`oci:${at('layout')}:cat`, `docker://${addr}/olm/cat:v1`, ['--dest-cert-dir', f('certs')]);
  writeFileSync(f('empty.conf'), '');
  writeFileSync(f('insecure.conf'), insecureConf(addr));
  const env = { ...isolated(), CONTAINERS_REGISTRIES_CONF: f('empty.conf') };
  const args = ['validate', `${addr}/olm/cat:v1`, '--format', 'json', '--no-cache'];
  const expected = cut(nodeCli(['validate', `${anonymous}/cat:v1`, '--format', 'json']).out);
  const both = (extra, more = {}) => {
    const node = run(cli, [...args, ...extra], { ...env, ...more });
    const nat = run(native, [...args, ...extra], { ...env, ...more });
    assert.equal(node.code, nat.code, `${extra.join(' ')}: ${node.err} / ${nat.err}`);
    assert.equal(node.out, nat.out);
    return node;
  };
  // The test CA is no public root: refused by both.
  const refused = both([]);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /certificate/i);
  assert.deepEqual(cut(both(['--cert-dir', f('certs')]).out), expected);
  assert.deepEqual(cut(both(['--tls-verify=false']).out), expected);
  assert.deepEqual(cut(both([], { CONTAINERS_REGISTRIES_CONF: f('insecure.conf') }).out), expected);
  // The CA in the user's certs.d/HOST.
  const certsD = at(`home/.config/containers/certs.d/${addr}`);
  mkdirSync(certsD, { recursive: true });
  writeFileSync(join(certsD, 'ca.crt'), readFileSync(f('ca.crt')));
  try {
    assert.deepEqual(cut(both([]).out), expected);
    // --cert-dir replaces certs.d: a folder without the CA is refused.
    assert.equal(both(['--cert-dir', at('tls-no-ca')]).code, 2);
  } finally {
    rmSync(at('home/.config/containers/certs.d'), { recursive: true, force: true });
  }
  assert.deepEqual(olm.registryCertificates(addr, f('certs')), [readFileSync(f('ca.crt'), 'utf8')]);
  assert.deepEqual(olm.registryCertificates(addr), []);
});

test('registryEndpoints reads registries.conf entries as containers/image does', () => {
  const entries = [
    { prefix: 'registry.redhat.io/redhat', location: 'internal.example.com/rh', mirror: [{ location: 'mirror.example.com:5000/rh-mirror', insecure: true }] },
    { location: 'localhost:5000', insecure: true },
    { location: 'localhost:5000/private', blocked: true },
    { location: 'q.io', 'mirror-by-digest-only': true, mirror: [{ location: 'm.io' }] },
  ];
  assert.deepEqual(olm.registryEndpoints(entries, 'registry.redhat.io', 'redhat/redhat-operator-index', false), [
    { registry: 'mirror.example.com:5000', repository: 'rh-mirror/redhat-operator-index', insecure: true },
    { registry: 'internal.example.com', repository: 'rh/redhat-operator-index', insecure: false },
  ]);
  // A prefix matches whole components only; the longest wins.
  assert.deepEqual(olm.registryEndpoints(entries, 'registry.redhat.io', 'redhatx/y', false), [{ registry: 'registry.redhat.io', repository: 'redhatx/y', insecure: false }]);
  assert.deepEqual(olm.registryEndpoints(entries, 'localhost:5000', 'cat', false), [{ registry: 'localhost:5000', repository: 'cat', insecure: true }]);
  assert.throws(() => olm.registryEndpoints(entries, 'localhost:5000', 'private/cat', false), /blocked by registries\.conf/);
  assert.equal(olm.registryEndpoints(entries, 'q.io', 'a', false).length, 1);
  assert.equal(olm.registryEndpoints(entries, 'q.io', 'a', true).length, 2);
});

test('diskCache keeps blobs under their digest and an image\'s files under its manifest digest, refuses bytes that are not their digest, and drops a corrupted entry', async () => {
  const root = at('unit-cache');
  const cache = olm.diskCache(root);
  const bytes = new TextEncoder().encode('blob');
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  assert.equal(await cache.get(digest), undefined);
  await assert.rejects(cache.put(digest, new TextEncoder().encode('other')), new RegExp(`${digest}: its bytes have digest sha256:`));
  await cache.put(digest, bytes);
  assert.deepEqual(await cache.get(digest), bytes);
  writeFileSync(join(root, 'blobs/sha256', digest.slice(7)), 'bad!');
  assert.equal(await cache.get(digest), undefined);
  assert.equal(existsSync(join(root, 'blobs/sha256', digest.slice(7))), false);
  // An image's files: a pointer under the manifest digest to a `[path, digest]` list, each file a blob.
  const text = (t) => new TextEncoder().encode(t);
  const files = [{ path: 'a/catalog.json', content: text('{}') }, { path: 'b/catalog.yaml', content: text('x: 1') }];
  assert.equal(await cache.getTree(digest), undefined);
  await cache.putTree(digest, files);
  assert.deepEqual(await cache.getTree(digest), files);
  const index = readFileSync(join(root, 'trees/sha256', digest.slice(7)), 'utf8');
  const sha = (t) => `sha256:${createHash('sha256').update(t).digest('hex')}`;
  assert.equal(readFileSync(join(root, 'blobs/sha256', index.slice(7)), 'utf8'), JSON.stringify([['a/catalog.json', sha('{}')], ['b/catalog.yaml', sha('x: 1')]]));
  writeFileSync(join(root, 'blobs/sha256', sha('x: 1').slice(7)), 'x: 2');
  assert.equal(await cache.getTree(digest), undefined, 'a corrupted file spoils the tree');
  await cache.putTree(digest, files);
  assert.deepEqual(await cache.getTree(digest), files);
});
