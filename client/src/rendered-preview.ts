/**
 * "Show Rendered Output" and "Compare with Rendered": a read-only virtual document holding
 * the current file as kustomize-controller applies it in the chosen render context. It is
 * refreshed as the source changes; the server redacts secrets before the text arrives.
 */
import { EventEmitter, Uri, commands, languages, window, workspace, type Disposable, type TextDocument, type TextDocumentContentProvider } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { renderRequest, type RenderResult } from '../../server/src/protocol';
import type { ContextChoice } from './status';

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
    const context = await choice.pick(editor.document.uri);
    return context === null ? undefined : renderedUri(editor.document.uri, context);
  };
  return [
    workspace.registerTextDocumentContentProvider(renderedScheme, provider),
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
