/**
 * The human format of `render-lens check`: file:line:col, severity, rule, message, then the
 * source line with carets under the exact columns.
 */
import { describeCounts, type CheckedCounts } from '../core/checked-counts';
import type { Finding } from '../core/model';
import { LineIndex } from '../core/positions';

/**
 * `secretAt(file, offset)` says whether an offset lies in a Secret: its source line is then
 * not printed, since a code frame would show the secret to everyone who reads the CI log.
 */
export function formatText(findings: readonly Finding[], textOf: (file: string) => string | undefined, color: boolean, secretAt: (file: string, offset: number) => boolean = () => false): string {
  const indexes = new Map<string, LineIndex>();
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const severityColor: Record<string, string> = { error: '31', warning: '33', information: '36', hint: '90' };
  let out = '';
  for (const finding of findings) {
    const text = textOf(finding.file);
    if (text === undefined) continue;
    let index = indexes.get(finding.file);
    if (!index) indexes.set(finding.file, (index = new LineIndex(text)));
    const start = index.positionAt(finding.range.start);
    const end = index.positionAt(finding.range.end);
    const fixable = finding.fixes.length > 0 ? ' (fix available)' : '';
    out += `${finding.file}:${start.line + 1}:${start.character + 1}: ${paint(severityColor[finding.severity], finding.severity)} ${finding.rule}: ${finding.message}${fixable}\n`;
    const gutter = String(start.line + 1);
    if (secretAt(finding.file, finding.range.start)) {
      out += `  ${gutter} | (line of a Secret: not shown)\n`;
      continue;
    }
    const line = index.lineText(start.line);
    const caretEnd = end.line === start.line ? Math.max(end.character, start.character + 1) : Math.max(line.length, start.character + 1);
    out += `  ${gutter} | ${line}\n`;
    out += `  ${' '.repeat(gutter.length)} | ${caretPad(line, start.character)}${paint(severityColor[finding.severity], '^'.repeat(caretEnd - start.character))}\n`;
  }
  return out;
}

/** Keeps tabs under tabs so carets line up in a terminal. */
function caretPad(line: string, column: number): string {
  return line.slice(0, column).replace(/[^\t]/g, ' ');
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
