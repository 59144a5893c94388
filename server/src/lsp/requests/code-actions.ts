/** Quick fixes: read back the fixes each diagnostic points at; nothing is re-discovered here. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { toCodeActions } from '../convert';
import type { FixStore } from '../fix-store';
import type { Workspaces } from '../workspace';

export function registerCodeActions(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces, fixes: FixStore): void {
  connection.onCodeAction(({ textDocument, context }) => {
    const located = workspaces.locate(textDocument.uri);
    if (!located) return [];
    const open = documents.get(textDocument.uri);
    const textOf = (file: string) => located.engine.index.text(file);
    const document = open ?? TextDocument.create(textDocument.uri, 'yaml', 0, textOf(located.file) ?? '');
    const uriOf = (file: string) => workspaces.uriOf(located, file);
    return context.diagnostics
      .filter((diagnostic) => diagnostic.source === 'render-lens')
      .flatMap((diagnostic) => toCodeActions(diagnostic, fixes.fixesOf(textDocument.uri, diagnostic.data, open?.version ?? null), located.file, document, uriOf, textOf));
  });
}
