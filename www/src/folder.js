// Writing the edited files back into a folder with the File System Access API (edit.js asks):
// first the check that nothing is lost (each file in the folder still holds the text the edit
// session started from, and a file the session creates is not there yet), then an all-or-nothing
// write as far as the API allows: every writable is opened and written (Chromium writes each to a
// swap file) before any is closed (each close commits its file atomically); a failure before the
// closes aborts every writable and removes what was created, so the folder is as it was; a close
// that fails puts the files already committed back. Also: reading a folder's files again.

/**
 * @typedef {{path: string, content: string, base: string | null}} ChangedFile `base`: the text the
 *   edit session started from (as read or last saved); null for a file the session creates
 * @typedef {{path: string, why: 'changed' | 'deleted' | 'exists', lastModified?: number}} Conflict
 */

/** A write that failed; `conflicts`: it was refused because files changed in the folder. */
export class SaveError extends Error {
  constructor(message, { cause, conflicts = [] } = {}) {
    super(message, { cause });
    this.name = 'SaveError';
    this.conflicts = conflicts;
  }
}

const missing = (e) => e?.name === 'NotFoundError' || e?.name === 'TypeMismatchError';

/** The directory handle holding `path` and the file's name; `made` (when given) records the directories created. */
async function parentOf(folder, path, made) {
  const parts = path.split('/');
  let dir = folder;
  for (const p of parts.slice(0, -1)) {
    try {
      dir = await dir.getDirectoryHandle(p);
    } catch (e) {
      if (!made || !missing(e)) throw e;
      const parent = dir;
      dir = await parent.getDirectoryHandle(p, { create: true });
      made.push({ dir: parent, name: p });
    }
  }
  return { dir, name: parts.at(-1) };
}

/** The `File` at `path` in `folder`, or null when there is none. */
async function fileAt(folder, path) {
  try {
    const { dir, name } = await parentOf(folder, path);
    return await (await dir.getFileHandle(name)).getFile();
  } catch (e) {
    if (missing(e)) return null;
    throw e;
  }
}

/**
 * Compare the folder with what the edit session started from: the conflicts (a file changed or
 * deleted there, or one the session creates already there) and the folder's text of each file
 * now (null: absent). The content decides; `lastModified` says when the folder's copy changed.
 * @param {FileSystemDirectoryHandle} folder
 * @param {ChangedFile[]} files
 * @returns {Promise<{conflicts: Conflict[], current: Map<string, string | null>}>}
 */
export async function checkFolder(folder, files) {
  const conflicts = [];
  const current = new Map();
  for (const f of files) {
    const file = await fileAt(folder, f.path);
    const text = file ? await file.text() : null;
    current.set(f.path, text);
    if (f.base === null && file) conflicts.push({ path: f.path, why: 'exists', lastModified: file.lastModified });
    else if (f.base !== null && !file) conflicts.push({ path: f.path, why: 'deleted' });
    else if (file && text !== f.base) conflicts.push({ path: f.path, why: 'changed', lastModified: file.lastModified });
  }
  return { conflicts, current };
}

/** Remove what the write created (files, then the directories that held them), newest first. */
async function removeMade(made) {
  for (const { dir, name } of [...made].reverse()) await dir.removeEntry(name).catch(() => {});
}

/** Write `text` back to the file at `path` (after a failed commit). */
async function restore(folder, path, text) {
  const { dir, name } = await parentOf(folder, path);
  const w = await (await dir.getFileHandle(name)).createWritable();
  await w.write(text);
  await w.close();
}

/**
 * Write every file of `files` into `folder`, all or nothing as far as the API allows; `verify`
 * runs after every file is written and before any is committed (a last check of the folder; it
 * throws to stop). `previous`: the folder's text of each file before (null: absent), put back
 * when a commit fails half-way. Returns each file's `lastModified` after the write.
 * @param {FileSystemDirectoryHandle} folder
 * @param {ChangedFile[]} files
 * @param {{previous: Map<string, string | null>, verify?: () => Promise<void>}} opts
 * @returns {Promise<Map<string, number>>}
 */
export async function writeAll(folder, files, { previous, verify }) {
  const made = [];
  const open = [];
  try {
    for (const f of files) {
      const { dir, name } = await parentOf(folder, f.path, made);
      let handle;
      try {
        handle = await dir.getFileHandle(name);
      } catch (e) {
        if (!missing(e)) throw e;
        handle = await dir.getFileHandle(name, { create: true });
        made.push({ dir, name });
      }
      open.push({ f, handle, w: await handle.createWritable() });
    }
    for (const o of open) await o.w.write(o.f.content);
    await verify?.();
  } catch (e) {
    await Promise.allSettled(open.map((o) => o.w.abort()));
    await removeMade(made);
    if (e instanceof SaveError) throw e;
    throw new SaveError(`${e.message}; nothing was changed in the folder`, { cause: e });
  }
  await commit(folder, open, previous, made);
  const stamps = new Map();
  for (const o of open) stamps.set(o.f.path, (await o.handle.getFile()).lastModified);
  return stamps;
}

/**
 * Close every writable in turn; when one fails, abort the rest, put back the files already
 * committed and remove what the write created (the one that failed is aborted too: a close that
 * failed may leave its swap file).
 */
async function commit(folder, open, previous, made) {
  for (let i = 0; i < open.length; i++) {
    try {
      await open[i].w.close();
    } catch (e) {
      await Promise.allSettled(open.slice(i).map((o) => o.w.abort()));
      const done = open.slice(0, i).map((o) => o.f.path).filter((path) => previous.get(path) !== null);
      const lost = [];
      for (const path of done) await restore(folder, path, previous.get(path)).catch(() => lost.push(path));
      await removeMade(made);
      const back = lost.length
        ? `; could not put back ${lost.join(', ')}: download the changed files to keep them`
        : `;${done.length ? ` ${done.join(', ')} put back as it was, so` : ''} nothing was changed in the folder`;
      throw new SaveError(`${open[i].f.path}: ${e.message}${back}`, { cause: e });
    }
  }
}

/**
 * Every file under `folder` (hidden entries, such as .git, left out) as `{path, blob}`, sorted by
 * path: what main.js loads for a catalog picked as a folder.
 * @param {FileSystemDirectoryHandle} folder
 */
export async function readFolder(folder, prefix = '', out = []) {
  for await (const [name, entry] of folder.entries()) {
    if (name.startsWith('.')) continue;
    if (entry.kind === 'file') out.push({ path: prefix + name, blob: await entry.getFile() });
    else await readFolder(entry, `${prefix}${name}/`, out);
  }
  if (!prefix) out.sort((a, b) => (a.path < b.path ? -1 : 1));
  return out;
}
