/** Completion: the core returns plain items; this converts ranges and kinds. */
import { CompletionItemKind, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fleetCompletionsAt } from '../../core/fleet/completion';
import { toLspRange } from '../convert';
import type { Workspaces } from '../workspace';

export function registerCompletion(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  connection.onCompletion(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    const located = workspaces.locate(textDocument.uri);
    if (!document || !located) return [];
    return fleetCompletionsAt(located.engine, located.file, document.offsetAt(position)).map((item) => ({
      label: item.label,
      detail: item.detail,
      documentation: { kind: 'markdown' as const, value: item.documentation },
      kind: CompletionItemKind.Value,
      textEdit: { range: toLspRange(document, item.range), newText: item.insertText },
    }));
  });
}
