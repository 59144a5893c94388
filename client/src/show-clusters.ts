/**
 * "Show Clusters": the Flux model the server built (what `render-lens clusters` prints), in a
 * read-only document that refreshes each time the command runs.
 */
import { EventEmitter, Uri, commands, window, workspace, type Disposable } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { clustersRequest, type ClustersResult } from '../../server/src/protocol';

const scheme = 'render-lens-clusters';
const uri = Uri.from({ scheme, path: '/Render Lens clusters' });

export function registerShowClusters(client: () => LanguageClient | undefined): Disposable[] {
  let text = '';
  const changed = new EventEmitter<Uri>();
  const provider = workspace.registerTextDocumentContentProvider(scheme, { onDidChange: changed.event, provideTextDocumentContent: () => text });
  const command = commands.registerCommand('renderLens.showClusters', async () => {
    const result = (await client()?.sendRequest(clustersRequest)) as ClustersResult | undefined;
    if (!result) {
      void window.showWarningMessage('Render Lens: the language server is not running.');
      return;
    }
    text = result.text;
    changed.fire(uri);
    await window.showTextDocument(await workspace.openTextDocument(uri), { preview: true });
  });
  return [provider, command, changed];
}
