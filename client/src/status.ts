/**
 * The status bar shows the render context of the active file (`Flux: production/apps (+1)`);
 * a click picks which context the preview uses. The choice is remembered per file.
 */
import { StatusBarAlignment, Uri, commands, window, type Disposable, type TextEditor } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { contextsRequest, type ContextsResult } from '../../server/src/protocol';

export interface ContextChoice {
  /** The chosen context id for a file, asking with a quick pick when there are several; null if cancelled. */
  pick(uri: Uri, always?: boolean): Promise<number | null | undefined>;
}

export function registerStatus(client: () => LanguageClient | undefined): { choice: ContextChoice; refresh: () => void; disposables: Disposable[] } {
  const chosen = new Map<string, number>();
  const item = window.createStatusBarItem('renderLens.context', StatusBarAlignment.Right, 100);
  item.name = 'Render Lens: render context';
  item.command = 'renderLens.pickContext';

  const contextsOf = async (uri: Uri) => ((await client()?.sendRequest(contextsRequest, { uri: uri.toString() })) as ContextsResult | undefined)?.contexts ?? [];

  const update = async (editor: TextEditor | undefined) => {
    if (!editor || !['yaml', 'helm'].includes(editor.document.languageId)) return item.hide();
    const contexts = await contextsOf(editor.document.uri);
    if (contexts.length === 0) {
      item.text = 'Flux: not rendered';
      item.tooltip = 'No Flux Kustomization renders this file.';
    } else {
      const current = contexts.find((c) => c.id === chosen.get(editor.document.uri.toString())) ?? contexts[0];
      item.text = `Flux: ${current.label}${contexts.length > 1 ? ` (+${contexts.length - 1})` : ''}`;
      item.tooltip = `${current.substitutes ? (current.strict ? 'Substituted, strict mode' : 'Substituted') : 'Not substituted'}. Click to choose the context for the rendered preview.`;
    }
    item.show();
  };

  const choice: ContextChoice = {
    async pick(uri, always = false) {
      const contexts = await contextsOf(uri);
      if (contexts.length <= 1 && !always) return contexts[0]?.id;
      const picked = await window.showQuickPick(
        contexts.map((c) => ({ label: c.label, description: c.substitutes ? (c.strict ? 'substituted, strict' : 'substituted') : 'not substituted', id: c.id })),
        { placeHolder: 'Render context (cluster/Kustomization)' },
      );
      if (!picked) return null;
      chosen.set(uri.toString(), picked.id);
      void update(window.activeTextEditor);
      return picked.id;
    },
  };

  return {
    choice,
    refresh: () => void update(window.activeTextEditor),
    disposables: [
      item,
      window.onDidChangeActiveTextEditor((editor) => void update(editor)),
      commands.registerCommand('renderLens.pickContext', async () => {
        const uri = window.activeTextEditor?.document.uri;
        if (uri) await choice.pick(uri, true);
      }),
      { dispose: () => chosen.clear() },
    ],
  };
}
