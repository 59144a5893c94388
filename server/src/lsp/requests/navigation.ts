/** Go to definition, find references and rename for Flux variables. */
import { ResponseError, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { valuesDefinition, valuesReferences } from '../../core/helm/values-navigation';
import { definitionsOf, referencesOf, renameVariable, variableAt, validVariableName } from '../../core/navigation';
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

  /** Helm: `.Values.a.b` in a template ↔ its key in values.yaml. */
  const helm = (uri: string, position: { line: number; character: number }) => {
    const located = workspaces.locate(uri);
    const document = documents.get(uri);
    return located && document ? { located, offset: document.offsetAt(position) } : undefined;
  };

  connection.onDefinition(({ textDocument, position }) => {
    const at = locate(textDocument.uri, position);
    const chart = helm(textDocument.uri, position);
    const value = chart && valuesDefinition(chart.located.engine, chart.located.file, chart.offset);
    if (value && chart) return [toLocation(chart.located, value.file, value.range)];
    if (!at) return null;
    return definitionsOf(at.located.engine, at.located.file, at.variable.name).map((l) => toLocation(at.located, l.file, l.range));
  });

  connection.onReferences(({ textDocument, position }) => {
    const at = locate(textDocument.uri, position);
    const chart = helm(textDocument.uri, position);
    const uses = chart ? valuesReferences(chart.located.engine, chart.located.file, chart.offset) : [];
    if (uses.length > 0 && chart) return uses.map((l) => toLocation(chart.located, l.file, l.range));
    if (!at) return null;
    return referencesOf(at.located.engine, at.variable.name).map((l) => toLocation(at.located, l.file, l.range));
  });

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
