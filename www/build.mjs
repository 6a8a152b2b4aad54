// Builds www/dist: the bundled app (esbuild, no CDN), the wasm module, the page, the bundled
// example catalogs with an index, and the example templates (examples/templates/) with theirs.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  // The page, and its worker: the catalog worker (the wasm module and every call on it).
  entryPoints: {
    app: join(here, 'src/main.js'),
    'catalog-worker': join(here, 'src/catalog-worker.js'),
  },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  outdir: dist,
  logLevel: 'warning',
});
cpSync(join(here, '../pkg/dist/web/olm_catalog_bg.wasm'), join(dist, 'olm_catalog_bg.wasm'));
// The on-demand modules: the picture module (the graphs' layout and SVG), loaded when the first
// graph is drawn (the Explore tab, the Compare panel), the resolver's, loaded when the Resolve tab first resolves, and the tools'
// (templates, diffs, edits, OperatorGroups, RBAC, Mermaid, DOT, deps, the editor's checks).
cpSync(join(here, '../pkg/dist/web-picture/olm_graph_picture_bg.wasm'), join(dist, 'olm_graph_picture_bg.wasm'));
cpSync(join(here, '../pkg/dist/web-resolver/olm_catalog_bg.wasm'), join(dist, 'olm_catalog_resolver_bg.wasm'));
cpSync(join(here, '../pkg/dist/web-tools/olm_catalog_bg.wasm'), join(dist, 'olm_catalog_tools_bg.wasm'));
for (const f of ['index.html', 'style.css']) cpSync(join(here, f), join(dist, f));
// The <olm-upgrade-graph> element's single file (scripts/build-element.mjs), for the Embed snippet
// and pages on the same host; its .wasm files are the core and the picture module copied above.
cpSync(join(here, '../pkg/dist/element/olm-upgrade-graph.js'), join(dist, 'olm-upgrade-graph.js'));

const titles = {
  community: 'Community operators (5 packages, OpenShift 4.20)',
  broken: 'A small catalog with mistakes',
  'bundle-objects': 'Bundle objects (2 packages, 4.16)',
  'update-before': 'Update demo, before: ecr-secret-operator',
  'update-after': 'Update demo, after: a removed release, re-wired edges, a new channel',
};
const examples = [];
for (const name of readdirSync(join(here, 'examples')).sort()) {
  if (name === 'templates') continue;
  const root = join(here, 'examples', name);
  const files = [];
  const walk = (dir, rel) => {
    for (const f of readdirSync(dir).sort()) {
      const full = join(dir, f);
      const r = rel ? `${rel}/${f}` : f;
      if (statSync(full).isDirectory()) walk(full, r);
      else files.push(r);
    }
  };
  walk(root, '');
  cpSync(root, join(dist, 'examples', name), { recursive: true });
  // A directory index (pkg/element-fetch.js): what a deep link's or an embedded element's URL names.
  writeFileSync(join(dist, 'examples', name, 'index.json'), `${JSON.stringify({ files }, null, 2)}\n`);
  examples.push({ name, title: titles[name] ?? name, files });
}
writeFileSync(join(dist, 'examples/index.json'), JSON.stringify(examples, null, 2));

// Example templates, each with the bundled example catalog that holds its bundles.
const templates = {
  'aws-neuron-semver.yaml': { title: 'Semver template: aws-neuron-operator', catalog: 'community' },
  'nfs-provisioner-basic.yaml': { title: 'Basic template: nfs-provisioner-operator', catalog: 'community' },
};
cpSync(join(here, 'examples/templates'), join(dist, 'examples/templates'), { recursive: true });
const templateIndex = readdirSync(join(here, 'examples/templates')).sort()
  .map((file) => ({ file, title: templates[file]?.title ?? file, catalog: templates[file]?.catalog ?? 'community' }));
writeFileSync(join(dist, 'examples/templates/index.json'), JSON.stringify(templateIndex, null, 2));
console.log(`build-site: wrote ${dist}`);
