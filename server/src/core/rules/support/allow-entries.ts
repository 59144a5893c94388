/**
 * What is wrong with one `allow:` entry of `.render-lens.yaml`, judged from the texts alone:
 * its fields, and whether it still excuses something (the file is there, holds the context,
 * and the context holds a run a dollar rule reports).
 */
import { contextMinLength, type AllowEntry } from '../../review-policy';
import type { RuleContext } from '../rule';

export interface EntryProblem {
  message: string;
  /** The entry excuses nothing any more: removing it is the fix. */
  stale?: boolean;
}

export function allowEntryProblem(context: RuleContext, entry: AllowEntry, reasonMinLength: number): EntryProblem | undefined {
  const { path, context: excerpt, reason } = entry;
  if (path === undefined || excerpt === undefined || reason === undefined) return { message: 'An `allow` entry needs `path`, `context` and `reason`, each a string.' };
  if (/[*?[\]{}]/.test(path)) return { message: `\`${path}\` has a wildcard: an \`allow\` entry names one file, relative to the repository root.` };
  if (reason.trim().length < reasonMinLength) {
    return { message: `The reason is ${reason.trim().length} characters, under the ${reasonMinLength} a reviewed exception needs, so the entry is not applied. Say what will be emitted and why that is fine.` };
  }
  if (excerpt.length < contextMinLength) {
    return { message: `The context is ${excerpt.length} characters, under ${contextMinLength}: it would match more than the one place it excuses, so the entry is not applied.` };
  }
  const runs = dollarRuns(excerpt);
  if (!runs.some((run) => run.count >= 2)) return { message: 'The context holds no dollar run (`$$`): there is nothing for it to excuse.' };
  const holds = context.derived(path, `holds\0${excerpt}`, (text) => text.includes(excerpt));
  if (holds === undefined) return { message: `\`${path}\` does not exist: this entry excuses nothing. Remove it so it cannot excuse a future file.`, stale: true };
  if (!holds) return { message: `\`${path}\` no longer holds this context: this entry excuses nothing. Remove it so it cannot hide a future problem.`, stale: true };
  if (!holdsReportedRun(excerpt)) return { message: 'The context only holds `$${`, the ordinary escape, which needs no excuse. Remove the entry.', stale: true };
  return undefined;
}

interface Run {
  count: number;
  /** The character after the run ('' at the end). */
  next: string;
}

/** Does the text hold a dollar run that a dollar rule reports? */
export function holdsReportedRun(text: string): boolean {
  return dollarRuns(text).some(needsExcuse);
}

function dollarRuns(text: string): Run[] {
  return [...text.matchAll(/\$+/g)].map((m) => ({ count: m[0].length, next: text.charAt(m.index + m[0].length) }));
}

/** Would a dollar rule report this run? Everything but `$${` and an even run of four or more not before `{`. */
function needsExcuse(run: Run): boolean {
  if (run.count < 2) return false;
  if (run.count === 2) return run.next !== '{';
  return run.count % 2 === 1 || run.next === '{';
}
