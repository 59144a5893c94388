/** "Explain Variable": where a variable's value comes from, layer by layer, in every cluster. */
import { commands, window, workspace, type Disposable } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { explainVariableRequest, type ExplainVariableResult } from '../../server/src/protocol';

export function registerExplainVariable(client: () => LanguageClient | undefined): Disposable {
  return commands.registerCommand('renderLens.explainVariable', async () => {
    const editor = window.activeTextEditor;
    const uri = editor?.document.uri.toString() ?? '';
    const position = editor ? { line: editor.selection.active.line, character: editor.selection.active.character } : undefined;
    let result = (await client()?.sendRequest(explainVariableRequest, { uri, position })) as ExplainVariableResult | null | undefined;
    if (!result) {
      const name = await window.showInputBox({ prompt: 'Variable name', placeHolder: 'cluster_domain', validateInput: (v) => (/^[_A-Za-z][_A-Za-z0-9]*$/.test(v) ? undefined : 'Flux variable names match [_A-Za-z][_A-Za-z0-9]*') });
      if (!name) return;
      result = (await client()?.sendRequest(explainVariableRequest, { uri, name })) as ExplainVariableResult | null | undefined;
    }
    if (result) await window.showTextDocument(await workspace.openTextDocument({ content: result.text, language: 'plaintext' }), { preview: true, viewColumn: -2 });
  });
}
