/** Completion: the core returns plain items; this converts ranges and kinds. */
import { CompletionItemKind, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fleetCompletionsAt } from '../../core/fleet/completion';
import { variableCompletionsAt } from '../../core/variable-completion';
import { absoluteLinks, toLspRange } from '../convert';
import type { Workspaces } from '../workspace';

/** `{` opens a Flux `${VAR}`; the others are Fleet's (an `op:` value, a `.` field). */
export const completionTriggers = ['{', ' ', ':', '.'];

export function registerCompletion(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  connection.onCompletion(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    const located = workspaces.locate(textDocument.uri);
    if (!document || !located) return [];
    const offset = document.offsetAt(position);
    const fleet = fleetCompletionsAt(located.engine, located.file, offset);
    const items = fleet.length > 0 ? fleet : variableCompletionsAt(located.engine, located.file, offset);
    const kind = fleet.length > 0 ? CompletionItemKind.Value : CompletionItemKind.Variable;
    return items.map((item) => ({
      label: item.label,
      detail: item.detail,
      documentation: { kind: 'markdown' as const, value: absoluteLinks(item.documentation, (file) => workspaces.uriOf(located, file)) },
      kind,
      textEdit: { range: toLspRange(document, item.range), newText: item.insertText },
    }));
  });
}
