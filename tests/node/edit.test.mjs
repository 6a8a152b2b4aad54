// Catalog edits through the npm package: planEdit's plan has the shapes index.d.ts declares, the
// edits applied by applyEdits give the edited catalog, the undo edits give back the bytes, and a
// refused operation throws an Error with structured fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const file = join(repo, '../shared/catalogs/fbc/community-v4.20/nfs-provisioner-operator/catalog.yaml');
const files = [{ path: 'nfs/catalog.yaml', content: readFileSync(file, 'utf8') }];
const pkg = 'nfs-provisioner-operator';

test('planEdit previews a deprecation and applyEdits applies it, undo restores the bytes', () => {
  const plan = olm.planEdit(files, { op: 'deprecate', package: pkg, bundle: `${pkg}.v0.0.8`, message: 'use 0.0.9' });
  assert.equal(plan.edits.length, 1);
  const [edit] = plan.edits;
  assert.equal(edit.file, 'nfs/catalog.yaml');
  assert.equal(edit.range.start, files[0].content.length);
  assert.equal(typeof edit.lsp.start.line, 'number');
  assert.match(edit.newText, /schema: olm.deprecations/);
  assert.equal(plan.diff.packages[0].bundles[0].name, `${pkg}.v0.0.8`);
  assert.deepEqual(plan.findings, []);
  const after = olm.applyEdits(files, plan.edits);
  assert.ok(after[0].content.startsWith(files[0].content));
  const back = olm.applyEdits(after, plan.undo);
  assert.equal(back[0].content, files[0].content);
});

test('promote shows the channel graph before and after', () => {
  const plan = olm.planEdit(files, { op: 'promote', package: pkg, bundle: `${pkg}.v0.0.9`, channel: 'beta' });
  const g = plan.graphs.find((x) => x.channel === 'beta');
  assert.equal(g.before, null);
  assert.deepEqual(g.after.nodes.map((n) => n.name), [`${pkg}.v0.0.9`]);
});

test('a refused operation throws an Error with code, op and detail', () => {
  assert.throws(
    () => olm.planEdit(files, { op: 'removeBundle', package: pkg, bundle: `${pkg}.v0.0.9` }),
    (e) => e instanceof Error && e.code === 'refused' && e.op === 'removeBundle' && /head of channel "alpha"/.test(e.message)
      && e.detail.code === 'refused',
  );
  assert.throws(() => olm.planEdit(files, { op: 'nope', package: pkg }), (e) => e.code === 'invalid-operation');
  const overlapping = [
    { file: 'nfs/catalog.yaml', range: { start: 0, end: 5 }, lsp: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, newText: 'a' },
    { file: 'nfs/catalog.yaml', range: { start: 3, end: 6 }, lsp: { start: { line: 0, character: 3 }, end: { line: 0, character: 6 } }, newText: 'b' },
  ];
  assert.throws(() => olm.applyEdits(files, overlapping), (e) => e.code === 'bad-edit' && /overlap/.test(e.message));
});

test('planEdit with {bundles} edits a semver template in place and refuses what the template generates', () => {
  const shared = join(repo, '../shared/catalogs');
  const text = readFileSync(join(shared, 'templates/clusterpulse/semver.yaml'), 'utf8');
  const template = [{ path: 'semver.yaml', content: text }];
  const bundles = [olm.readCatalog(join(shared, 'fbc/community-v4.20/clusterpulse'))];
  const op = { op: 'promote', package: 'clusterpulse', bundle: 'clusterpulse.v1.0.2', channel: 'stable' };
  const plan = olm.planEdit(template, op, { bundles });
  assert.ok(plan.edits.length > 0 && plan.edits.every((e) => e.file === 'semver.yaml'));
  const [edited] = olm.applyEdits(template, plan.edits);
  assert.match(edited.content.slice(edited.content.indexOf('Stable:')), /clusterpulse:1\.0\.2/);
  const [back] = olm.applyEdits([edited], plan.undo);
  assert.equal(back.content, text, 'undo gives back the bytes');
  assert.throws(
    () => olm.planEdit(template, { op: 'setEdges', package: 'clusterpulse', channel: 'fast-v1', bundle: 'clusterpulse.v1.0.2', replaces: '' }, { bundles }),
    (e) => e instanceof Error && typeof e.code === 'string' && /template/.test(e.message),
  );
});
