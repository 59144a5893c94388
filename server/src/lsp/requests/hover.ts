/** Hover: the core computes the markdown; this converts positions and link targets, nothing more. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import { MarkupKind } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { hoverAt } from '../../core';
import { absoluteLinks, toLspRange } from '../convert';
import type { Workspaces } from '../workspace';

export function registerHover(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  connection.onHover(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    const located = workspaces.locate(textDocument.uri);
    if (!document || !located) return null;
    const offset = document.offsetAt(position);
    const hover = hoverAt(located.engine, located.file, offset);
    if (!hover) return null;
    const markdown = absoluteLinks(hover.markdown, (file) => workspaces.uriOf(located, file));
    return { contents: { kind: MarkupKind.Markdown, value: markdown }, range: toLspRange(document, hover.range) };
  });
}
