// Where findings are: catalog paths (relative to the workspace folder, `/`-separated) to and from
// document URIs, and a finding's 1-based line and character column to an LSP range (0-based, UTF-16)
// covering the token it points at.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, relative, sep } from 'node:path';

/** The catalog path of `uri` under `root`, or null when it is not a file inside the folder. */
export function catalogPath(root, uri) {
  if (!uri.startsWith('file:')) return null;
  const rel = relative(root, fileURLToPath(uri));
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return null;
  return rel.split(sep).join('/');
}

/** The `file:` URI of catalog path `path` under `root`. */
export function fileUri(root, path) {
  return pathToFileURL(join(root, ...path.split('/'))).href;
}

/** The UTF-16 offset in `line` of character (code point) index `chars`. */
function utf16Offset(line, chars) {
  let units = 0;
  let seen = 0;
  for (const ch of line) {
    if (seen === chars) break;
    units += ch.length;
    seen += 1;
  }
  return units;
}

/** Length in UTF-16 units of the token starting at `at`: a quoted string, or a run up to a separator. */
function tokenLength(line, at) {
  const quote = line[at];
  if (quote === '"' || quote === "'") {
    const close = line.indexOf(quote, at + 1);
    return close < 0 ? line.length - at : close + 1 - at;
  }
  const rest = line.slice(at);
  const m = /^[^\s,\]}#]*/.exec(rest);
  return m[0].endsWith(':') ? m[0].length - 1 : m[0].length;
}

/**
 * The LSP range of a finding's `line`/`column` in a file of `lines`: the token there, or the file's
 * start when the finding is about the whole file (line 0) or the file is unknown (null).
 */
export function findingRange(lines, line, column) {
  if (!line || lines == null) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lineText = lines[line - 1] ?? '';
  const start = utf16Offset(lineText, Math.max(column - 1, 0));
  const end = start + tokenLength(lineText, start);
  return { start: { line: line - 1, character: start }, end: { line: line - 1, character: end } };
}

/** The word (a bundle, channel or package name) at `position` in `text`, or null. */
export function wordAt(text, position) {
  const lineText = text.split(/\r?\n/)[position.line] ?? '';
  const isWord = (c) => c !== undefined && /[A-Za-z0-9._+\-]/.test(c);
  let start = position.character;
  let end = position.character;
  while (isWord(lineText[start - 1])) start -= 1;
  while (isWord(lineText[end])) end += 1;
  if (start === end) return null;
  return {
    word: lineText.slice(start, end),
    range: { start: { line: position.line, character: start }, end: { line: position.line, character: end } },
  };
}
