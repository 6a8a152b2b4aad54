// The worker's side of editing (edit.js is the page's): an operation (plain data, `{op:
// "deprecate", package, bundle, message}`) planned by the wasm module's `planEdit` on the files of
// a loaded catalog, its preview (the text diff of each changed file, the catalog diff, the
// findings, and the catalog after the edit loaded in the `edit-preview` slot so that the page can
// draw its graphs with the shared renderer), then applied with `applyEdits`. Applied edit sets and
// their inverses make the undo and redo stacks; the files are the same ones the editor edits (the
// editing session is updated with each changed file), and "changed" is measured against the files
// as last saved (or opened).
import { planEdit, applyEdits } from '../../pkg/index.js';
import { structuredPatch } from 'diff';
import { zipSync, strToU8 } from 'fflate';

/** The most lines of one file's text diff sent to the page; the rest is counted. */
const MAX_DIFF_LINES = 2000;

/**
 * @typedef {{path: string, content: string}} CatalogFile
 * @typedef {{label: string, op: object, edits: object[], undo: object[], before: Map<string, string|null>, after: Map<string, string>}} Applied
 * @typedef {{done: Applied[], undone: Applied[], written: Map<string, string>, inFolder: Map<string, string>, pending: (Applied & {planned: Map<string, string|null>}) | null}} EditState
 */

function error(code, message) {
  return Object.assign(new Error(message), { name: 'OlmCatalogError', code });
}

/** A short label of an operation, for the undo and redo buttons. */
export function describe(op) {
  const what = op.op === 'addBundle' ? op.bundle?.name ?? 'from a blob'
    : typeof op.bundle === 'string' ? op.bundle : op.channel ?? op.package;
  const names = {
    addBundle: 'add bundle', promote: 'promote', createChannel: 'new channel', renameChannel: 'rename channel',
    removeChannel: 'remove channel', setDefaultChannel: 'set default channel', deprecate: 'deprecate',
    undeprecate: 'undeprecate', removeBundle: 'remove', setEdges: 'set edges',
  };
  const extra = op.op === 'promote' ? ` to ${op.channel}` : op.op === 'renameChannel' ? ` to ${op.to}`
    : op.op === 'addBundle' ? ` to ${(op.channels ?? []).join(', ')}` : '';
  return `${names[op.op] ?? op.op} ${what}${extra}`;
}

/** The unified diff of one file as hunks of tagged lines (`' '`, `'-'`, `'+'`), capped. */
export function fileDiff(path, before, after) {
  const patch = structuredPatch(`a/${path}`, `b/${path}`, before ?? '', after, '', '', { context: 3 });
  let lines = 0;
  let cut = 0;
  const hunks = [];
  for (const hk of patch.hunks) {
    if (lines >= MAX_DIFF_LINES) { cut += hk.lines.length; continue; }
    const kept = hk.lines.slice(0, MAX_DIFF_LINES - lines);
    cut += hk.lines.length - kept.length;
    lines += kept.length;
    hunks.push({ header: `@@ -${hk.oldStart},${hk.oldLines} +${hk.newStart},${hk.newLines} @@`, lines: kept.filter((l) => !l.startsWith('\\')) });
  }
  const count = (c) => patch.hunks.reduce((n, hk) => n + hk.lines.filter((l) => l[0] === c).length, 0);
  return { path, created: before === null, added: count('+'), removed: count('-'), hunks, cut };
}

/**
 * The editing operations of catalog-worker.js, over its loaded catalogs.
 * @param {{ entry: (handle: number) => any, tools: () => Promise<void>, put: (slot: string, files: CatalogFile[], saved: CatalogFile[]) => number,
 *   summary: (handle: number) => any, reload: (handle: number) => any, close: (slot: string) => void }} deps
 */
export function editOps({ entry, tools, put, summary, reload, close }) {
  /** @returns {EditState} */
  function stateOf(e) {
    // `written`: the texts as opened or last saved (downloaded or written to the folder), which
    // "changed" is measured against; `inFolder`: as opened or last written to the folder.
    const opened = () => new Map(e.saved.map((f) => [f.path, f.content]));
    e.edit ??= { done: [], undone: [], written: opened(), inFolder: opened(), pending: null };
    return e.edit;
  }

  /** What the page shows of the edit state: the undo and redo labels and the files changed since saved. */
  function status(e) {
    const st = stateOf(e);
    return {
      undo: st.done.at(-1)?.label ?? null,
      redo: st.undone.at(-1)?.label ?? null,
      changed: e.files.filter((f) => st.written.get(f.path) !== f.content).map((f) => f.path),
    };
  }

  /** `files` with `edits` applied: every file, the changed ones replaced, new ones at the end. */
  function applied(files, edits) {
    const out = applyEdits(files, edits);
    const byPath = new Map(out.map((f) => [f.path, typeof f.content === 'string' ? f.content : new TextDecoder().decode(f.content)]));
    const merged = files.map((f) => ({ path: f.path, content: byPath.get(f.path) ?? f.content }));
    for (const [path, content] of byPath) if (!files.some((f) => f.path === path)) merged.push({ path, content });
    return merged;
  }

  /** Put `next` (the whole file list) in place of `e.files`; the paths whose text changed. */
  function replaceFiles(e, next, removed = []) {
    const old = new Map(e.files.map((f) => [f.path, f.content]));
    const changed = next.filter((f) => old.get(f.path) !== f.content).map((f) => f.path);
    e.files.splice(0, e.files.length, ...next.filter((f) => !removed.includes(f.path)).map((f) => ({ ...f })));
    for (const p of changed) if (!removed.includes(p)) e.session?.update(p, next.find((f) => f.path === p).content);
    for (const p of removed) e.session?.remove(p);
    return [...changed, ...removed];
  }

  /** The texts of `paths` in `files` (null: no such file). */
  const texts = (files, paths) => new Map(paths.map((p) => [p, files.find((f) => f.path === p)?.content ?? null]));

  /** Refuse when a file the edit set touches no longer holds the text it was made for. */
  function check(e, expected, what) {
    for (const [path, text] of expected) {
      const now = e.files.find((f) => f.path === path)?.content ?? null;
      if (now !== text) throw error('stale', `${path} changed since ${what}; edit it by hand, or load the catalog again`);
    }
  }

  /** Apply an edit set, reload the catalog, and say what changed. */
  function commit(handle, e, edits, removed = []) {
    const next = applied(e.files, edits);
    const paths = replaceFiles(e, next, removed);
    const loaded = reload(handle);
    return { catalog: loaded, paths, status: status(entry(loaded.handle)) };
  }

  return {
    /**
     * Plan `op` on the loaded catalog (with the editor's edits): the edits and their undo, the text
     * diff of each changed file, the catalog diff, the findings, the channels whose graphs changed,
     * and the catalog after the edit loaded in the `edit-preview` slot (`previewHandle`).
     */
    async editPlan(handle, op) {
      const e = entry(handle);
      await tools();
      const plan = planEdit(e.files, op);
      const touched = [...new Set(plan.edits.map((x) => x.file))];
      const after = applied(e.files, plan.edits);
      const before = texts(e.files, touched);
      const afterTexts = texts(after, touched);
      const st = stateOf(e);
      st.pending = { label: describe(op), op, edits: plan.edits, undo: plan.undo, before, after: afterTexts, planned: before };
      const previewHandle = put('edit-preview', after, after);
      const preview = summary(previewHandle);
      return {
        label: st.pending.label,
        edits: plan.edits,
        diffs: touched.map((p) => fileDiff(p, before.get(p), afterTexts.get(p))),
        diff: plan.diff,
        findings: plan.findings,
        graphs: (plan.graphs ?? []).map((g) => ({ package: g.package, channel: g.channel, before: Boolean(g.before), after: Boolean(g.after) })),
        preview: { handle: previewHandle, report: preview.report },
      };
    },

    /** Apply the edit set last planned; it becomes the top of the undo stack (the redo stack empties). */
    editApply(handle) {
      const e = entry(handle);
      const st = stateOf(e);
      const p = st.pending;
      if (!p) throw error('no-plan', 'nothing planned to apply');
      check(e, p.planned, 'the edit was planned');
      st.pending = null;
      close('edit-preview');
      const { planned, ...set } = p;
      const out = commit(handle, e, set.edits);
      const st2 = stateOf(entry(out.catalog.handle));
      st2.done.push(set);
      st2.undone = [];
      out.status = status(entry(out.catalog.handle));
      return out;
    },

    /** Forget the edit set last planned (the preview's catalog too). */
    editCancel(handle) {
      const e = entry(handle);
      stateOf(e).pending = null;
      close('edit-preview');
      return true;
    },

    /** Undo the last applied edit set with its inverse edits. */
    editUndo(handle) {
      const e = entry(handle);
      const st = stateOf(e);
      const set = st.done.at(-1);
      if (!set) throw error('nothing-to-undo', 'nothing to undo');
      check(e, set.after, `"${set.label}"`);
      // A file the edit set created goes away again.
      const removed = [...set.before].filter(([, text]) => text === null).map(([path]) => path);
      st.done.pop();
      st.undone.push(set);
      const out = commit(handle, e, set.undo, removed);
      out.label = set.label;
      return out;
    },

    /** Apply again the last undone edit set. */
    editRedo(handle) {
      const e = entry(handle);
      const st = stateOf(e);
      const set = st.undone.at(-1);
      if (!set) throw error('nothing-to-redo', 'nothing to redo');
      check(e, set.before, `"${set.label}" was undone`);
      st.undone.pop();
      st.done.push(set);
      const out = commit(handle, e, set.edits);
      out.label = set.label;
      return out;
    },

    /** The undo and redo labels and the changed files. */
    editStatus(handle) {
      return status(entry(handle));
    },

    /**
     * The files changed since saved: `{files: [{path, content, base}]}` (`base`: the text as
     * opened or last written to the folder, which a write-back checks the folder still holds; null
     * for a file the edits created), and with `zip`, those files as one zip archive (`zip`: its bytes).
     */
    editChanged(handle, { zip = false } = {}) {
      const e = entry(handle);
      const st = stateOf(e);
      const { changed } = status(e);
      const files = e.files.filter((f) => changed.includes(f.path)).map((f) => ({ path: f.path, content: f.content, base: st.inFolder.get(f.path) ?? null }));
      if (!zip) return { files };
      return { files, zip: zipSync(Object.fromEntries(files.map((f) => [f.path, strToU8(f.content)]))) };
    },

    /**
     * The changed files were saved: they are the new baseline of "changed". `files` (`[{path,
     * content}]`): only those texts were saved (what was typed meanwhile stays unsaved);
     * `folder`: they were written to the folder (the base of its next write-back).
     */
    editSaved(handle, { files, folder = false } = {}) {
      const e = entry(handle);
      const st = stateOf(e);
      for (const f of files ?? e.files) {
        st.written.set(f.path, f.content);
        if (folder) st.inFolder.set(f.path, f.content);
      }
      return status(e);
    },
  };
}
