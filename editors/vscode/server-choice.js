// Which language server the extension starts (kept apart from the VS Code API so that it can be
// tested in plain Node): the configured olm-catalog binary, else the first on PATH, run as
// `olm-catalog lsp`; else the bundled server on the WebAssembly module.
const { existsSync, statSync } = require('node:fs');
const { delimiter, join } = require('node:path');

/** Whether `path` is a file (a directory named olm-catalog on PATH is not the binary). */
function isFile(path) {
  return existsSync(path) && statSync(path).isFile();
}

/** The first `olm-catalog` binary in the directories of `pathVar`, or null. */
function onPath(pathVar, platform) {
  const name = platform === 'win32' ? 'olm-catalog.exe' : 'olm-catalog';
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir && isFile(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * `{ command, args }` for the native server or `{ module }` for the bundled one, from the setting
 * `configured` (a path or ''), the `PATH` value, the platform and the bundled server's path.
 */
function chooseServer({ configured, pathVar, platform, bundled }) {
  const binary = configured || onPath(pathVar, platform);
  return binary ? { command: binary, args: ['lsp'] } : { module: bundled };
}

module.exports = { chooseServer };
