// The hookc extension: starts `hookc lsp` (the path is the `hookc.path` setting) for `.rules`
// files. Everything the editor shows comes from the server: check's diagnostics, completion,
// hover and fmt formatting.
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('hookc').get('path') || 'hookc';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient('hookc', 'hookc', { run: server, debug: server }, {
    documentSelector: [{ scheme: 'file', language: 'hookc' }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
