// A typed `from` in the JS API (issue 40), on the real community catalog: a version is the bundle of
// that version in `upgradePath`, the pictures and the Node CLI, as in the native CLI; the head is
// already there; a version no bundle has says so; a version several bundles have is asked back
// with their names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const community = join(repo, '../shared/catalogs/fbc/community-v4.20');
const cli = join(process.cwd(), 'node_modules/.bin/olm-catalog');
const run = (cmd, args) => spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

const kubeGreen = () => olm.loadCatalog(olm.readCatalog(join(community, 'kube-green')));
const alpha = (from, semantics = 'v0') => ({ package: 'kube-green', channel: 'alpha', from, semantics });

test('a typed version is the bundle of that version: kube-green alpha from 0.3.0 is 9 upgrades', () => {
  const c = kubeGreen();
  try {
    const named = c.upgradePath(alpha('kube-green.v0.3.0'));
    assert.equal(named.note, undefined);
    for (const from of ['0.3.0', 'v0.3.0']) {
      for (const semantics of ['v0', 'v1']) {
        const p = c.upgradePath(alpha(from, semantics));
        assert.equal(p.from, 'kube-green.v0.3.0');
        assert.equal(p.note, '0.3.0 is the version of kube-green.v0.3.0');
        assert.equal(p.steps.length, 9);
        assert.equal(p.to, 'kube-green.v0.7.1');
        assert.equal(p.stranded, false);
        if (semantics === 'v0') assert.deepEqual(p.steps, named.steps);
      }
    }
  } finally {
    c.free();
  }
});

test('the head typed as a version is already there; a version no bundle has says so', () => {
  const c = kubeGreen();
  try {
    const head = c.upgradePath(alpha('0.7.1'));
    assert.deepEqual([head.from, head.steps, head.stranded], ['kube-green.v0.7.1', [], false]);
    const bare = c.upgradePath(alpha('0.3.5'));
    assert.equal(bare.stranded, true);
    assert.equal(bare.note, '0.3.5 is not in this catalog; OLM can upgrade it only through a skipRange that covers it');
    assert.equal(bare.reason, 'no entry of channel "alpha" on OLM v0\'s replaces chain covers 0.3.5 with skipRange');
  } finally {
    c.free();
  }
});

test('the picture highlights the path from a typed version and says how it read it', () => {
  const c = kubeGreen();
  try {
    const picture = c.graphPicture({ package: 'kube-green', channel: 'alpha', from: '0.3.0' });
    assert.equal(picture.path.steps.length, 9);
    assert.equal(picture.nodes.filter((n) => n.onPath).length, 10);
    assert.equal(picture.path.summary, '0.3.0 is the version of kube-green.v0.3.0. 9 upgrades from kube-green.v0.3.0 to reach kube-green.v0.7.1');
    const svg = c.renderGraphSvg({ package: 'kube-green', channel: 'alpha', from: 'v0.3.0' });
    assert.equal((svg.match(/class="edge replaces on-path/g) ?? []).length, 9);
  } finally {
    c.free();
  }
});

test('a version two bundles have is asked back with their names, in the API and the Node CLI', () => {
  // kube-green as published plus a rebuild of 0.5.0 under another name (no bundled catalog has
  // two bundles of one version: opm validate rejects them, a catalog being written can have them).
  const text = readFileSync(join(community, 'kube-green/catalog.yaml'), 'utf8');
  const entry = '- name: kube-green.v0.5.1\n  replaces: kube-green.v0.5.0\n';
  assert.ok(text.includes(entry));
  const rebuilt = text.replace(entry, '- name: kube-green.v0.5.0-rebuilt\n  replaces: kube-green.v0.4.1\n'
    + '- name: kube-green.v0.5.1\n  replaces: kube-green.v0.5.0\n  skips:\n  - kube-green.v0.5.0-rebuilt\n')
    + '---\nschema: olm.bundle\npackage: kube-green\nname: kube-green.v0.5.0-rebuilt\n'
    + 'image: quay.io/example/kube-green-bundle:0.5.0-rebuilt\nproperties:\n'
    + '- type: olm.package\n  value: {packageName: kube-green, version: 0.5.0}\n';
  const c = olm.loadCatalog([{ path: 'catalog.yaml', content: rebuilt }]);
  const message = '2 bundles of this package have version 0.5.0 in channel alpha: kube-green.v0.5.0, '
    + 'kube-green.v0.5.0-rebuilt; which one is installed? Give its name instead of the version';
  try {
    assert.throws(() => c.upgradePath(alpha('0.5.0')), (e) => e.code === 'no-path' && e.message === message
      && JSON.stringify(e.bundles) === '["kube-green.v0.5.0","kube-green.v0.5.0-rebuilt"]');
    for (const name of ['kube-green.v0.5.0', 'kube-green.v0.5.0-rebuilt']) {
      assert.equal(c.upgradePath(alpha(name)).steps.length, 5, name);
    }
  } finally {
    c.free();
  }
  const dir = mkdtempSync(join(tmpdir(), 'olm-from-'));
  try {
    writeFileSync(join(dir, 'catalog.yaml'), rebuilt);
    const r = run(cli, ['path', dir, '--package', 'kube-green', '--channel', 'alpha', '--from', '0.5.0']);
    assert.equal(r.status, 2);
    assert.ok(r.stderr.includes(message), r.stderr);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('the Node CLI prints a typed path as the native CLI does', () => {
  for (const from of ['0.3.0', '0.7.1', '0.3.5']) {
    const args = ['path', community, '--package', 'kube-green', '--channel', 'alpha', '--from', from];
    const [node, native] = [run(cli, args), run(process.env.NATIVE_CLI, args)];
    assert.deepEqual([node.status, node.stdout], [native.status, native.stdout], from);
  }
  const head = run(cli, ['path', community, '--package', 'kube-green', '--channel', 'alpha', '--from', '0.7.1']);
  assert.equal(head.stdout, '0.7.1 is the version of kube-green.v0.7.1\nkube-green.v0.7.1 is already at the head of channel alpha\n');
});
