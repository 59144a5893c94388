/**
 * The human format of `render-lens check`: file:line:col, severity, rule, message, then the
 * source line with carets under the exact columns. Repository text is shown escaped and cut to
 * a window (terminal-text.ts); past maxFramesPerFile findings a file says how many more it has.
 */
import { type CheckedCounts, describeCounts, type Finding, LineIndex } from '../core';
import { frameOf, visible, visibleMessage } from './terminal-text';

/** Findings of one file shown with a code frame; the rest are counted (a person reads this, not a tool). */
export const maxFramesPerFile = 50;

/**
 * `secretAt(file, offset)` says whether an offset lies in a Secret: its source line is then
 * not printed, since a code frame would show the secret to everyone who reads the CI log.
 */
/**
 * `secretAt(file, offset)` says whether an offset lies in a Secret: its source line is then
 * not printed, since a code frame would show the secret to everyone who reads the CI log.
 */
export function formatText(findings: readonly Finding[], textOf: (file: string) => string | undefined, color: boolean, secretAt: (file: string, offset: number) => boolean = () => false): string {
  const indexes = new Map<string, LineIndex>();
  const total = new Map<string, number>();
  for (const finding of findings) total.set(finding.file, (total.get(finding.file) ?? 0) + 1);
  const shown = new Map<string, number>();
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const severityColor: Record<string, string> = { error: '31', warning: '33', information: '36', hint: '90' };
  const parts: string[] = [];
  for (const finding of findings) {
    const text = textOf(finding.file);
    if (text === undefined) continue;
    const count = (shown.get(finding.file) ?? 0) + 1;
    shown.set(finding.file, count);
    if (count > maxFramesPerFile) continue;
    let index = indexes.get(finding.file);
    if (!index) indexes.set(finding.file, (index = new LineIndex(text)));
    const start = index.positionAt(finding.range.start);
    const end = index.positionAt(finding.range.end);
    const fixable = finding.fixes.length > 0 ? ' (fix available)' : '';
    parts.push(`${visible(finding.file)}:${start.line + 1}:${start.character + 1}: ${paint(severityColor[finding.severity], finding.severity)} ${finding.rule}: ${visibleMessage(finding.message)}${fixable}\n`);
    const gutter = String(start.line + 1);
    if (secretAt(finding.file, finding.range.start)) parts.push(`  ${gutter} | (line of a Secret: not shown)\n`);
    else {
      const line = index.lineText(start.line);
      const frame = frameOf(line, start.character, end.line === start.line ? end.character : line.length);
      parts.push(`  ${gutter} | ${frame.text}\n`, `  ${' '.repeat(gutter.length)} | ${frame.pad}${paint(severityColor[finding.severity], '^'.repeat(frame.carets))}\n`);
    }
    const more = (total.get(finding.file) ?? 0) - maxFramesPerFile;
    if (count === maxFramesPerFile && more > 0) parts.push(`${visible(finding.file)}: and ${more} more finding${more === 1 ? '' : 's'} in this file (--format json lists them all)\n`);
  }
  return parts.join('');
}

export function summaryLine(findings: readonly Finding[], files: number, fields: number, checked: Readonly<CheckedCounts>): string {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(finding.severity, (counts.get(finding.severity) ?? 0) + 1);
  const parts = (['error', 'warning', 'information', 'hint'] as const)
    .filter((severity) => counts.has(severity))
    .map((severity) => `${counts.get(severity)} ${severity === 'information' ? 'info' : severity}${counts.get(severity) === 1 || severity === 'information' ? '' : 's'}`);
  const found = parts.length > 0 ? parts.join(', ') : 'no findings';
  return `${found} in ${files} file${files === 1 ? '' : 's'} (${fields} field${fields === 1 ? '' : 's'} checked: ${describeCounts(checked)})`;
}
