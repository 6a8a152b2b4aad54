// The browsers' façade (`index.js`, the package's "browser" entry) run in Node: `fetch` is replaced
// by one that reads the packed package's files and records which `.wasm` each step fetched. Checks
// that each call goes to the module that has it: resolution loads the resolver's module alone,
// the tools (the deps view, diffs, Mermaid, edits, validate's lint configuration) the tools' module
// alone, the pictures the picture module alone, `initResolver()` with
// no options both (as documented before the split), that a `Catalog` loaded in the core works in
// either on-demand module, and that the results equal Node's module (which has everything).
// Each scenario runs in a fresh process, so that no module is loaded before it starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const repo = process.env.REPO;
const example = join(repo, 'www/examples/community');

const problem = (catalog) => ({
  namespace: 'olm',
  catalogs: [{ name: 'community', namespace: 'olm', priority: 0, catalog }],
  subscriptions: [{ name: 'neuron', package: 'aws-neuron-operator', channel: 'Fast', catalog: 'community', catalogNamespace: 'olm' }],
});

/**
 * Run `body` (the source of an async function of `web`, the browsers' façade, `files`, the example
 * catalog's files, and `problem`) in a fresh Node process; its result, with `fetched`: the package
 * files fetched, in order.
 */
function scenario(body) {
  const script = `
    import { readFileSync } from 'node:fs';
    import { dirname, relative } from 'node:path';
    import { fileURLToPath, pathToFileURL } from 'node:url';
    import { readCatalog } from 'olm-catalog';
    const pkg = dirname(fileURLToPath(import.meta.resolve('olm-catalog/package.json')));
    const fetched = [];
    globalThis.fetch = async (url) => {
      const file = fileURLToPath(new URL(url));
      fetched.push(relative(pkg, file));
      return new Response(readFileSync(file), { headers: { 'content-type': 'application/wasm' } });
    };
    const web = await import(pathToFileURL(pkg + '/index.js'));
    const files = readCatalog(${JSON.stringify(example)});
    const problem = ${problem.toString()};
    const error = (f) => { try { f(); return null; } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };
    const result = await (async (web, files, problem, error) => { ${body} })(web, files, problem, error);
    console.log(JSON.stringify({ fetched, result }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}

const core = 'dist/web/olm_catalog_bg.wasm';
const resolverWasm = 'dist/web-resolver/olm_catalog_bg.wasm';
const toolsWasm = 'dist/web-tools/olm_catalog_bg.wasm';
const pictureWasm = 'dist/web-picture/olm_graph_picture_bg.wasm';

/** Picture options each function must reject (`invalid-input`), and one set using every field. */
const BAD_PICTURE_OPTIONS = [
  { package: 'aws-neuron-operator', bogus: 1 },
  { package: 'aws-neuron-operator', semantics: 'v2' },
  { package: 'aws-neuron-operator', direction: 'up' },
  { package: 'aws-neuron-operator', theme: 'pink' },
  { package: 'aws-neuron-operator', fanBudget: -1 },
  { package: 'aws-neuron-operator', expand: 'x' },
  7,
];
const ALL_PICTURE_OPTIONS = {
  package: 'aws-neuron-operator', channel: '', from: 'v1.1.1', semantics: 'v1', fans: true, fanBudget: 3,
  expand: ['group:x'], collapse: false, direction: 'tb', theme: 'dark', interactive: true, legend: false, idPrefix: 'p-',
};

test('browsers: pictures load the picture module alone, and draw what Node draws', () => {
  const { fetched, result } = scenario(`
    const BAD_OPTIONS = ${JSON.stringify(BAD_PICTURE_OPTIONS)};
    const ALL_OPTIONS = ${JSON.stringify(ALL_PICTURE_OPTIONS)};
    await web.init();
    const catalog = web.loadCatalog(files);
    const report = web.validate(files).valid;
    const before = error(() => catalog.graphPicture({ package: 'aws-neuron-operator' }));
    const layoutBefore = error(() => web.layoutGraph({ nodes: [] }));
    await Promise.all([web.initPicture(), web.initPicture()]);
    const options = { package: 'aws-neuron-operator', from: 'aws-neuron-operator.v1.1.1', theme: 'dark' };
    const { theme, ...pictureOptions } = options;
    const out = {
      report,
      before,
      layoutBefore,
      picture: catalog.graphPicture(pictureOptions),
      svg: catalog.renderGraphSvg(options),
      fromFiles: web.renderGraphSvg(files, options),
      layout: web.layoutGraph({ nodes: [{ width: 10, height: 10 }, { width: 10, height: 10 }], edges: [{ from: 0, to: 1 }] }),
      unknown: error(() => catalog.graphPicture({ package: 'no-such-package' })),
      badTheme: error(() => catalog.renderGraphSvg({ package: 'aws-neuron-operator', theme: 'pink' })),
      // The picture module reads the options (pictureOptions), the core takes them as arguments.
      badOptions: BAD_OPTIONS.map((o) => error(() => catalog.graphPicture(o))),
      allOptions: catalog.graphPicture(ALL_OPTIONS),
      deps: error(() => catalog.packageDeps({ package: 'aws-neuron-operator' })),
    };
    catalog.free();
    return out;
  `);
  assert.deepEqual(fetched, [core, pictureWasm]);
  assert.equal(result.report, true);
  for (const e of [result.before, result.layoutBefore]) {
    assert.equal(e.code, 'not-initialized');
    assert.match(e.message, /initPicture\(\)/);
  }
  const nodeCatalog = olm.loadCatalog(olm.readCatalog(example));
  const options = { package: 'aws-neuron-operator', from: 'aws-neuron-operator.v1.1.1', theme: 'dark' };
  const { theme, ...pictureOptions } = options;
  assert.deepEqual(result.picture, nodeCatalog.graphPicture(pictureOptions));
  assert.equal(result.picture.path.steps.length, 5);
  assert.equal(result.svg, nodeCatalog.renderGraphSvg(options));
  assert.equal(result.fromFiles, result.svg);
  assert.deepEqual(result.layout, olm.layoutGraph({ nodes: [{ width: 10, height: 10 }, { width: 10, height: 10 }], edges: [{ from: 0, to: 1 }] }));
  nodeCatalog.free();
  assert.equal(result.unknown.code, 'unknown-package');
  assert.equal(result.badTheme.code, 'invalid-input');
  assert.match(result.badTheme.message, /^renderGraphSvg options: theme must be/);
  // Every option read alike in the browsers' two modules and in Node's one.
  const nodeAgain = olm.loadCatalog(olm.readCatalog(example));
  const nodeErrors = BAD_PICTURE_OPTIONS.map((o) => {
    try { nodeAgain.graphPicture(o); return null; } catch (e) { return { name: e.name, code: e.code, message: e.message }; }
  });
  assert.deepEqual(result.badOptions, nodeErrors);
  assert.ok(result.badOptions.every((e) => e?.code === 'invalid-input'), JSON.stringify(result.badOptions));
  assert.match(result.badOptions[1].message, /^graphPicture options: semantics must be "v0" or "v1", not "v2"$/);
  assert.deepEqual(result.allOptions, nodeAgain.graphPicture(ALL_PICTURE_OPTIONS));
  assert.equal(result.allOptions.direction, 'top-to-bottom');
  nodeAgain.free();
  assert.equal(result.deps.code, 'not-initialized');
});

test('browsers: init(input, {picture: true}) loads the core and the picture module', () => {
  const { fetched, result } = scenario(`
    await web.init(undefined, { picture: true });
    return web.graphPicture(files, { package: 'aws-neuron-operator' }).nodes.length;
  `);
  assert.deepEqual([...fetched].sort(), [core, pictureWasm].sort());
  assert.ok(result >= 12);
});

test('browsers: resolution loads the resolver\'s module alone, and a core Catalog resolves there', () => {
  const { fetched, result } = scenario(`
    await web.init();
    const catalog = web.loadCatalog(files);
    const before = error(() => web.resolve(problem(catalog)));
    await web.initResolver(undefined, { tools: false });
    const resolved = web.resolve(problem(catalog));
    // The picks are worked out when first read, by resolving again: before the catalog is freed.
    void resolved.picks;
    const v1 = error(() => web.resolveV1({}));
    const deps = error(() => catalog.packageDeps({ package: 'aws-neuron-operator' }));
    const text = web.resolveText(problem(catalog));
    catalog.free();
    return { before, resolved, v1, deps, text };
  `);
  assert.deepEqual(fetched, [core, resolverWasm]);
  assert.equal(result.before.code, 'not-initialized');
  assert.match(result.before.message, /initResolver\(\)/);
  const nodeCatalog = olm.loadCatalog(olm.readCatalog(example));
  assert.deepEqual(result.resolved, olm.resolve(problem(nodeCatalog)));
  assert.equal(result.text, olm.resolveText(problem(nodeCatalog)));
  nodeCatalog.free();
  assert.equal(result.resolved.install[0].name, 'aws-neuron-operator.v1.2.0');
  // resolveV1 is in the resolver's module: a bad problem is its error, not "not loaded".
  assert.equal(result.v1.code, 'invalid-input');
  // The tools are not: their call says which init loads them.
  assert.equal(result.deps.code, 'not-initialized');
  assert.match(result.deps.message, /initTools\(\)/);
});

test('browsers: the tools load the tools\' module alone; a core Catalog is used there', () => {
  const { fetched, result } = scenario(`
    await web.init();
    const catalog = web.loadCatalog(files);
    const before = error(() => web.toMermaid(catalog, { package: 'aws-neuron-operator' }));
    const configBefore = error(() => web.validate(files, { lint: ['head-not-highest=off'] }));
    const baselineBefore = error(() => web.validate(files, { baseline: files }));
    const olmV1Before = error(() => web.validate(files, { lint: [], olmV1: true }));
    await web.initTools();
    const plain = web.validate(files, { lint: [], olmV1: true }).diagnostics.length;
    const out = {
      before,
      configBefore,
      olmV1Before,
      baselineBefore,
      baseline: web.validate(files, { baseline: files }).diagnostics,
      plain,
      configured: web.validate(files, { config: { lints: { 'version-goes-backwards': 'note' } }, lint: ['head-not-highest=off'] }),
      deps: catalog.packageDeps({ package: 'aws-neuron-operator' }),
      mermaid: web.toMermaid(catalog, { package: 'aws-neuron-operator' }),
      diff: web.diffCatalogs(catalog, files),
      session: web.openCatalog(files).report().valid,
      plan: web.planEdit(files, { op: 'deprecate', package: 'nfs-provisioner-operator', bundle: 'nfs-provisioner-operator.v0.0.8', message: 'use 0.0.9' }).edits.length,
      resolve: error(() => web.resolve(problem(catalog))),
    };
    catalog.free();
    return out;
  `);
  assert.deepEqual(fetched, [core, toolsWasm]);
  assert.equal(result.before.code, 'not-initialized');
  // A lint configuration is read in the tools' module; without one validate stays in the core.
  assert.equal(result.configBefore.code, 'not-initialized');
  assert.match(result.configBefore.message, /initTools\(\)/);
  // So are OLM v1's lints, which the core module leaves out.
  assert.equal(result.olmV1Before.code, 'not-initialized');
  // So is a baseline to compare with.
  assert.equal(result.baselineBefore.code, 'not-initialized');
  assert.deepEqual(result.baseline, []);
  assert.equal(result.plain, olm.validate(olm.readCatalog(example), { olmV1: true }).diagnostics.length);
  const lintOptions = { config: { lints: { 'version-goes-backwards': 'note' } }, lint: ['head-not-highest=off'] };
  assert.deepEqual(result.configured, olm.validate(olm.readCatalog(example), lintOptions));
  const nodeCatalog = olm.loadCatalog(olm.readCatalog(example));
  assert.deepEqual(result.deps, nodeCatalog.packageDeps({ package: 'aws-neuron-operator' }));
  assert.equal(result.mermaid, olm.toMermaid(nodeCatalog, { package: 'aws-neuron-operator' }));
  assert.deepEqual(result.diff, olm.diffCatalogs(nodeCatalog, olm.readCatalog(example)));
  nodeCatalog.free();
  assert.equal(result.session, olm.validate(olm.readCatalog(example)).valid);
  assert.ok(result.plan > 0);
  assert.equal(result.resolve.code, 'not-initialized');
  assert.match(result.resolve.message, /initResolver\(\)/);
});

test('browsers: initResolver() with no options loads both on-demand modules, as before the split', () => {
  const { fetched, result } = scenario(`
    await web.init();
    await Promise.all([web.initResolver(), web.initResolver()]);
    await web.initTools();
    const catalog = web.loadCatalog(files);
    const out = {
      installs: web.resolve(problem(catalog)).install.length,
      mermaid: typeof catalog.toMermaid({ package: 'aws-neuron-operator' }),
      formatted: typeof web.formatDiagnostics(web.validate(files).diagnostics, { format: 'markdown' }),
    };
    catalog.free();
    return out;
  `);
  // Each module once, however many inits.
  assert.deepEqual([...fetched].sort(), [core, resolverWasm, toolsWasm].sort());
  assert.deepEqual(result, { installs: 1, mermaid: 'string', formatted: 'string' });
});
