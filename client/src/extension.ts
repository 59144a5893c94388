/**
 * The VS Code side of Render Lens: start the bundled language server for YAML documents and
 * wire the palette commands. Everything the user sees comes from the server.
 */
import * as path from 'path';
import { commands, extensions, window, workspace, type ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { checkWorkspaceCommand, serverNodeOptions, type CheckWorkspaceResult, type InitializationOptions } from '../../server/src/protocol';
import { registerExplainVariable } from './explain-variable';
import { registerRenderedPreview } from './rendered-preview';
import { registerRestartServer } from './restart-server';
import { registerShowClusters } from './show-clusters';
import { registerStatus } from './status';

let client: LanguageClient | undefined;

function createClient(context: ExtensionContext): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    // stdio, not IPC: over stdio the server writes a big manifest's unchanged diagnostics from
    // bytes it kept (server/src/runtime/diagnostic-json.ts); Node's IPC serializes every message in full.
    // The node options size V8's young generation for opening big manifests (node-options.ts).
    run: { module, transport: TransportKind.stdio, options: { execArgv: [...serverNodeOptions] } },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: [...serverNodeOptions, '--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // Kubernetes Tools gives chart templates the `helm` language id; serve both.
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
      { scheme: 'file', language: 'helm' },
      { scheme: 'file', pattern: '**/templates/**/*.{yaml,yml,tpl}' },
    ],
    synchronize: { fileEvents: workspace.createFileSystemWatcher('**/{*.yaml,*.yml,Kustomization,*.env}') },
    initializationOptions: { yamlSyntaxReportedElsewhere: extensions.getExtension('redhat.vscode-yaml') !== undefined } satisfies InitializationOptions,
  };
  return new LanguageClient('renderLens', 'Render Lens', serverOptions, clientOptions);
}

async function setEnabled(context: ExtensionContext, enabled: boolean): Promise<void> {
  if (enabled && !client) {
    client = createClient(context);
    await client.start();
  } else if (!enabled && client) {
    await client.stop();
    client = undefined;
  }
}

export async function activate(context: ExtensionContext): Promise<void> {
  const current = () => client;
  const status = registerStatus(current);
  context.subscriptions.push(
    ...status.disposables,
    ...registerRenderedPreview(current, status.choice),
    ...registerExplainVariable(current),
    ...registerShowClusters(current),
    registerRestartServer(current),
    commands.registerCommand('renderLens.showOutput', () => client?.outputChannel.show(true)),
    // The server runs the check; the client only reports the totals.
    commands.registerCommand('renderLens.checkWorkspace', async () => {
      const result = (await client?.sendRequest('workspace/executeCommand', { command: checkWorkspaceCommand, arguments: [] })) as CheckWorkspaceResult | undefined;
      if (result) void window.showInformationMessage(`Render Lens: ${result.findings} finding(s), ${result.errors} error(s) in ${result.files} file(s).`);
    }),
    workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('renderLens.enable')) await setEnabled(context, workspace.getConfiguration('renderLens').get<boolean>('enable', true));
    }),
    { dispose: () => void client?.stop() },
  );
  await setEnabled(context, workspace.getConfiguration('renderLens').get<boolean>('enable', true));
  status.refresh();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
