/** Go to definition and find references (Helm values, Flux variables), and rename for Flux variables. */
import { ResponseError, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { definitionsAt, type Location, referencesAt, renameVariable, validVariableName, variableAt } from '../../core';
import { toLspRange } from '../convert';
import type { Workspace, Workspaces } from '../workspace';

export function registerNavigation(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  /** LSP ranges need the target file's text: the open buffer, else the engine's copy. */
  const documentOf = (workspace: Workspace, file: string) => {
    const uri = workspaces.uriOf(workspace, file);
    return documents.get(uri) ?? TextDocument.create(uri, 'yaml', 0, workspace.engine.index.text(file) ?? '');
  };
  const locate = (uri: string, position: { line: number; character: number }) => {
    const located = workspaces.locate(uri);
    const document = documents.get(uri);
    if (!located || !document) return undefined;
    const variable = variableAt(located.engine, located.file, document.offsetAt(position));
    return variable ? { located, variable, document } : undefined;
  };
  const toLocation = (workspace: Workspace, file: string, range: { start: number; end: number }) => ({ uri: workspaces.uriOf(workspace, file), range: toLspRange(documentOf(workspace, file), range) });

  /** Where the core finds the answers; an empty list is no answer. */
  const answer = (uri: string, position: { line: number; character: number }, find: typeof definitionsAt) => {
    const located = workspaces.locate(uri);
    const document = documents.get(uri);
    if (!located || !document) return null;
    const found: Location[] = find(located.engine, located.file, document.offsetAt(position));
    return found.length > 0 ? found.map((l) => toLocation(located, l.file, l.range)) : null;
  };

  connection.onDefinition(({ textDocument, position }) => answer(textDocument.uri, position, definitionsAt));
  connection.onReferences(({ textDocument, position }) => answer(textDocument.uri, position, referencesAt));

  connection.onPrepareRename(({ textDocument, position }) => {
    const at = locate(textDocument.uri, position);
    return at ? { range: toLspRange(at.document, at.variable.range), placeholder: at.variable.name } : null;
  });

  connection.onRenameRequest(({ textDocument, position, newName }) => {
    const at = locate(textDocument.uri, position);
    if (!at) return null;
    if (!validVariableName.test(newName)) throw new ResponseError(-32602, `${newName} is not a name Flux accepts for a variable ([_A-Za-z][_A-Za-z0-9]*)`);
    const edits = renameVariable(at.located.engine, at.variable.name, newName) ?? [];
    const changes: Record<string, Array<{ range: ReturnType<typeof toLspRange>; newText: string }>> = {};
    for (const edit of edits) (changes[workspaces.uriOf(at.located, edit.file)] ??= []).push({ range: toLspRange(documentOf(at.located, edit.file), edit.range), newText: edit.newText });
    return { changes };
  });
}
