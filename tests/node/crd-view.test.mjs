// The pure parts of the CRD safety views (pkg/crd-view.js, in the packed package): a bundle's CRDs
// read from its `olm.bundle.object` data in YAML and JSON catalogs, a CRD's lines carrying the
// schema path each shows, the fields a finding is about highlighted on the right side, the
// excerpt around them, and the unsafe edges of a channel with their one-line reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';

const view = await import(join(process.cwd(), 'node_modules/olm-catalog/crd-view.js'));

/** `widgets.example.com` with `spec.size` as `size` (and `spec.name` a string) in version `v1`, and any `more` versions. */
function crd(size, { required, more = [] } = {}) {
  const spec = { type: 'object', properties: { size, name: { type: 'string' } } };
  if (required) spec.required = required;
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' },
      versions: [...more, { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }],
    },
  };
}
const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64');

function yamlCatalog(oldCrd, newCrd) {
  const bundle = (v, c) => `---\nschema: olm.bundle\npackage: p\nname: p.v${v}\nimage: example.com/p:${v}\nproperties:\n- type: olm.package\n  value: {packageName: p, version: ${v}}\n- type: olm.bundle.object\n  value:\n    data: ${b64({ kind: 'ConfigMap' })}\n- type: olm.bundle.object\n  value:\n    data: ${b64(c)}\n`;
  return [{ path: 'p/catalog.yaml', content: `schema: olm.package\nname: p\n---\nschema: olm.channel\npackage: p\nname: stable\nentries:\n- name: p.v1.0.0\n- name: p.v1.1.0\n  replaces: p.v1.0.0\n${bundle('1.0.0', oldCrd)}${bundle('1.1.0', newCrd)}` }];
}

function jsonCatalog(oldCrd, newCrd) {
  const bundle = (v, c) => JSON.stringify({ schema: 'olm.bundle', name: `p.v${v}`, package: 'p', image: `example.com/p:${v}`, properties: [{ type: 'olm.package', value: { packageName: 'p', version: v } }, { type: 'olm.bundle.object', value: { data: b64(c) } }] }, null, 4);
  const channel = JSON.stringify({ schema: 'olm.channel', package: 'p', name: 'stable', entries: [{ name: 'p.v1.0.0' }, { name: 'p.v1.1.0', replaces: 'p.v1.0.0' }] }, null, 4);
  return [{ path: 'p/catalog.json', content: [JSON.stringify({ schema: 'olm.package', name: 'p' }, null, 4), channel, bundle('1.0.0', oldCrd), bundle('1.1.0', newCrd)].join('\n') }];
}

test('bundleCrds: the CRDs a bundle carries, from YAML and JSON catalogs; none for an unknown bundle', () => {
  const [o, n] = [crd({ type: 'integer' }), crd({ type: 'string' })];
  for (const files of [yamlCatalog(o, n), jsonCatalog(o, n)]) {
    assert.deepEqual(view.bundleCrds(files, 'p.v1.0.0'), [o]);
    assert.deepEqual(view.bundleCrds(files, 'p.v1.1.0'), [n]);
    // A channel entry by that name is not the bundle.
    assert.deepEqual(view.bundleCrds(files, 'p.v9'), []);
  }
});

test('crdLines: each line carries the schema path it shows', () => {
  const lines = view.crdLines(crd({ type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } }));
  const at = (text) => lines.find((l) => l.text.trim() === text);
  assert.equal(at('scope: Namespaced').path, 'scope');
  assert.deepEqual([at('- name: v1').path, at('- name: v1').version], ['version', 'v1']);
  assert.equal(at('size:').path, '^.spec.size');
  assert.equal(at('type: "array"').path, '^.spec.size');
  assert.equal(at('items:').path, '^.spec.size.items');
  assert.equal(at('id:').path, '^.spec.size.items.id');
});

test('crdDiff: a type change is highlighted on both sides; a new required field on the new side', () => {
  // Only the field's name and the keyword the rule is about: not its description.
  const type = view.crdDiff(crd({ description: 'how many', type: 'integer' }), crd({ description: 'how many', type: 'string' }), [{ rule: 'type', version: 'v1', path: '^.spec.size', message: '…' }]);
  assert.deepEqual(type.old.filter((l) => l.hit).map((l) => l.text.trim()), ['size:', 'type: "integer"']);
  assert.deepEqual(type.new.filter((l) => l.hit).map((l) => l.text.trim()), ['size:', 'type: "string"']);
  assert.deepEqual(type.new.find((l) => l.hit).hit, ['type']);
  // Another version's field of that path is not highlighted.
  const other = view.crdDiff(crd({ type: 'integer' }), crd({ type: 'string' }), [{ rule: 'type', version: 'v2', path: '^.spec.size', message: '…' }]);
  assert.equal(other.new.filter((l) => l.hit).length, 0);
  const req = view.crdDiff(crd({ type: 'integer' }), crd({ type: 'integer' }, { required: ['size'] }), [{ rule: 'required', version: 'v1', path: '^.spec', message: '…' }]);
  assert.deepEqual(req.new.filter((l) => l.hit).map((l) => l.text.trim()), ['spec:', 'required: ["size"]']);
});

test('crdDiff: a removed field and a removed stored version, read from the messages', () => {
  const removed = view.crdDiff(crd({ type: 'integer' }), crd({ type: 'integer' }), [
    { rule: 'existingFieldRemoval', version: null, path: null, message: 'validating upgrade for CRD "widgets.example.com": existingFieldRemoval: removed field : v1.^.spec.name' },
  ]);
  assert.deepEqual(removed.old.filter((l) => l.hit).map((l) => l.text.trim()), ['name:', 'type: "string"']);
  const old = crd({ type: 'integer' }, { more: [{ name: 'v1alpha1', served: true, storage: false }] });
  const stored = view.crdDiff(old, crd({ type: 'integer' }), [
    { rule: 'storedVersionRemoval', version: null, path: null, message: 'validating upgrade for CRD "widgets.example.com": storedVersionRemoval: stored versions removed : [v1alpha1]' },
  ]);
  assert.deepEqual(stored.old.filter((l) => l.hit).map((l) => l.text.trim()), ['- name: v1alpha1', 'storage: false']);
});

test('excerpt: the hits with context, gaps as null; the whole on request', () => {
  const lines = Array.from({ length: 20 }, (_, i) => ({ text: String(i), hit: i === 10 ? ['type'] : undefined }));
  const shown = view.excerpt(lines, { context: 2 });
  assert.deepEqual(shown.map((l) => l?.text ?? null), [null, '8', '9', '10', '11', '12', null]);
  assert.equal(view.excerpt(lines, { whole: true }).length, 20);
  assert.deepEqual(view.excerpt(lines.map(({ text }) => ({ text }))), []);
});

test('unsafeEdges and edgeReason: a channel\'s unsafe edges, and why in one line', () => {
  const finding = (rule, c = 'widgets.example.com') => ({ rule, crd: c, message: '' });
  const result = { edges: [
    { channel: 'stable', from: 'a', to: 'b', safe: false, findings: [finding('type'), finding('required'), finding('type', 'gadgets.example.com')] },
    { channel: 'stable', from: 'b', to: 'c', safe: true, findings: [] },
    { channel: 'fast', from: 'a', to: 'c', safe: false, findings: [finding('scope')] },
  ] };
  const stable = view.unsafeEdges(result, 'stable');
  assert.deepEqual([...stable.values()].map((e) => `${e.from}-${e.to}`), ['a-b']);
  assert.equal(view.unsafeEdge(stable, 'a', 'b'), result.edges[0]);
  assert.equal(view.unsafeEdge(stable, 'b', 'c'), undefined);
  assert.equal(view.unsafeEdges(result).size, 2);
  assert.equal(view.unsafeEdges(null).size, 0);
  assert.equal(view.edgeReason(result.edges[0]), 'type, required (widgets.example.com, gadgets.example.com)');
});
