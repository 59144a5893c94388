/**
 * What must hold for any input, however broken: every range lies inside its file, every fix
 * applies cleanly (its edits inside their files and disjoint), and preferred fixes converge
 * (a second round changes nothing more). Each check returns the violations it found.
 */
import type { Engine } from '../../core/engine';
import type { Finding, Fix, Range } from '../../core/model';
import { applyEdits } from './fixtures';

function inside(range: Range, text: string | undefined): boolean {
  return text !== undefined && Number.isInteger(range.start) && Number.isInteger(range.end) && range.start >= 0 && range.start <= range.end && range.end <= text.length;
}

/** Ranges of findings, related locations and fix edits that fall outside their files. */
export function rangeViolations(findings: readonly Finding[], textOf: (file: string) => string | undefined): string[] {
  const out: string[] = [];
  for (const f of findings) {
    const where = `${f.rule} in ${f.file} at ${f.range.start}-${f.range.end}`;
    if (!inside(f.range, textOf(f.file))) out.push(`${where}: range outside the file (length ${textOf(f.file)?.length})`);
    for (const r of f.related) if (!inside(r.range, textOf(r.file))) out.push(`${where}: related ${r.file} ${r.range.start}-${r.range.end} outside the file`);
    for (const fix of f.fixes) out.push(...fixViolations(fix, textOf).map((v) => `${where}: fix "${fix.title}": ${v}`));
  }
  return out;
}

/** Why a fix would not apply cleanly: an edit outside its file, or two edits that overlap. */
export function fixViolations(fix: Fix, textOf: (file: string) => string | undefined): string[] {
  const out: string[] = [];
  if (fix.edits.length === 0) out.push('no edits');
  const byFile = new Map<string, Range[]>();
  for (const edit of fix.edits) {
    if (!inside(edit.range, textOf(edit.file))) out.push(`edit ${edit.file} ${edit.range.start}-${edit.range.end} outside the file`);
    byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit.range]);
  }
  for (const [file, ranges] of byFile) {
    const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 1; i < sorted.length; i++) {
      // Two insertions at one offset are fine; anything else that touches is ambiguous.
      const prev = sorted[i - 1];
      const next = sorted[i];
      if (next.start < prev.end || (next.start === prev.start && (prev.end > prev.start || next.end > next.start))) out.push(`edits overlap in ${file}`);
    }
  }
  return out;
}

/** The files after one fix. */
export function applyFix(files: Record<string, string>, fix: Fix): Record<string, string> {
  const out = { ...files };
  const byFile = new Map<string, Fix['edits']>();
  for (const edit of fix.edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  for (const [file, edits] of byFile) out[file] = applyEdits(out[file] ?? '', edits);
  return out;
}

/**
 * Every preferred fix applied once, as a "fix all" would: per file, an edit that overlaps one
 * already taken is skipped, and two findings that carry the same edit apply it once.
 */
export function applyPreferred(files: Record<string, string>, findings: readonly Finding[]): Record<string, string> {
  const out = { ...files };
  const edits = findings.flatMap((f) => f.fixes.filter((fix) => fix.preferred).flatMap((fix) => fix.edits));
  const unique = [...new Map(edits.map((e) => [`${e.file}:${e.range.start}:${e.range.end}:${e.newText}`, e])).values()];
  for (const file of new Set(unique.map((e) => e.file))) out[file] = applyEdits(out[file] ?? '', unique.filter((e) => e.file === file));
  return out;
}

/** The files that differ, for a readable assertion message. */
export function changedFiles(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((f) => before[f] !== after[f]);
}

/** An engine factory's findings over a whole workspace, for fix rounds. */
export type Analyze = (files: Record<string, string>) => { engine: Engine; findings: Finding[] };
