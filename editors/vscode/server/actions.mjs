// Refactorings offered on a bundle name, computed by the npm package's edit engine (`planEdit`):
// deprecate the bundle, or remove it and re-wire its channels. Each is a workspace edit of
// formatting-preserving text edits; an operation the engine refuses is not offered.
import { fileUri } from './positions.mjs';
import { documentPackages, packagesFirst } from './hover.mjs';

/** The package that has bundle `name` in the loaded catalog (those of `text` searched first), or null. */
function packageOf(catalog, name, text) {
  for (const pkg of packagesFirst(catalog, documentPackages(text))) {
    if (catalog.channelGraph(pkg.name).bundleChannels[name]) return pkg.name;
  }
  return null;
}

/** The operations offered on bundle `bundle` of package `pkg`, with their titles. */
function operations(pkg, bundle) {
  return [
    [`Deprecate ${bundle}`, { op: 'deprecate', package: pkg, bundle, message: `${bundle} is deprecated.` }],
    [`Remove ${bundle} and re-wire its channels`, { op: 'removeBundle', package: pkg, bundle }],
  ];
}

/** `plan`'s edits as an LSP workspace edit. */
export function workspaceEdit(root, plan) {
  const changes = {};
  for (const e of plan.edits) {
    const uri = fileUri(root, e.file);
    (changes[uri] ??= []).push({ range: { start: e.lsp.start, end: e.lsp.end }, newText: e.newText });
  }
  return { changes };
}

/** The code actions for the word `word` of document `text` in the workspace `ws` (none when it is no bundle). */
export function bundleActions(ws, word, text) {
  const catalog = ws.loaded();
  const pkg = catalog && packageOf(catalog, word, text);
  if (!pkg) return [];
  const actions = [];
  for (const [title, op] of operations(pkg, word)) {
    let plan;
    try {
      plan = ws.olm.planEdit(ws.files(), op);
    } catch {
      continue;
    }
    if (plan.edits.length) actions.push({ title, kind: 'refactor.rewrite', edit: workspaceEdit(ws.root, plan) });
  }
  return actions;
}
