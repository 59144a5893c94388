/**
 * Repository text on its way to a terminal or a CI log: control characters shown as escapes,
 * and code frames cut to a window around the columns. A line of the repository may hold an
 * escape sequence that retitles or clears the terminal, bidirectional overrides that make the
 * frame read differently from the file, or be 600 KB long.
 */

/**
 * C0 and C1 controls, DEL, line and paragraph separators and the bidirectional marks and
 * overrides. Tab is not here: code frames keep it so carets line up under it.
 */
const unsafe = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character as a visible escape (`\x1b`, `\u202e`). */
export function visible(text: string): string {
  return text.replace(unsafe, escapeOne);
}

/** A message: its line breaks kept (messages are ours), every other control character escaped. */
export function visibleMessage(text: string): string {
  return text.split('\n').map(visible).join('\n');
}

/** How much of a long line a code frame shows, and how much of it before the finding's column. */
export const frameWidth = 160;
const frameLead = 40;

export interface Frame {
  /** The shown part of the line, escaped, with `…` where it was cut. */
  text: string;
  /** What goes before the carets: spaces, and tabs under tabs. */
  pad: string;
  /** The number of carets: the columns of [start, end) that are shown, at least one. */
  carets: number;
}

/** The part of `line` around columns [start, end) to show, with the carets' place under it. */
export function frameOf(line: string, start: number, end: number): Frame {
  let from = line.length <= frameWidth ? 0 : Math.max(0, Math.min(start - frameLead, line.length - frameWidth));
  let to = Math.min(line.length, from + frameWidth);
  // Never cut a surrogate pair in half.
  if (from > 0 && isLowSurrogate(line, from)) from--;
  if (to < line.length && isLowSurrogate(line, to)) to++;
  const head = from > 0 ? '…' : '';
  const before = head + visible(line.slice(from, start));
  const marked = visible(line.slice(start, Math.max(start, Math.min(end, to))));
  return {
    text: head + visible(line.slice(from, to)) + (to < line.length ? '…' : ''),
    pad: before.replace(/[^\t]/g, ' '),
    carets: Math.max(1, marked.length),
  };
}

function isLowSurrogate(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff;
}
