/**
 * The machine format of `render-lens check --format json`. The schema is versioned and
 * documented in README; positions are given both as offsets and as 1-based line/column.
 */
import { type CheckedCounts, type Finding, LineIndex } from '../core';

export const jsonSchemaVersion = 1;

export function formatJson(findings: readonly Finding[], textOf: (file: string) => string | undefined, files: number, fields: number, checked: Readonly<CheckedCounts>): string {
  const indexes = new Map<string, LineIndex>();
  const position = (file: string, offset: number) => {
    let index = indexes.get(file);
    if (!index) indexes.set(file, (index = new LineIndex(textOf(file) ?? '')));
    const p = index.positionAt(offset);
    return { offset, line: p.line + 1, column: p.character + 1 };
  };
  const report = {
    version: jsonSchemaVersion,
    summary: { files, fields, checked: { ...checked }, findings: findings.length },
    findings: findings.map((f) => ({
      rule: f.rule,
      severity: f.severity,
      file: f.file,
      start: position(f.file, f.range.start),
      end: position(f.file, f.range.end),
      message: f.message,
      related: f.related.map((r) => ({ file: r.file, start: position(r.file, r.range.start), end: position(r.file, r.range.end), message: r.message })),
      fixes: f.fixes.map((fix) => ({
        title: fix.title,
        preferred: fix.preferred ?? false,
        edits: fix.edits.map((e) => ({ file: e.file, start: position(e.file, e.range.start), end: position(e.file, e.range.end), newText: e.newText })),
      })),
    })),
  };
  return JSON.stringify(report, null, 2) + '\n';
}
