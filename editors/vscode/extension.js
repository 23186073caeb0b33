// The Warband rules extension: highlighting (syntaxes/) and the toolkit's language server,
// started as `warband lsp` (the command and its arguments are settings: warband.server.*).
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("warband");
  const server = {
    command: settings.get("server.command", "warband"),
    args: settings.get("server.args", ["lsp"]),
    transport: TransportKind.stdio,
  };
  client = new LanguageClient("warband", "Warband", server, {
    // rules files, and warband files (the server leaves any other YAML alone)
    documentSelector: [
      { scheme: "file", language: "warband-rules" },
      { scheme: "untitled", language: "warband-rules" },
      { scheme: "file", language: "yaml" },
    ],
    initializationOptions: { debounce: settings.get("debounce", 150) },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
