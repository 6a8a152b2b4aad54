// The JavaScript examples of README.md and docs/*.md, run under Node against the packed package
// (tests/node/run.sh installs it in the project this file runs in, so `import 'olm-catalog'` goes
// through its real `exports` map). Every fenced block whose info string is `js example` is
// written to a module beside this file and run in a scratch copy of the files the examples read
// (`www/examples/`, `docs/examples/`); when the next block's info string holds `output`, what the
// example prints must be that block, line for line. tests/doc_examples.rs checks that no
// JavaScript block is left unmarked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blocks } from './markdown.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = process.env.REPO ?? join(here, '../..');

const documents = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const words = (info) => info.split(/\s+/);

const examples = [];
for (const doc of documents) {
  const found = blocks(readFileSync(join(repo, doc), 'utf8'));
  found.forEach((block, i) => {
    if (block.info !== 'js example') return;
    const next = found[i + 1];
    const output = next && words(next.info).includes('output') ? next.body : null;
    examples.push({ doc, block, output });
  });
}

test('the documents have JavaScript examples', () => {
  assert.ok(examples.length > 0);
});

for (const { doc, block, output } of examples) {
  test(`${doc}:${block.line} runs${output ? ' and prints what it shows' : ''}`, () => {
    const scratch = mkdtempSync(join(tmpdir(), 'olm-catalog-js-example-'));
    const module = join(here, `doc-example-${doc.replace(/\W/g, '_')}-${block.line}.mjs`);
    try {
      for (const dir of ['www/examples', 'docs/examples']) cpSync(join(repo, dir), join(scratch, dir), { recursive: true });
      writeFileSync(module, `${block.body.join('\n')}\n`);
      const printed = execFileSync(process.execPath, [module], { cwd: scratch, encoding: 'utf8', timeout: 60_000 });
      if (output) assert.deepEqual(printed.trimEnd().split('\n').map((l) => l.trimEnd()), output.map((l) => l.trimEnd()));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(module, { force: true });
    }
  });
}
