/**
 * Reviewed exceptions: `# render-lens-disable RULE-ID[, RULE-ID] -- reason` on the line above
 * a node turns those rules off for the node's subtree. The reason is mandatory; a
 * suppression without one is not applied, and one that suppresses nothing is reported.
 */
import type { Finding, Range } from './model';
import type { YamlComment } from './yaml/document';

export interface Suppression {
  comment: YamlComment;
  rules: string[];
  reason: string | undefined;
  /** The lines of the node below the comment. */
  scope: Range;
  /** Rule ids this suppression actually silenced. */
  used: Set<string>;
}

const directive = /^\s*render-lens-disable\s+([A-Z0-9-]+(?:\s*,\s*[A-Z0-9-]+)*)\s*(?:--\s*(.*?))?\s*$/;

export function suppressionsOf(text: string, comments: readonly YamlComment[]): Suppression[] {
  const out: Suppression[] = [];
  for (const comment of comments) {
    const match = directive.exec(comment.text);
    if (!match) continue;
    const reason = match[2] && match[2].trim() !== '' ? match[2].trim() : undefined;
    out.push({ comment, rules: match[1].split(',').map((id) => id.trim()), reason, scope: nodeBelow(text, comment.end), used: new Set() });
  }
  return out;
}

/**
 * The node on the first content line after `offset`: that line, and every following line
 * indented deeper (its children, block scalar text), plus `- ` items at the same indentation
 * when the line opens a key whose value is such a sequence.
 */
function nodeBelow(text: string, offset: number): Range {
  let lineStart = text.indexOf('\n', offset) + 1;
  if (lineStart === 0) return { start: text.length, end: text.length };
  while (lineStart < text.length && /^[ \t]*(#.*)?\r?$/.test(lineText(text, lineStart))) lineStart = nextLine(text, lineStart);
  const head = lineText(text, lineStart);
  const indent = head.length - head.trimStart().length;
  const opensKey = /:\s*(#.*)?\r?$/.test(head);
  let end = nextLine(text, lineStart);
  while (end < text.length) {
    const line = lineText(text, end);
    const trimmed = line.trimStart();
    const lineIndent = line.length - trimmed.length;
    const blank = trimmed === '' || trimmed === '\r';
    if (!blank && lineIndent <= indent && !(opensKey && lineIndent === indent && trimmed.startsWith('- '))) break;
    end = nextLine(text, end);
  }
  return { start: lineStart, end };
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

/** The first suppression with a reason that covers the finding's rule and start. */
function suppressionOf(finding: Finding, suppressions: readonly Suppression[]): Suppression | undefined {
  const start = finding.range.start;
  for (let i = 0; i < suppressions.length; i++) {
    const s = suppressions[i];
    if (s.reason !== undefined && s.rules.includes(finding.rule) && start >= s.scope.start && start < s.scope.end) return s;
  }
  return undefined;
}
