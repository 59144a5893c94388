/**
 * The reviewed-exception part of `.render-lens.yaml`: the `allow:` entries that excuse dollar
 * runs no YAML comment can reach (they live inside block scalars), how long a reason must be,
 * and whether every collapsed dollar run is a warning (`strictDollars`). Read here, apart from
 * the rest of the file's keys (config.ts), with positions: a bad entry is reported at its line.
 *
 * ```yaml
 * allow:
 *   - path: apps/db/migrations.yaml
 *     context: "DO $$ BEGIN PERFORM 1; END $$;"
 *     reason: "the loader re-doubles every dollar before it runs this block, so DO $ is expected"
 * ```
 */
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { Range } from './model';
import { defaultReasonMinLength } from './suppressions';

/** A context this short matches too much to name one occurrence. */
export const contextMinLength = 24;

/** The rules an `allow:` entry speaks for: those about dollar runs. */
export const allowableRules: readonly string[] = ['DOLLAR-COLLAPSE', 'DOLLAR-HALF-ESCAPED', 'DOLLAR-OVER-ESCAPED'];

export interface AllowEntry {
  /** Relative to the repository root, as written (no wildcards). */
  path: string | undefined;
  /** Verbatim text of the file that holds the excused run(s). */
  context: string | undefined;
  reason: string | undefined;
  /** The whole sequence item, and its first line (where problems are reported). */
  range: Range;
  head: Range;
}

export interface ReviewPolicy {
  allow: AllowEntry[];
  reasonMinLength: number;
  /** Every collapsed run a warning, even a `$$HOME` escaped on purpose. */
  strictDollars: boolean;
  /** Keys of this part written wrong, each at its place. */
  problems: Array<{ range: Range; message: string }>;
}

export function readReviewPolicy(text: string | undefined): ReviewPolicy {
  const policy: ReviewPolicy = { allow: [], reasonMinLength: defaultReasonMinLength, strictDollars: false, problems: [] };
  if (text === undefined || !/^(allow|reasonMinLength|strictDollars)\s*:/m.test(text)) return policy;
  const document = parseDocument(text);
  if (document.errors.length > 0 || !isMap(document.contents)) return policy;
  const at = (node: unknown): Range => {
    const range = (node as Node | null)?.range;
    return range ? { start: range[0], end: range[1] } : { start: 0, end: 0 };
  };
  for (const pair of document.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value;
    if (key === 'reasonMinLength') {
      if (isScalar(value) && Number.isInteger(value.value) && (value.value as number) >= 0) policy.reasonMinLength = value.value as number;
      else policy.problems.push({ range: at(value ?? pair.key), message: '`reasonMinLength` must be a whole number of characters.' });
    } else if (key === 'strictDollars') {
      if (isScalar(value) && typeof value.value === 'boolean') policy.strictDollars = value.value;
      else policy.problems.push({ range: at(value ?? pair.key), message: '`strictDollars` must be true or false.' });
    } else if (key === 'allow') {
      if (!isSeq(value)) {
        if (value !== null) policy.problems.push({ range: at(value ?? pair.key), message: '`allow` must be a list of entries with `path`, `context` and `reason`.' });
        continue;
      }
      for (const item of value.items) {
        const range = at(item);
        // Shown from its `- `, which is where a reader sees the entry start.
        const dash = text.slice(range.start - 2, range.start) === '- ' ? range.start - 2 : range.start;
        const newline = text.indexOf('\n', range.start);
        const head = { start: dash, end: newline === -1 || newline > range.end ? range.end : newline };
        const field = (name: string) => {
          const node = isMap(item) ? item.get(name, true) : undefined;
          return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
        };
        policy.allow.push({ path: field('path'), context: field('context'), reason: field('reason'), range, head });
      }
    }
  }
  return policy;
}

/** Every offset of `file`'s text where an entry for it holds its context, with the context's length. */
export function allowedSpans(policy: ReviewPolicy, file: string, text: string): Range[] {
  const spans: Range[] = [];
  for (const entry of policy.allow) {
    if (entry.path !== file || entry.context === undefined || entry.context.length < contextMinLength || entry.reason === undefined || entry.reason.length < policy.reasonMinLength) continue;
    for (let at = text.indexOf(entry.context); at !== -1; at = text.indexOf(entry.context, at + 1)) spans.push({ start: at, end: at + entry.context.length });
  }
  return spans;
}

/** Whether a finding of `rule` at `range` lies inside one of the spans. */
export function isAllowed(rule: string, range: Range, spans: readonly Range[]): boolean {
  return allowableRules.includes(rule) && spans.some((span) => range.start >= span.start && range.end <= span.end);
}
