/**
 * The one place where core findings become LSP types. Offsets are UTF-16 units, the same
 * unit LSP positions use by default, so conversion is a line lookup (TextDocument's
 * positionAt, or a LineIndex, which gives the same positions).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeAction, CodeActionKind, Diagnostic, DiagnosticSeverity, type DiagnosticRelatedInformation, type Position, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import { type Finding, type Fix, LineIndex, type Range, relativeLineLink, ruleDocsUrl, type Severity } from '../core';
import { bodyHolds, diagnosticBody, publishedDiagnostic, type DiagnosticBody } from '../runtime/diagnostic-json';
import type { DiagnosticData, FixStore } from './fix-store';

const severities: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Markdown from the core with its workspace-relative `file#Lline` links made file URIs (core/links.ts). */
export function absoluteLinks(markdown: string, uriOf: (file: string) => string): string {
  // Parentheses would end the link early in some markdown renderers: they go percent-encoded.
  return markdown.replace(relativeLineLink, (_, file: string, line: string) => `](${uriOf(decodeURI(file)).replace(/\(/g, '%28').replace(/\)/g, '%29')}#L${line})`);
}

export function toLspRange(document: TextDocument, range: Range) {
  return { start: document.positionAt(range.start), end: document.positionAt(range.end) };
}

/**
 * The diagnostics of one file's findings, published as `version` (null: checked from disk).
 * Their fixes stay in `store`; each diagnostic says which are its own.
 */
export function toDiagnostics(document: TextDocument, findings: readonly Finding[], version: number | null, store: FixStore, uriOf: (file: string) => string, textOf: (file: string) => string | undefined): Diagnostic[] {
  const data = store.remember(document.uri, version, findings);
  // One line index per file for the whole publish, not one per diagnostic.
  const own = ownPositions(document);
  const positions = new Map<string, (other: string, offset: number) => Position>();
  const positionsFor = (file: string) => positions.get(file) ?? positions.set(file, positionsIn(file, own, textOf)).get(file)!;
  // Most findings of a file point at the same few Kustomizations, through shared entries
  // (rules/contexts.ts): each entry is converted once per publish.
  const related = new Map<RelatedEntry, DiagnosticRelatedInformation>();
  const relatedFor = (finding: Finding) => (entry: RelatedEntry) => {
    let info = related.get(entry);
    if (!info) {
      const positionIn = positionsFor(finding.file);
      info = relatedInformation(entry, uriOf(entry.file), positionIn(entry.file, entry.range.start), positionIn(entry.file, entry.range.end));
      related.set(entry, info);
    }
    return info;
  };
  return findings.map((finding, i) => toDiagnostic({ start: own(finding.range.start), end: own(finding.range.end) }, finding, relatedFor(finding), data[i]));
}

type RelatedEntry = Finding['related'][number];

/**
 * The related information of an entry, the same object as last time while it says the same:
 * a diagnostic's body is kept while its related entries are (diagnostic-json.ts).
 */
const relatedInformationOf = new WeakMap<RelatedEntry, DiagnosticRelatedInformation>();

function relatedInformation(entry: RelatedEntry, uri: string, start: Position, end: Position): DiagnosticRelatedInformation {
  const known = relatedInformationOf.get(entry);
  if (known && known.location.uri === uri && known.message === entry.message && samePosition(known.location.range.start, start) && samePosition(known.location.range.end, end)) return known;
  const info: DiagnosticRelatedInformation = Object.freeze({ location: Object.freeze({ uri, range: Object.freeze({ start: Object.freeze(start), end: Object.freeze(end) }) }), message: entry.message });
  relatedInformationOf.set(entry, info);
  return info;
}

function samePosition(a: Position, b: Position): boolean {
  return a.line === b.line && a.character === b.character;
}

const docsLinks = new Map<string, { href: string }>();

function docsLink(rule: string): { href: string } {
  let link = docsLinks.get(rule);
  if (!link) docsLinks.set(rule, (link = Object.freeze({ href: ruleDocsUrl(rule) })));
  return link;
}

/** The body of each finding's last diagnostic: kept findings keep theirs while their positions hold. */
const bodies = new WeakMap<Finding, DiagnosticBody>();

/**
 * Related locations usually point into other files (the Kustomization, the variable
 * ConfigMap): their positions come from those files' texts, through `textOf`.
 */
function toDiagnostic(range: { start: Position; end: Position }, finding: Finding, relatedOf: (related: RelatedEntry) => DiagnosticRelatedInformation, data: DiagnosticData | undefined): Diagnostic {
  let body = bodies.get(finding);
  if (!body || !bodyHolds(body, range, finding.related, relatedOf)) {
    body = diagnosticBody({
      range: Object.freeze({ start: Object.freeze(range.start), end: Object.freeze(range.end) }),
      severity: severities[finding.severity],
      source: 'render-lens',
      code: finding.rule,
      codeDescription: docsLink(finding.rule),
      message: finding.message,
      relatedInformation: Object.freeze(finding.related.map(relatedOf)) as DiagnosticRelatedInformation[],
    });
    bodies.set(finding, body);
  }
  return publishedDiagnostic(body, data);
}

/**
 * Positions in `file` (the document's own file, through `own`) and in other files, whose texts
 * come from `textOf`: an open editor buffer when there is one, else the file as the engine knows it.
 */
function positionsIn(file: string, own: (offset: number) => Position, textOf: (file: string) => string | undefined): (other: string, offset: number) => Position {
  const indexes = new Map<string, LineIndex>();
  return (other, offset) => {
    if (other === file) return own(offset);
    let index = indexes.get(other);
    if (!index) indexes.set(other, (index = new LineIndex(textOf(other) ?? '')));
    return index.positionAt(offset);
  };
}

/** Documents whose TextDocument has its line offsets (warmLineOffsets). */
const warmed = new WeakSet<TextDocument>();

/**
 * Positions in the document's own text. TextDocument keeps its line offsets through
 * incremental edits, but builds them the first time with a call per character: 6–9 ms of the
 * bench's 10k-line manifest's open, before its diagnostics could go out. Until it has them,
 * a LineIndex (2 ms) answers.
 */
function ownPositions(document: TextDocument): (offset: number) => Position {
  if (warmed.has(document)) return (offset) => document.positionAt(offset);
  const index = new LineIndex(document.getText());
  return (offset) => index.positionAt(offset);
}

/**
 * Has the TextDocument build its line offsets, once the document's first diagnostics are out:
 * its first edit needs them, and would otherwise wait for them.
 */
export function warmLineOffsets(document: TextDocument): void {
  if (warmed.has(document)) return;
  document.positionAt(0);
  warmed.add(document);
}

/** Code actions for one diagnostic, built only from the fixes it carries (through the fix store). */
export function toCodeActions(diagnostic: Diagnostic, fixes: readonly Fix[], file: string, document: TextDocument, uriOf: (file: string) => string, textOf: (file: string) => string | undefined): CodeAction[] {
  // Asked after the document's first diagnostics, when its TextDocument has its line offsets.
  const positionIn = positionsIn(file, (offset) => document.positionAt(offset), textOf);
  return fixes.map((fix) => {
    const action = CodeAction.create(fix.title, toWorkspaceEdit(fix, positionIn, uriOf), CodeActionKind.QuickFix);
    action.diagnostics = [diagnostic];
    action.isPreferred = fix.preferred ?? false;
    return action;
  });
}

/** One code action of `kind` for a fix that may span many findings (core/fix-all.ts). */
export function toFixAllAction(fix: Fix, kind: string, file: string, document: TextDocument, uriOf: (file: string) => string, textOf: (file: string) => string | undefined): CodeAction {
  const positionIn = positionsIn(file, (offset) => document.positionAt(offset), textOf);
  return CodeAction.create(fix.title, toWorkspaceEdit(fix, positionIn, uriOf), kind);
}

function toWorkspaceEdit(fix: Fix, positionIn: (file: string, offset: number) => Position, uriOf: (file: string) => string): WorkspaceEdit {
  const changes: Record<string, TextEdit[]> = {};
  for (const edit of fix.edits) {
    const range = { start: positionIn(edit.file, edit.range.start), end: positionIn(edit.file, edit.range.end) };
    (changes[uriOf(edit.file)] ??= []).push({ range, newText: edit.newText });
  }
  return { changes };
}
