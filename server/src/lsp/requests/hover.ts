/** Hover: the core computes the markdown; this converts positions and link targets, nothing more. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import { MarkupKind } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fleetHoverAt } from '../../core/fleet/hover';
import { helmHoverAt } from '../../core/helm/hover';
import { hoverAt } from '../../core/hover';
import { absoluteLinks, toLspRange } from '../convert';
import type { Workspaces } from '../workspace';

export function registerHover(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces): void {
  connection.onHover(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    const located = workspaces.locate(textDocument.uri);
    if (!document || !located) return null;
    const offset = document.offsetAt(position);
    // Each domain answers for its own files; the first answer wins.
    const hover = helmHoverAt(located.engine, located.file, offset) ?? hoverAt(located.engine, located.file, offset) ?? fleetHoverAt(located.engine, located.file, offset);
    if (!hover) return null;
    const markdown = absoluteLinks(hover.markdown, (file) => workspaces.uriOf(located, file));
    return { contents: { kind: MarkupKind.Markdown, value: markdown }, range: toLspRange(document, hover.range) };
  });
}
