/** Completion: the core returns plain items; this converts ranges and kinds. */
import { CompletionItemKind, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { completionsAt } from '../../core';
import { absoluteLinks, toLspRange } from '../convert';
import type { Workspaces } from '../workspace';

/** `{` opens a Flux `${VAR}`; the others are Fleet's (an `op:` value, a `.` field). */
export const completionTriggers = ['{', ' ', ':', '.'];

export function registerCompletion(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  connection.onCompletion(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    const located = workspaces.locate(textDocument.uri);
    if (!document || !located) return [];
    return completionsAt(located.engine, located.file, document.offsetAt(position)).map((item) => ({
      label: item.label,
      detail: item.detail,
      documentation: { kind: 'markdown' as const, value: absoluteLinks(item.documentation, (file) => workspaces.uriOf(located, file)) },
      kind: item.kind === 'value' ? CompletionItemKind.Value : CompletionItemKind.Variable,
      textEdit: { range: toLspRange(document, item.range), newText: item.insertText },
    }));
  });
}
