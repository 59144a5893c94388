/**
 * The one place where core findings become LSP types. Offsets are UTF-16 units, the same
 * unit LSP positions use by default, so conversion is TextDocument's positionAt.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import { ruleDocsUrl } from '../core/docs';
import type { Finding, Fix, Range, Severity } from '../core/model';
import { LineIndex } from '../core/positions';

const severities: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** What a diagnostic carries in `data`: the finding's fixes, so code actions only read them. */
export interface DiagnosticData {
  fixes: Fix[];
}

export function toLspRange(document: TextDocument, range: Range) {
  return { start: document.positionAt(range.start), end: document.positionAt(range.end) };
}

/**
 * Related locations usually point into other files (the Kustomization, the variable
 * ConfigMap): their positions come from those files' texts, through `textOf`.
 */
export function toDiagnostic(document: TextDocument, finding: Finding, uriOf: (file: string) => string, textOf: (file: string) => string | undefined): Diagnostic {
  const data: DiagnosticData = { fixes: finding.fixes };
  const indexes = new Map<string, LineIndex>();
  const positionIn = (file: string, offset: number) => {
    if (file === finding.file) return document.positionAt(offset);
    let index = indexes.get(file);
    if (!index) indexes.set(file, (index = new LineIndex(textOf(file) ?? '')));
    return index.positionAt(offset);
  };
  return {
    range: toLspRange(document, finding.range),
    severity: severities[finding.severity],
    source: 'render-lens',
    code: finding.rule,
    codeDescription: { href: ruleDocsUrl(finding.rule) },
    message: finding.message,
    relatedInformation: finding.related.map((related) => ({
      location: { uri: uriOf(related.file), range: { start: positionIn(related.file, related.range.start), end: positionIn(related.file, related.range.end) } },
      message: related.message,
    })),
    data,
  };
}

/** Code actions for one diagnostic, built only from the fixes it carries. */
export function toCodeActions(diagnostic: Diagnostic, documentOf: (file: string) => TextDocument | undefined, uriOf: (file: string) => string): CodeAction[] {
  const data = diagnostic.data as DiagnosticData | undefined;
  if (!data || !Array.isArray(data.fixes)) return [];
  const actions: CodeAction[] = [];
  for (const fix of data.fixes) {
    const changes: Record<string, TextEdit[]> = {};
    let complete = true;
    for (const edit of fix.edits) {
      const document = documentOf(edit.file);
      if (!document) {
        complete = false;
        break;
      }
      (changes[uriOf(edit.file)] ??= []).push({ range: toLspRange(document, edit.range), newText: edit.newText });
    }
    if (!complete) continue;
    const workspaceEdit: WorkspaceEdit = { changes };
    const action = CodeAction.create(fix.title, workspaceEdit, CodeActionKind.QuickFix);
    action.diagnostics = [diagnostic];
    action.isPreferred = fix.preferred ?? false;
    actions.push(action);
  }
  return actions;
}
