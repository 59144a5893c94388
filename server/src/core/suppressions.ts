/**
 * Reviewed exceptions: `# render-lens-disable RULE-ID[, RULE-ID] -- reason` covers the findings
 * of one line: the line it stands above, or its own line when it trails code. One exception
 * per occurrence, as a reviewer reads it: a second `$$` further down the same block is a new
 * question. The reason must say what will be emitted and why that is fine, so it has a
 * minimum length (`reasonMinLength` in `.render-lens.yaml`); a suppression without a long
 * enough reason is not applied, and one that suppresses nothing is reported.
 */
import type { Finding, Range } from './model';
import type { YamlComment } from './yaml/document';

export interface Suppression {
  comment: YamlComment;
  rules: string[];
  /** The text after `--`, trimmed; undefined when there is none. */
  reason: string | undefined;
  /** Whether the reason is long enough for the suppression to apply. */
  reasoned: boolean;
  /** The line whose findings it covers (without its line break). */
  scope: Range;
  /** Rule ids this suppression actually silenced. */
  used: Set<string>;
}

const directive = /^\s*render-lens-disable\s+([A-Z0-9-]+(?:\s*,\s*[A-Z0-9-]+)*)\s*(?:--\s*(.*?))?\s*$/;

/** The shortest reason a reviewed exception may give, unless `.render-lens.yaml` says otherwise. */
export const defaultReasonMinLength = 40;

export function suppressionsOf(text: string, comments: readonly YamlComment[], reasonMinLength = defaultReasonMinLength): Suppression[] {
  const out: Suppression[] = [];
  for (const comment of comments) {
    const match = directive.exec(comment.text);
    if (!match) continue;
    const reason = match[2] && match[2].trim() !== '' ? match[2].trim() : undefined;
    const reasoned = reason !== undefined && reason.length >= reasonMinLength;
    out.push({ comment, rules: match[1].split(',').map((id) => id.trim()), reason, reasoned, scope: coveredLine(text, comment.start), used: new Set() });
  }
  return out;
}

/**
 * The line a comment at `offset` covers: its own when code stands before it on the line (a
 * trailing comment), else the first line below it that is neither blank nor a comment.
 */
function coveredLine(text: string, offset: number): Range {
  const ownStart = text.lastIndexOf('\n', offset - 1) + 1;
  if (text.slice(ownStart, offset).trim() !== '') return { start: ownStart, end: ownStart + lineText(text, ownStart).length };
  let lineStart = text.indexOf('\n', offset) + 1;
  if (lineStart === 0) return { start: text.length, end: text.length };
  while (lineStart < text.length && /^[ \t]*(#.*)?\r?$/.test(lineText(text, lineStart))) lineStart = nextLine(text, lineStart);
  return { start: lineStart, end: lineStart + lineText(text, lineStart).length };
}

function lineText(text: string, start: number): string {
  const newline = text.indexOf('\n', start);
  return text.slice(start, newline === -1 ? text.length : newline);
}

function nextLine(text: string, start: number): number {
  const newline = text.indexOf('\n', start);
  return newline === -1 ? text.length : newline + 1;
}

/** Drops the findings a valid suppression covers, and records which suppressions were used. */
export function applySuppressions(findings: readonly Finding[], suppressions: readonly Suppression[]): Finding[] {
  // Most files have none. A closure per finding (the search below used one) showed in the
  // garbage of every keystroke in a file with a thousand findings.
  if (suppressions.length === 0) return [...findings];
  return findings.filter((finding) => {
    const by = suppressionOf(finding, suppressions);
    by?.used.add(finding.rule);
    return by === undefined;
  });
}

/** The first suppression with a long enough reason that covers the finding's rule and start. */
function suppressionOf(finding: Finding, suppressions: readonly Suppression[]): Suppression | undefined {
  const start = finding.range.start;
  for (let i = 0; i < suppressions.length; i++) {
    const s = suppressions[i];
    if (s.reasoned && s.rules.includes(finding.rule) && start >= s.scope.start && start < s.scope.end) return s;
  }
  return undefined;
}
