/**
 * Fix-all: the preferred fixes of many findings of one file as one fix, for "fix all of this
 * rule in the file" and for `source.fixAll.renderLens` (on save, when the user opts in).
 * Only fixes that edit the file itself take part: a save must not rewrite other files (a
 * variable's ConfigMap); those fixes stay one by one. A fix whose edits overlap an edit
 * already taken is left out whole, so no fix is half applied; identical edits (one variable
 * defined for two uses) count once. The rules' fixes converge, so this does too.
 */
import type { Edit, Fix } from './model';

/** What fix-all reads of a finding. */
export interface FixableFinding {
  rule: string;
  fixes: readonly Fix[];
}

export function combinedFix(title: string, file: string, findings: readonly FixableFinding[], rule?: string): (Fix & { count: number }) | undefined {
  const taken: Edit[] = [];
  const seen = new Set<string>();
  let count = 0;
  for (const finding of findings) {
    if (rule !== undefined && finding.rule !== rule) continue;
    const fix = finding.fixes.find((f) => f.preferred);
    if (!fix || fix.edits.length === 0 || fix.edits.some((edit) => edit.file !== file)) continue;
    const fresh = fix.edits.filter((edit) => !seen.has(keyOf(edit)));
    if (fresh.some((edit) => taken.some((other) => overlaps(edit, other)))) continue;
    for (const edit of fresh) {
      seen.add(keyOf(edit));
      taken.push(edit);
    }
    count++;
  }
  return count === 0 ? undefined : { title, edits: taken, count };
}

const keyOf = (edit: Edit) => `${edit.range.start}:${edit.range.end}:${edit.newText}`;

/** Two edits touch the same text, or an insertion lands at or inside another edit (their order would be a guess). */
function overlaps(a: Edit, b: Edit): boolean {
  const aInserts = a.range.start === a.range.end;
  const bInserts = b.range.start === b.range.end;
  if (aInserts && bInserts) return a.range.start === b.range.start;
  if (aInserts) return b.range.start <= a.range.start && a.range.start <= b.range.end;
  if (bInserts) return a.range.start <= b.range.start && b.range.start <= a.range.end;
  return a.range.start < b.range.end && b.range.start < a.range.end;
}
