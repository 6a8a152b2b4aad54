// The bundled language server: LSP over stdio on the npm package's WebAssembly in Node, for a
// workspace folder that is a File-Based Catalog. Diagnostics for every file of the catalog after
// each change, hover on bundle and channel names, quick fixes and refactorings from the edit engine.
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CatalogWorkspace } from './workspace.mjs';
import { catalogPath, wordAt } from './positions.mjs';
import { hoverText } from './hover.mjs';
import { bundleActions, workspaceEdit } from './actions.mjs';
import { quickFixes } from './fixes.mjs';
import { guardedReader } from './reader.mjs';

// The package's Node entry: the copy packaged beside the server, or OLM_CATALOG_MODULE (a path or
// file: URL; the tests point it at the packed npm package).
const olmModule = process.env.OLM_CATALOG_MODULE || new URL('../olm-catalog/node.js', import.meta.url).href;
const olm = await import(olmModule.startsWith('file:') ? olmModule : pathToFileURL(olmModule).href);

const writer = new lsp.StreamMessageWriter(process.stdout);
const connection = lsp.createConnection(guardedReader(process.stdin, writer), writer);
const documents = new lsp.TextDocuments(TextDocument);
let ws = null;
let rootHint = null;

/** The workspace, opened on the first use (the folder, else the first document's directory). */
function workspace(uri) {
  if (!ws) {
    const root = rootHint ?? dirname(fileURLToPath(uri));
    ws = new CatalogWorkspace(olm, root, (m) => connection.console.error(m));
  }
  return ws;
}

function publish() {
  for (const params of ws.changedDiagnostics()) connection.sendDiagnostics(params);
}

connection.onInitialize((params) => {
  const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
  if (folder?.startsWith('file:')) rootHint = fileURLToPath(folder);
  return {
    capabilities: {
      textDocumentSync: lsp.TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: ['quickfix', 'refactor.rewrite'] },
    },
    serverInfo: { name: 'olm-catalog (WebAssembly)' },
  };
});

connection.onInitialized(() => {
  if (rootHint) {
    workspace(null);
    publish();
  }
});

documents.onDidChangeContent(({ document }) => {
  if (!rootHint && !document.uri.startsWith('file:')) return;
  const w = workspace(document.uri);
  const path = catalogPath(w.root, document.uri);
  if (path === null) return;
  w.update(path, document.getText());
  publish();
});

documents.onDidClose(({ document }) => {
  const path = ws && catalogPath(ws.root, document.uri);
  if (!path) return;
  ws.reload(path);
  publish();
});

connection.onDidChangeWatchedFiles(({ changes }) => {
  if (!ws) return;
  for (const { uri } of changes) {
    const path = catalogPath(ws.root, uri);
    if (path !== null && !documents.get(uri)) ws.reload(path);
  }
  publish();
});

/** The word under the cursor, its range and the document's text, or null. */
function wordUnder({ textDocument, position }) {
  const doc = documents.get(textDocument.uri);
  if (!doc || !ws || catalogPath(ws.root, doc.uri) === null) return null;
  const text = doc.getText();
  const at = wordAt(text, position);
  return at && { ...at, text };
}

connection.onHover((params) => {
  const at = wordUnder(params);
  const catalog = at && ws.loaded();
  const value = catalog && hoverText(catalog, at.word, at.text);
  return value ? { contents: { kind: 'markdown', value }, range: at.range } : null;
});

connection.onCodeAction((params) => {
  const doc = documents.get(params.textDocument.uri);
  const fixes = doc && ws ? quickFixes(ws, params.context?.diagnostics ?? [], doc.getText(), workspaceEdit) : [];
  const at = wordUnder({ textDocument: params.textDocument, position: params.range.start });
  return [...fixes, ...(at ? bundleActions(ws, at.word, at.text) : [])];
});

documents.listen(connection);
connection.listen();
