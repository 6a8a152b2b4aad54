// `openCatalog` through the npm package: after every edit of a real catalog the session's report
// equals a fresh `validate` of the edited files (findings, order, verdict, `passed`), and the
// time of an update on community-v4.20 is printed (measured here, asserted only in benchmarks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as olm from 'olm-catalog';

const catalogs = join(process.env.REPO, '../shared/catalogs/fbc');
const text = (f) => (typeof f.content === 'string' ? f.content : new TextDecoder().decode(f.content));

/** The files with `path` set to `content` (`null`: removed). */
function edited(files, path, content) {
  const out = files.filter((f) => f.path !== path);
  if (content !== null) out.push({ path, content });
  return out;
}

/** A bundle's version changed: the line after the first `packageName:` line. */
function bumpVersion(t) {
  const lines = t.split('\n');
  const i = lines.findIndex((l, j) => j > 0 && lines[j - 1].includes('packageName: ') && l.includes('version: '));
  if (i < 0) return null;
  lines[i] = lines[i].replace(/version: (\S+)/, 'version: $19');
  return lines.join('\n');
}

test('openCatalog: every update reports what validate reports for the edited files', () => {
  for (const [name, options] of [['openshift-optional-v4.17', undefined], ['community-v4.20', { lints: false }], ['openshift-optional-v4.17', { denyWarnings: true, olmV1: true }]]) {
    let files = olm.readCatalog(join(catalogs, name));
    const session = olm.openCatalog(files, options);
    assert.deepEqual(session.report(), olm.validate(files, options));
    const [a, b] = files.filter((f) => f.path.endsWith('catalog.yaml'));
    const pkgA = a.path.split('/')[0];
    const pkgB = b.path.split('/')[0];
    const edits = [
      ['a version changed', a.path, bumpVersion(text(a))],
      ['broken YAML', b.path, `${text(b)}\nbroken: [\n`],
      ['a package renamed onto another', a.path, text(a).replaceAll(`package: ${pkgA}\n`, `package: ${pkgB}\n`)],
      ['a new JSON file', 'extra/stray.json', '{"schema":"olm.bundle","package":"nope","name":"x","image":"y"}\n'],
      ['an .indexignore hiding a package', '.indexignore', `${pkgB}/\n`],
      ['a file as bytes', b.path, new TextEncoder().encode(text(b))],
      ['the .indexignore removed', '.indexignore', null],
      ['a file removed', a.path, null],
      ['a file restored', a.path, a.content],
    ];
    for (const [what, path, content] of edits) {
      files = edited(files, path, content);
      const got = content === null ? session.remove(path) : session.update(path, content);
      assert.deepEqual(got, olm.validate(files, options), `${name}: ${what}`);
      assert.deepEqual(session.report(), got);
    }
    session.free();
  }
});

test('openCatalog: bad input throws structured errors; a freed session says so', () => {
  const files = [{ path: 'c.yaml', content: 'schema: olm.package\nname: x\n' }];
  assert.throws(() => olm.openCatalog(files, { baseline: files }), (e) => e.name === 'OlmCatalogError' && e.code === 'invalid-input');
  assert.throws(() => olm.openCatalog('c.yaml'), (e) => e.code === 'invalid-input');
  const session = olm.openCatalog(files);
  assert.deepEqual(session.report(), olm.validate(files));
  assert.throws(() => session.update('c.yaml', 42), (e) => e.code === 'invalid-input' && /content/.test(e.message));
  // `./` is dropped from paths, as `validate` does.
  const renamed = session.update('./c.yaml', 'schema: olm.package\nname: X\n');
  assert.ok(renamed.diagnostics.some((d) => d.code === 'invalid-package-name' && d.file === 'c.yaml'), JSON.stringify(renamed));
  assert.deepEqual(session.report(), olm.validate([{ path: 'c.yaml', content: 'schema: olm.package\nname: X\n' }]));
  session.free();
  assert.throws(() => session.report(), (e) => e.code === 'freed');
});

test('openCatalog: update time on community-v4.20 (printed)', () => {
  const files = olm.readCatalog(join(catalogs, 'community-v4.20'));
  const session = olm.openCatalog(files);
  const bySize = [...files].sort((x, y) => y.content.length - x.content.length);
  const picks = [0, 1, 2, 3, 4, 5].map((k) => bySize[Math.floor((k * (bySize.length - 1)) / 5)]);
  const times = [];
  for (const f of picks) {
    const original = text(f);
    const bumped = bumpVersion(original);
    if (bumped === null) continue;
    for (let i = 0; i < 6; i++) {
      const t = process.hrtime.bigint();
      session.update(f.path, i % 2 === 0 ? bumped : original);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  assert.deepEqual(session.report(), olm.validate(files), 'every edit was undone');
  times.sort((x, y) => x - y);
  const median = times[Math.floor(times.length / 2)];
  console.log(`openCatalog update on community-v4.20: median ${median.toFixed(2)} ms, max ${times.at(-1).toFixed(2)} ms over ${times.length} updates`);
  session.free();
});
