/**
 * Random edits for the differential tests and the bench: the harmless mixed with the
 * breaking (quotes, brackets, `---`, `...`, directives, `$$`), with the span each replaced.
 */
import type { ChangedSpan } from '../../core/workspace/text-change';

const INSERTS = ['x', ' ', '\n', '"', "'", '[', ']', '{', '}', ':', '- ', '---\n', '\n---\n', '...\n', '|', '>-', '#', '&a ', '*a', '\t', '%YAML 1.2\n', '\r\n', '${A}', '$$', '${region}', '$${HOME}', '${UNDEFINED}', '$$$', 'kind: Secret\n'];

/** One random edit: somewhere, remove up to 7 units, insert one of INSERTS (or nothing). */
export function randomEdit(text: string, next: () => number): string {
  return randomSpannedEdit(text, next).text;
}

/** randomEdit, with the span it replaced: text[start, oldEnd) became the new text's [start, newEnd). */
export function randomSpannedEdit(text: string, next: () => number): { text: string; span: ChangedSpan } {
  const start = Math.floor(next() * (text.length + 1));
  const removed = next() < 0.4 ? Math.floor(next() * 8) : 0;
  const inserted = next() < 0.85 ? INSERTS[Math.floor(next() * INSERTS.length)] : '';
  const oldEnd = Math.min(text.length, start + removed);
  return { text: text.slice(0, start) + inserted + text.slice(oldEnd), span: { start, oldEnd, newEnd: start + inserted.length } };
}
