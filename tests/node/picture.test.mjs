// The picture of an upgrade graph (issue 16) through the npm package: `graphPicture` and
// `renderGraphSvg` agree with `channelGraph` and `upgradePath`, are in the browsers' core module,
// take a Catalog or a file list, escape hostile catalog text, and fail with structured errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const catalogs = join(repo, '../shared/catalogs/fbc');
const hostile = [{ path: 'catalog.json', content: readFileSync(join(repo, 'tests/fixtures/hostile-names/catalog.json'), 'utf8') }];

const community = olm.loadCatalog(olm.readCatalog(join(catalogs, 'community-v4.20')));

/** Default channels of 3 to 99 entries (drawn uncollapsed), a few packages. */
function samples() {
  return community
    .packages()
    .map((p) => ({ p, c: p.channels.find((c) => c.name === p.defaultChannel) }))
    .filter(({ c }) => c && c.entries >= 3 && c.entries < 100)
    .slice(0, 6);
}

test('graphPicture has the nodes and edges of channelGraph, fans as one edge each', () => {
  const picked = samples();
  assert.ok(picked.length >= 3, `only ${picked.length} packages to compare`);
  for (const { p, c } of picked) {
    const pic = olm.graphPicture(community, { package: p.name });
    const g = community.channelGraph(p.name, c.name);
    assert.equal(pic.channel, c.name, `${p.name}: the default channel`);
    assert.deepEqual(pic.nodes.map((n) => n.id).sort(), g.nodes.map((n) => n.name).sort(), p.name);
    const drawn = pic.edges.filter((e) => e.kind !== 'fan').map((e) => `${e.from} ${e.kind} ${e.to}`).sort();
    assert.deepEqual(drawn, g.edges.map((e) => `${e.from} ${e.kind} ${e.to}`).sort(), p.name);
    const fans = pic.edges.filter((e) => e.kind === 'fan').map((e) => `${e.to} ${e.covers}`).sort();
    assert.deepEqual(fans, g.fans.map((f) => `${f.to} ${f.count}`).sort(), p.name);
    for (const n of pic.nodes) {
      assert.ok(n.x >= 0 && n.y >= 0 && n.x + n.width <= pic.width && n.y + n.height <= pic.height, `${n.id} inside`);
    }
    assert.ok(pic.edges.every((e) => e.d.startsWith('M') && e.points.length >= 2));
  }
});

test('the highlighted path is upgradePath, under both semantics', () => {
  for (const { p, c } of samples()) {
    const oldest = community.channelGraph(p.name, c.name);
    const from = oldest.nodes[oldest.byVersion[0]].name;
    for (const semantics of ['v0', 'v1']) {
      const path = community.upgradePath({ package: p.name, channel: c.name, from, semantics });
      const pic = community.graphPicture({ package: p.name, channel: c.name, from, semantics });
      assert.deepEqual(pic.path.steps, path.steps, `${p.name} ${semantics}`);
      assert.equal(pic.path.stranded, path.stranded);
      const onPath = pic.edges.filter((e) => e.onPath).map((e) => `${e.from}>${e.to}`).sort();
      assert.deepEqual(onPath, path.steps.map((s) => `${s.from}>${s.to}`).sort(), `${p.name} ${semantics}`);
      const nodes = pic.nodes.filter((n) => n.onPath).map((n) => n.id).sort();
      assert.deepEqual(nodes, [...new Set([from, ...path.steps.map((s) => s.to)])].sort());
      assert.equal(pic.path.lines.length, path.steps.length);
    }
  }
});

test('renderGraphSvg draws the same picture as a standalone document', () => {
  const { p } = samples()[0];
  const pic = olm.graphPicture(community, { package: p.name });
  const svg = olm.renderGraphSvg(community, { package: p.name, theme: 'dark' });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.ok(svg.includes(`<title id="olm-graph-title">Upgrade graph of ${p.name}, channel ${pic.channel}</title>`));
  assert.equal((svg.match(/ data-node="/g) || []).length, pic.nodes.length);
  assert.equal((svg.match(/ data-from="/g) || []).length, pic.edges.length);
  assert.ok(svg.includes('var(--olm-bg,#0d1117)'));
  // The Catalog method and a file list give the same document.
  const files = olm.readCatalog(join(catalogs, 'community-v4.20'));
  assert.equal(olm.renderGraphSvg(files, { package: p.name, theme: 'dark' }), svg);
  assert.equal(community.renderGraphSvg({ package: p.name, theme: 'dark' }), svg);
});

test('hostile names are text, never markup', () => {
  const svg = olm.renderGraphSvg(hostile, { package: 'hostile', from: '1.0.0' });
  assert.ok(!/<script|<img|<b>/.test(svg), 'no markup from the catalog');
  assert.ok(svg.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(svg.includes('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'));
  assert.ok(svg.includes('&amp;amp;'));
  assert.ok(svg.includes('עברית-مرحبا') && svg.includes('🚀🔥'));
  const pic = olm.graphPicture(hostile, { package: 'hostile' });
  assert.equal(pic.nodes.length, 5);
  assert.equal(pic.channel, 'stable <b>&</b> "\'');
});

test('browsers: the core module computes the graph and path, the picture module (no catalog reader) reads the options and draws them', () => {
  const require = createRequire(import.meta.url);
  const pkg = join(require.resolve('olm-catalog/package.json'), '..');
  const core = readFileSync(join(pkg, 'dist/web/olm_catalog.js'), 'utf8');
  const picture = readFileSync(join(pkg, 'dist/web-picture/olm_graph_picture.js'), 'utf8');
  assert.ok(!core.includes('pictureDraft') && core.includes('pictureChannel(') && core.includes('upgradePath('));
  for (const name of ['pictureOptions', 'drawPicture', 'drawSvg', 'layoutGraph']) {
    assert.ok(!core.includes(`export function ${name}(`), name);
    assert.ok(picture.includes(`export function ${name}(`), name);
  }
  assert.ok(!picture.includes('loadCatalog') && !picture.includes('export function validate('));
  // Node's module has both halves.
  const node = readFileSync(join(pkg, 'dist/node-full/olm_catalog.js'), 'utf8');
  assert.ok(['pictureChannel', 'pictureOptions', 'drawPicture', 'layoutGraph'].every((name) => node.includes(name)));
});

test('errors are structured', () => {
  const code = (fn) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof Error);
      assert.equal(e.name, 'OlmCatalogError');
      return e.code;
    }
    return 'no error';
  };
  const { p } = samples()[0];
  assert.equal(code(() => olm.graphPicture(community, { package: 'no-such-package' })), 'unknown-package');
  assert.equal(code(() => olm.graphPicture(community, { package: p.name, channel: 'no-such' })), 'unknown-channel');
  assert.equal(code(() => olm.graphPicture(community, { package: p.name, from: 'no-such-bundle' })), 'no-path');
  assert.equal(code(() => olm.renderGraphSvg(community, { package: p.name, theme: 'pink' })), 'invalid-input');
  assert.equal(code(() => olm.renderGraphSvg(community, { package: p.name, colour: 'x' })), 'invalid-input');
  assert.equal(code(() => olm.graphPicture('nope', { package: p.name })), 'invalid-input');
});

test('layoutGraph lays out any graph with the same layout', () => {
  const box = { width: 100, height: 30 };
  const l = olm.layoutGraph({ nodes: [box, box, box, box], edges: [{ from: 0, to: 1 }, { from: 0, to: 2 }, { from: 1, to: 3 }, { from: 2, to: 3 }] });
  assert.deepEqual(l.nodes.map((n) => n.rank), [0, 1, 1, 2]);
  assert.equal(l.crossings, 0);
  assert.ok(l.edges.every((e) => e.d.startsWith('M') && e.points.length >= 2));
  assert.ok(l.nodes[0].x < l.nodes[1].x && l.nodes[1].y !== l.nodes[2].y);
  const tb = olm.layoutGraph({ nodes: [box, box], edges: [{ from: 0, to: 1 }], direction: 'tb' });
  assert.ok(tb.nodes[0].y < tb.nodes[1].y);
  assert.throws(() => olm.layoutGraph({ nodes: [box], edges: [{ from: 0, to: 5 }] }), (e) => e.code === 'invalid-input' && /edges\[0\]/.test(e.message));
  assert.throws(() => olm.layoutGraph({ nodes: [box], direction: 'up' }), (e) => e.code === 'invalid-input');
});

/** A one-package catalog: channel `stable` (entries as given) and the bundles they name. */
function catalogOf(entries) {
  const docs = [{ schema: 'olm.package', name: 'foo', defaultChannel: 'stable' }, { schema: 'olm.channel', package: 'foo', name: 'stable', entries }];
  for (const e of entries) {
    const version = e.name.replace(/^foo\.v/, '');
    docs.push({ schema: 'olm.bundle', name: e.name, package: 'foo', image: `example.com/foo:${version}`, properties: [{ type: 'olm.package', value: { packageName: 'foo', version } }] });
  }
  return [{ path: 'catalog.json', content: docs.map((d) => JSON.stringify(d)).join('\n') }];
}

/** A chain of `n` entries 1.0.0 … 1.0.(n-1), each replacing the previous one and skipping every earlier version by range. */
function fanChain(n) {
  return Array.from({ length: n }, (_, i) => ({
    name: `foo.v1.0.${i}`,
    ...(i > 0 ? { replaces: `foo.v1.0.${i - 1}`, skipRange: `<1.0.${i}` } : {}),
  }));
}

test('the pictures the package draws are the CLI\'s: fans expanded or over their budget, a stranded start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-picture-'));
  const cases = [
    { name: 'fans', entries: fanChain(12), options: {}, flags: [] },
    { name: 'expanded', entries: fanChain(12), options: { fans: true }, flags: ['--expand-ranges'] },
    { name: 'over-budget', entries: fanChain(70), options: { fans: true }, flags: ['--expand-ranges'] },
    { name: 'path', entries: fanChain(12), options: { from: 'foo.v1.0.3', semantics: 'v1' }, flags: ['--from', 'foo.v1.0.3', '--semantics', 'v1'] },
    // Two heads: OLM v0 cannot order the channel, so every start is stranded.
    { name: 'stranded', entries: [{ name: 'foo.v1.0.0' }, { name: 'foo.v1.0.1', replaces: 'foo.v1.0.0' }, { name: 'foo.v1.0.2', replaces: 'foo.v1.0.0' }], options: { from: '1.0.0' }, flags: ['--from', '1.0.0'] },
  ];
  for (const c of cases) {
    const files = catalogOf(c.entries);
    const path = join(dir, c.name);
    mkdirSync(path);
    writeFileSync(join(path, 'catalog.json'), files[0].content);
    const r = spawnSync(process.env.NATIVE_CLI, ['graph', path, '--package', 'foo', '--format', 'svg', ...c.flags], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${c.name}: ${r.stderr}`);
    assert.equal(olm.renderGraphSvg(files, { package: 'foo', ...c.options }), r.stdout, c.name);
  }
  const over = olm.graphPicture(catalogOf(fanChain(70)), { package: 'foo', fans: true });
  assert.match(over.notes[0], /^skipRanges drawn as fans: expanding them would draw 2,484 edges, more than 2,000$/);
  const stranded = olm.graphPicture(catalogOf(cases[4].entries), { package: 'foo', from: '1.0.0' });
  assert.equal(stranded.path.stranded, true);
  assert.equal(stranded.path.from, '1.0.0');
  assert.ok(stranded.path.reason.length > 0);
});
