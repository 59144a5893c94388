/** Quick fixes: read back the fixes each diagnostic carries; nothing is re-discovered here. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toCodeActions } from '../convert';
import type { Workspaces } from '../workspace';

export function registerCodeActions(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  connection.onCodeAction(({ textDocument, context }) => {
    const located = workspaces.locate(textDocument.uri);
    if (!located) return [];
    const documentOf = (file: string) => documents.get(workspaces.uriOf(located, file));
    return context.diagnostics
      .filter((diagnostic) => diagnostic.source === 'render-lens')
      .flatMap((diagnostic) => toCodeActions(diagnostic, documentOf, (file) => workspaces.uriOf(located, file)));
  });
}
