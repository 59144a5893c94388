/**
 * "Explain Variable": where a variable's value comes from, layer by layer, in every cluster.
 * Shown in a read-only virtual document (`render-lens-explain:`), not an Untitled buffer that
 * would ask to be saved on close; the server is asked again whenever the document is read.
 */
import { Uri, commands, window, workspace, type Disposable, type TextDocumentContentProvider } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { explainVariableRequest, type ExplainVariableParams, type ExplainVariableResult } from '../../server/src/protocol';

export const explainScheme = 'render-lens-explain';

/** `render-lens-explain:/NAME (explained)?source=<uri>&name=NAME` */
function explainUri(source: string, name: string): Uri {
  return Uri.from({ scheme: explainScheme, path: `/${name} (explained)`, query: new URLSearchParams({ source, name }).toString() });
}

export function registerExplainVariable(client: () => LanguageClient | undefined): Disposable[] {
  const ask = async (params: ExplainVariableParams) => (await client()?.sendRequest(explainVariableRequest, params)) as ExplainVariableResult | null | undefined;
  const provider: TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const query = new URLSearchParams(uri.query);
      const result = await ask({ uri: query.get('source') ?? '', name: query.get('name') ?? '' });
      return result?.text ?? (client() ? `No variable ${query.get('name')} is defined for this file.\n` : 'Render Lens is not running.\n');
    },
  };
  return [
    workspace.registerTextDocumentContentProvider(explainScheme, provider),
    commands.registerCommand('renderLens.explainVariable', async () => {
      const editor = window.activeTextEditor;
      const uri = editor?.document.uri.toString() ?? '';
      const position = editor ? { line: editor.selection.active.line, character: editor.selection.active.character } : undefined;
      let name = (await ask({ uri, position }))?.name;
      if (!name) {
        name = await window.showInputBox({ prompt: 'Variable name', placeHolder: 'cluster_domain', validateInput: (v) => (/^[_A-Za-z][_A-Za-z0-9]*$/.test(v) ? undefined : 'Flux variable names match [_A-Za-z][_A-Za-z0-9]*') });
        if (!name) return;
      }
      await window.showTextDocument(await workspace.openTextDocument(explainUri(uri, name)), { preview: true, viewColumn: -2 });
    }),
  ];
}
