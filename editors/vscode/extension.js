// The VS Code extension: starts `olm-catalog lsp` when an olm-catalog binary is configured
// (`olmCatalog.server.path`) or on PATH, else the bundled server (server/main.mjs) on the npm
// package's WebAssembly in Node, and connects VS Code to it over stdio.
const { existsSync } = require('node:fs');
const { delimiter, join } = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

/** The olm-catalog binary to run: the setting's, else the first on PATH, else null. */
function nativeBinary() {
  const configured = vscode.workspace.getConfiguration('olmCatalog').get('server.path');
  if (configured) return configured;
  const names = process.platform === 'win32' ? ['olm-catalog.exe'] : ['olm-catalog'];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** How to start the server: the native one, or the bundled one in VS Code's Node. */
function serverOptions(context) {
  const binary = nativeBinary();
  if (binary) return { command: binary, args: ['lsp'], transport: TransportKind.stdio };
  const module = context.asAbsolutePath(join('server', 'main.mjs'));
  return { module, transport: TransportKind.stdio };
}

function activate(context) {
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'json' },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*') },
  };
  client = new LanguageClient('olmCatalog', 'OLM Catalog', serverOptions(context), clientOptions);
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
