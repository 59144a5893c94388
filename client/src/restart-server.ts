/**
 * "Restart Server": restarts the language server, confirms it, and writes to the output
 * channel what the new server found (clusters and files per folder) and how long it took
 * from the restart until it could answer.
 */
import { commands, window, type Disposable } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { clustersRequest, type ClustersResult } from '../../server/src/protocol';

export function registerRestartServer(client: () => LanguageClient | undefined): Disposable {
  return commands.registerCommand('renderLens.restartServer', async () => {
    const running = client();
    if (!running) return void window.showWarningMessage('Render Lens: the server is not running (renderLens.enable is off).');
    const started = Date.now();
    await running.restart();
    const found = (await running.sendRequest(clustersRequest)) as ClustersResult;
    running.outputChannel.appendLine(restartLine(new Date(started), found, Date.now() - started));
    void window.showInformationMessage('Render Lens: the server restarted.');
  });
}

/** `Restarted the server at 07:12:03: found 2 cluster(s) (main, network) and 21 file(s) in 180 ms.` */
function restartLine(at: Date, found: ClustersResult, ms: number): string {
  const clusters = found.folders.flatMap((folder) => folder.clusters);
  const files = found.folders.reduce((sum, folder) => sum + folder.files, 0);
  const names = clusters.length > 0 ? ` (${clusters.join(', ')})` : '';
  return `Restarted the server at ${at.toTimeString().slice(0, 8)}: found ${clusters.length} cluster(s)${names} and ${files} file(s) in ${ms} ms.`;
}
