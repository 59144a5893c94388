/**
 * The status bar shows the render context of the active file (`Flux: production/apps (+1)`),
 * or what else Render Lens checks it as (a Helm template, a Fleet file); a click picks which
 * context the preview uses. The choice is remembered per file. In a rendered preview or its
 * diff, both speak of the source file, and a new choice re-renders the preview.
 */
import { EventEmitter, StatusBarAlignment, Uri, commands, window, type Disposable, type Event, type TextEditor } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { contextsRequest, type ContextsResult } from '../../server/src/protocol';

export interface ContextChoice {
  /** The chosen context id for a file, asking with a quick pick when there are several; null if cancelled. */
  pick(uri: Uri, always?: boolean): Promise<number | null | undefined>;
  /** The context chosen for the file before, if any. */
  chosen(uri: Uri): number | undefined;
  /** Makes `context` the file's choice, as a pick would (a command given the id, a keybinding). */
  choose(uri: Uri, context: number): void;
  /** A context picked by the user for a source file. */
  onDidChoose: Event<{ source: Uri; context: number }>;
}

/** The file a document speaks of: itself, or the source of a rendered preview (`?source=`). */
export function sourceOf(uri: Uri): Uri {
  const source = new URLSearchParams(uri.query).get('source');
  return uri.scheme !== 'file' && uri.scheme !== 'untitled' && source ? Uri.parse(source) : uri;
}

export function registerStatus(client: () => LanguageClient | undefined): { choice: ContextChoice; refresh: () => void; disposables: Disposable[] } {
  const chosen = new Map<string, number>();
  const item = window.createStatusBarItem('renderLens.context', StatusBarAlignment.Right, 100);
  item.name = 'Render Lens: render context';
  item.command = 'renderLens.pickContext';

  const chose = new EventEmitter<{ source: Uri; context: number }>();
  const answer = async (uri: Uri) => (await client()?.sendRequest(contextsRequest, { uri: uri.toString() })) as ContextsResult | undefined;
  const contextsOf = async (uri: Uri) => (await answer(uri))?.contexts ?? [];

  const update = async (editor: TextEditor | undefined) => {
    if (!editor || !['yaml', 'helm'].includes(editor.document.languageId)) return item.hide();
    const source = sourceOf(editor.document.uri);
    const { contexts = [], kind = 'yaml' } = (await answer(source)) ?? {};
    if (contexts.length === 0 && kind === 'helm-template') {
      item.text = 'Helm: template';
      item.tooltip = "A Helm chart template: hover an action to see what it renders with the chart's values.yaml.";
    } else if (contexts.length === 0 && kind === 'fleet') {
      item.text = 'Fleet: checked';
      item.tooltip = 'A Rancher Fleet file: values, comparePatches and ${ } templating are checked as Fleet reads them.';
    } else if (contexts.length === 0) {
      item.text = 'Flux: not rendered';
      item.tooltip = 'No Flux Kustomization renders this file.';
    } else {
      const current = contexts.find((c) => c.id === chosen.get(source.toString())) ?? contexts[0];
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
      choice.choose(uri, picked.id);
      return picked.id;
    },
    chosen: (uri) => chosen.get(uri.toString()),
    choose(uri, context) {
      chosen.set(uri.toString(), context);
      chose.fire({ source: uri, context });
      void update(window.activeTextEditor);
    },
    onDidChoose: chose.event,
  };

  return {
    choice,
    refresh: () => void update(window.activeTextEditor),
    disposables: [
      item,
      chose,
      window.onDidChangeActiveTextEditor((editor) => void update(editor)),
      // An id (from a keybinding's args) chooses without asking.
      commands.registerCommand('renderLens.pickContext', async (context?: number) => {
        const uri = window.activeTextEditor?.document.uri;
        if (!uri) return;
        if (typeof context === 'number') choice.choose(sourceOf(uri), context);
        else await choice.pick(sourceOf(uri), true);
      }),
      { dispose: () => chosen.clear() },
    ],
  };
}
