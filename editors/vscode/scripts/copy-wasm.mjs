// Copies the npm package's Node entry and its WebAssembly module (pkg/, built by
// scripts/build-pkg.sh) into olm-catalog/ of the extension, where the bundled server loads them.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const pkg = process.env.OLM_CATALOG_PKG ?? join(here, '../../pkg');
const out = join(here, 'olm-catalog');
// node.js and the modules it imports (core.js, registry.js, registry-node.js), and the Node
// WebAssembly module. registry-node.js imports smol-toml only when reading images from a registry,
// which the extension does not.
const files = ['node.js', 'core.js', 'registry.js', 'registry-node.js', 'dist/node-full/olm_catalog.js', 'dist/node-full/olm_catalog_bg.wasm'];

for (const f of files) {
  if (!existsSync(join(pkg, f))) {
    console.error(`${join(pkg, f)} is missing: build the npm package first (make pkg)`);
    process.exit(1);
  }
}
rmSync(out, { recursive: true, force: true });
for (const f of files) {
  mkdirSync(dirname(join(out, f)), { recursive: true });
  cpSync(join(pkg, f), join(out, f));
}
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
writeFileSync(join(out, 'dist/node-full/package.json'), '{ "type": "commonjs" }\n');
