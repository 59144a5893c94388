/**
 * Where two versions of a text differ: the edit between them as one span. An editor sends
 * a keystroke as a range, which the server passes on (KnownEdit); without one, the engine
 * finds the span again by comparing the texts, 2–10 ms for a 2 MB manifest.
 */

/** old[start, oldEnd) became text[start, newEnd). */
export interface ChangedSpan {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * An edit as the editor reported it: `before` (the very string the engine was given last)
 * became the new text by replacing [span.start, span.oldEnd) with text up to span.newEnd.
 * The span may be wider than what really changed (an editor may replace text with itself);
 * every user of a span only needs it to cover the change.
 */
export interface KnownEdit {
  before: string;
  span: ChangedSpan;
}

/** The edit's span when it is one from `old` to `text`, else undefined (the lengths must agree too). */
export function spanOf(edit: KnownEdit | undefined, old: string, text: string): ChangedSpan | undefined {
  if (edit === undefined || edit.before !== old) return undefined;
  const { start, oldEnd, newEnd } = edit.span;
  const fits = 0 <= start && start <= oldEnd && oldEnd <= old.length && start <= newEnd && newEnd <= text.length;
  return fits && old.length - oldEnd === text.length - newEnd ? edit.span : undefined;
}

export function changedSpan(old: string, text: string): ChangedSpan {
  const start = commonPrefix(old, text);
  const suffix = commonSuffix(old, text, Math.min(old.length, text.length) - start);
  return { start, oldEnd: old.length - suffix, newEnd: text.length - suffix };
}

/** Chunks compared as strings: each comparison slices both texts, so not too many of them. */
const CHUNK = 4096;

/** Length of the common start; whole chunks compare as strings (fast), the rest unit by unit. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + CHUNK <= n && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common end, at most `limit` (so it never overlaps the common start). */
function commonSuffix(a: string, b: string, limit: number): number {
  let n = 0;
  while (n + CHUNK <= limit && a.slice(a.length - n - CHUNK, a.length - n) === b.slice(b.length - n - CHUNK, b.length - n)) n += CHUNK;
  while (n < limit && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}
