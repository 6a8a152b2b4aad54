// The catalog of a workspace folder as the server holds it: the files (open documents' text over
// what is on disk), the incremental validation session over them, and the findings last pushed
// per file, so that an edit re-publishes exactly the files whose findings changed.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileUri, findingRange } from './positions.mjs';

const SEVERITY = { error: 1, warning: 2, note: 3 };
const decoder = new TextDecoder();

/**
 * The lint configuration's text, found as `olm-catalog validate` finds it: `.olm-catalog.yaml` (or
 * `.yml`) in the folder, else in the nearest parent directory that has one; undefined without one.
 */
export function lintConfig(root) {
  for (let dir = root; ; dir = dirname(dir)) {
    for (const name of ['.olm-catalog.yaml', '.olm-catalog.yml']) {
      if (existsSync(join(dir, name))) return readFileSync(join(dir, name), 'utf8');
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export class CatalogWorkspace {
  /** `olm`: the npm package's API; `root`: the folder's path; `log`: where to say what went wrong. */
  constructor(olm, root, log) {
    this.olm = olm;
    this.root = root;
    this.contents = new Map();
    for (const f of olm.readCatalog(root)) this.contents.set(f.path, f.content);
    this.session = this.open(log);
    this.report = this.session.report();
    this.published = new Map();
    this.lineCache = new Map();
    this.catalog = null;
  }

  open(log) {
    const config = lintConfig(this.root);
    try {
      return this.olm.openCatalog(this.files(), config === undefined ? undefined : { config });
    } catch (e) {
      log(`olm-catalog: .olm-catalog.yaml ignored: ${e.message}`);
      return this.olm.openCatalog(this.files());
    }
  }

  /** The catalog's files as the package reads them. */
  files() {
    return [...this.contents].map(([path, content]) => ({ path, content }));
  }

  /** The text of `path`, or null when the catalog has no such file. */
  text(path) {
    const content = this.contents.get(path);
    if (content === undefined) return null;
    return typeof content === 'string' ? content : decoder.decode(content);
  }

  /** The lines of `path` (kept until it changes), or null when the catalog has no such file. */
  lines(path) {
    if (!this.lineCache.has(path)) this.lineCache.set(path, this.text(path)?.split(/\r?\n/) ?? null);
    return this.lineCache.get(path);
  }

  /** Set `path`'s content (null: the file is gone) and re-validate. */
  update(path, content) {
    this.lineCache.delete(path);
    if (content === null) {
      this.contents.delete(path);
      this.report = this.session.remove(path);
    } else {
      this.contents.set(path, content);
      this.report = this.session.update(path, content);
    }
    this.catalog?.free();
    this.catalog = null;
  }

  /**
   * Re-read `path` from disk (after a close or a change on disk) and re-validate: a file gone takes
   * its content away, a directory gone every file under it; a directory that exists is left alone
   * (its files have their own events).
   */
  reload(path) {
    const full = join(this.root, ...path.split('/'));
    if (existsSync(full)) {
      if (statSync(full).isFile()) this.update(path, new Uint8Array(readFileSync(full)));
      return;
    }
    for (const known of [...this.contents.keys()]) {
      if (known === path || known.startsWith(`${path}/`)) this.update(known, null);
    }
  }

  /** The loaded catalog for hovers and edits (rebuilt after a change), or null when it does not load. */
  loaded() {
    if (this.catalog) return this.catalog;
    try {
      this.catalog = this.olm.loadCatalog(this.files());
    } catch {
      return null;
    }
    return this.catalog;
  }

  /** An LSP location of a finding's (or related location's) place. */
  location(where) {
    return { uri: fileUri(this.root, where.file), range: findingRange(this.lines(where.file), where.line, where.column) };
  }

  /** A finding as an LSP diagnostic. */
  diagnostic(d) {
    const related = (d.related ?? []).map((r) => ({ location: this.location(r), message: r.message }));
    return {
      range: this.location(d).range,
      severity: SEVERITY[d.severity] ?? 1,
      code: d.code,
      source: 'olm-catalog',
      message: d.message,
      ...(related.length ? { relatedInformation: related } : {}),
    };
  }

  /**
   * The `publishDiagnostics` parameters that bring the client up to date: every file whose
   * findings changed since the last call, those that have none left included (an empty list).
   */
  changedDiagnostics() {
    const byFile = new Map();
    for (const d of this.report.diagnostics) {
      if (!d.file) continue;
      if (!byFile.has(d.file)) byFile.set(d.file, []);
      byFile.get(d.file).push(this.diagnostic(d));
    }
    for (const file of this.published.keys()) if (!byFile.has(file)) byFile.set(file, []);
    const out = [];
    for (const [file, diagnostics] of byFile) {
      const key = JSON.stringify(diagnostics);
      if (this.published.get(file) === key) continue;
      if (diagnostics.length) this.published.set(file, key);
      else this.published.delete(file);
      out.push({ uri: fileUri(this.root, file), diagnostics });
    }
    return out;
  }
}
