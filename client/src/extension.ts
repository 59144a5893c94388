/**
 * The VS Code side of Render Lens: start the bundled language server and hand it YAML
 * documents. Everything the user sees comes from the server.
 */
import * as path from 'path';
import { commands, workspace, type ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
    ],
    synchronize: { fileEvents: workspace.createFileSystemWatcher('**/*.{yaml,yml}') },
  };
  client = new LanguageClient('renderLens', 'Render Lens', serverOptions, clientOptions);
  context.subscriptions.push(
    commands.registerCommand('renderLens.restartServer', async () => {
      await client?.restart();
    }),
  );
  if (workspace.getConfiguration('renderLens').get<boolean>('enable', true)) await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
