// The VS Code extension: starts `olm-catalog lsp` when an olm-catalog binary is configured
// (`olmCatalog.server.path`) or on PATH, else the bundled server (server/main.mjs) on the npm
// package's WebAssembly in Node, and connects VS Code to it over stdio.
const { join } = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { chooseServer } = require('./server-choice');

let client;

/**
 * How to start the server over stdio: the native one as `olm-catalog lsp` (no transport given, so
 * that the client adds no `--stdio` argument), or the bundled one in VS Code's Node.
 */
function serverOptions(context) {
  const choice = chooseServer({
    configured: vscode.workspace.getConfiguration('olmCatalog').get('server.path'),
    pathVar: process.env.PATH,
    platform: process.platform,
    bundled: context.asAbsolutePath(join('server', 'main.mjs')),
  });
  return choice.command ? choice : { ...choice, transport: TransportKind.stdio };
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
