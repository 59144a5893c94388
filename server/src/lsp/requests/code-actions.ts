/**
 * Code actions: read back the fixes each diagnostic points at; nothing is re-discovered here.
 * Beside each diagnostic's own fixes: "fix all of this rule in the file" when the rule has
 * more than one fixable finding there, and `source.fixAll.renderLens` (what
 * `editor.codeActionsOnSave` asks for) with every preferred fix of the file (core/fix-all.ts).
 */
import { CodeActionKind, type CodeAction, type Connection, type TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { combinedFix } from '../../core';
import { toCodeActions, toFixAllAction } from '../convert';
import type { FixStore } from '../fix-store';
import type { Workspaces } from '../workspace';

export const fixAllKind = `${CodeActionKind.SourceFixAll}.renderLens`;

/** Asked for by `only`: a kind, or a parent of it (`source` covers `source.fixAll.renderLens`). */
const wants = (only: readonly string[] | undefined, kind: string) => !only || only.some((asked) => kind === asked || kind.startsWith(`${asked}.`));

export function registerCodeActions(connection: Connection, documents: TextDocuments<TextDocument>, workspaces: Workspaces, fixes: FixStore): void {
  connection.onCodeAction(({ textDocument, context }) => {
    const located = workspaces.locate(textDocument.uri);
    if (!located) return [];
    const open = documents.get(textDocument.uri);
    const textOf = (file: string) => located.engine.index.text(file);
    const document = open ?? TextDocument.create(textDocument.uri, 'yaml', 0, textOf(located.file) ?? '');
    const uriOf = (file: string) => workspaces.uriOf(located, file);
    const version = open?.version ?? null;
    const actions: CodeAction[] = [];
    const ours = context.diagnostics.filter((diagnostic) => diagnostic.source === 'render-lens');
    if (wants(context.only, CodeActionKind.QuickFix)) {
      for (const diagnostic of ours) actions.push(...toCodeActions(diagnostic, fixes.fixesOf(textDocument.uri, diagnostic.data, version), located.file, document, uriOf, textOf));
      const rules = new Set(ours.map((diagnostic) => String(diagnostic.code)));
      for (const rule of rules) {
        const fix = combinedFix(`Fix all ${rule} problems in this file`, located.file, fixes.findingsOf(textDocument.uri, version), rule);
        if (fix && fix.count > 1) actions.push(toFixAllAction(fix, CodeActionKind.QuickFix, located.file, document, uriOf, textOf));
      }
    }
    if (context.only && wants(context.only, fixAllKind)) {
      // Asked on save, often right after an edit, before that version's diagnostics (and the
      // fix store) exist: the file is checked here, on the text the engine already has.
      const findings = located.engine.analyzeFile(located.file, { keep: open !== undefined }).findings.filter((finding) => finding.file === located.file);
      const fix = combinedFix('Fix all Render Lens problems in this file', located.file, findings);
      if (fix) actions.push(toFixAllAction(fix, fixAllKind, located.file, document, uriOf, textOf));
    }
    return actions;
  });
}
