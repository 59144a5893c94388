/**
 * "Show Rendered Output" and "Compare with Rendered": a read-only virtual document holding
 * the current file as kustomize-controller applies it in the chosen render context. It is
 * refreshed as the source changes; the server redacts secrets before the text arrives.
 */
import { EventEmitter, TabInputText, TabInputTextDiff, Uri, type Tab, commands, languages, window, workspace, type Disposable, type TextDocument, type TextDocumentContentProvider } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { renderRequest, type RenderResult } from '../../server/src/protocol';
import { sourceOf, type ContextChoice } from './status';

export const renderedScheme = 'render-lens-rendered';

/** `render-lens-rendered:/path/file.yaml?source=<uri>&context=<id>` */
function renderedUri(source: Uri, context: number | undefined): Uri {
  const query = new URLSearchParams({ source: source.toString(), context: String(context ?? 0) });
  return Uri.from({ scheme: renderedScheme, path: `${source.path} (rendered)`, query: query.toString() });
}

export function registerRenderedPreview(client: () => LanguageClient | undefined, choice: ContextChoice): Disposable[] {
  const changed = new EventEmitter<Uri>();
  const open = new Map<string, Uri>();
  const provider: TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const query = new URLSearchParams(uri.query);
      const source = query.get('source') ?? '';
      open.set(uri.toString(), Uri.parse(source));
      const result = (await client()?.sendRequest(renderRequest, { uri: source, context: Number(query.get('context') ?? 0) })) as RenderResult | null | undefined;
      return result?.text ?? '# Render Lens is not running.\n';
    },
  };
  const target = async (): Promise<Uri | undefined> => {
    const editor = window.activeTextEditor;
    if (!editor || editor.document.uri.scheme === renderedScheme) return undefined;
    // The context chosen before (status bar, a preview) is used without asking again.
    const context = choice.chosen(editor.document.uri) ?? (await choice.pick(editor.document.uri));
    return context === null ? undefined : renderedUri(editor.document.uri, context);
  };
  /** A context chosen for a source, from its preview or anywhere: its open previews and diffs show that context. */
  const rerender = async ({ source, context }: { source: Uri; context: number }) => {
    const isStale = (uri: Uri) => uri.scheme === renderedScheme && sourceOf(uri).toString() === source.toString() && new URLSearchParams(uri.query).get('context') !== String(context);
    const staleTab = (tab: Tab) => (tab.input instanceof TabInputText && isStale(tab.input.uri)) || (tab.input instanceof TabInputTextDiff && isStale(tab.input.modified));
    const uri = renderedUri(source, context);
    const stale = window.tabGroups.all.flatMap((group) => group.tabs.filter(staleTab).map((tab) => ({ input: tab.input, label: tab.label, viewColumn: group.viewColumn })));
    if (stale.length === 0) return;
    await asYaml(await workspace.openTextDocument(uri));
    // The new one first, in the same column: closing first could close the column with it.
    for (const { input, label, viewColumn } of stale) {
      if (input instanceof TabInputTextDiff) await commands.executeCommand('vscode.diff', input.original, uri, label, { viewColumn });
      else await window.showTextDocument(await workspace.openTextDocument(uri), { viewColumn, preview: false });
    }
    // Tabs are snapshots: the stale ones are looked up again now that the tabs changed.
    await window.tabGroups.close(window.tabGroups.all.flatMap((group) => group.tabs.filter(staleTab)));
  };
  return [
    workspace.registerTextDocumentContentProvider(renderedScheme, provider),
    choice.onDidChoose((chosen) => void rerender(chosen)),
    // Live: a change to a source re-renders every preview of it (after the server has the text).
    workspace.onDidChangeTextDocument((event) => {
      for (const [rendered, source] of open) if (source.toString() === event.document.uri.toString()) changed.fire(Uri.parse(rendered));
    }),
    workspace.onDidCloseTextDocument((document) => open.delete(document.uri.toString())),
    commands.registerCommand('renderLens.showRendered', async () => {
      const uri = await target();
      if (uri) await window.showTextDocument(await asYaml(await workspace.openTextDocument(uri)), { preview: false, viewColumn: -2 });
    }),
    commands.registerCommand('renderLens.compareWithRendered', async () => {
      const source = window.activeTextEditor?.document.uri;
      const uri = await target();
      if (!source || !uri) return;
      await asYaml(await workspace.openTextDocument(uri));
      await commands.executeCommand('vscode.diff', source, uri, `${workspace.asRelativePath(source)} ↔ as applied`);
    }),
  ];
}

/** The rendered text is YAML: highlighted as such (the `(rendered)` suffix of its path hides the extension). */
async function asYaml(document: TextDocument): Promise<TextDocument> {
  return document.languageId === 'yaml' ? document : languages.setTextDocumentLanguage(document, 'yaml');
}
