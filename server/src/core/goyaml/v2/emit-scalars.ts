import { isBreak, isPrintable } from './emit-analyze';
import { V2Writer } from './emit-writer';

/**
 * go-yaml v2's four scalar writers. Plain and quoted scalars are folded at a single space once
 * the line is past column 80 (never inside a run of spaces, and quoted scalars never at their
 * first or last character); keys are never folded. Block scalars are never folded.
 */

const SPACE = 0x20;

/**
 * The end of the run of characters starting at `i` that are not breaks (nor spaces, with
 * `stopAtSpace`), and its width in characters, which is what the writer's column counts.
 */
function runEnd(s: string, i: number, stopAtSpace: boolean): [end: number, width: number] {
  let width = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if ((stopAtSpace && c === SPACE) || isBreak(c)) break;
    i += s.codePointAt(i)! > 0xffff ? 2 : 1;
    width++;
  }
  return [i, width];
}

export function writePlain(w: V2Writer, s: string, allowBreaks: boolean): void {
  if (!w.whitespace) w.write(' ', 1);
  writeFoldable(w, s, allowBreaks, false);
  w.whitespace = false;
  w.indention = false;
}

export function writeSingleQuoted(w: V2Writer, s: string, allowBreaks: boolean): void {
  w.writeIndicator("'", true, false, false);
  writeFoldable(w, s, allowBreaks, true);
  w.writeIndicator("'", false, false, false);
  w.whitespace = false;
  w.indention = false;
}

/**
 * The body of the plain and single-quoted writers, which libyaml spells out twice. They differ
 * only in what `quoted` switches on: a single-quoted scalar is never folded at its first or
 * last character (the fold would be taken for the quote's own space), and writes `'` as `''`.
 */
function writeFoldable(w: V2Writer, s: string, allowBreaks: boolean, quoted: boolean): void {
  let spaces = false;
  let breaks = false;
  const last = s.length - 1;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === SPACE) {
      const fold =
        allowBreaks &&
        !spaces &&
        w.column > V2Writer.bestWidth &&
        (!quoted || (i !== 0 && i !== last)) &&
        s.charCodeAt(i + 1) !== SPACE;
      if (fold) w.writeIndent();
      else w.write(' ', 1);
      i++;
      spaces = true;
    } else if (isBreak(c)) {
      if (!breaks && c === 0x0a) w.putBreak();
      w.writeBreak(s[i]);
      i++;
      breaks = true;
    } else {
      if (breaks) w.writeIndent();
      const [end, width] = runEnd(s, i, true);
      const word = s.slice(i, end);
      // A quote is written twice; each copy takes a column.
      const quotes = quoted && word.includes("'") ? word.split("'").length - 1 : 0;
      w.write(quotes > 0 ? word.replace(/'/g, "''") : word, width + quotes);
      i = end;
      w.indention = false;
      spaces = false;
      breaks = false;
    }
  }
}

/** Short escapes of the double-quoted style; other characters use \x, \u or \U with upper-case hex. */
const SHORT_ESCAPES = new Map<number, string>([
  [0x00, '0'],
  [0x07, 'a'],
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0b, 'v'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x1b, 'e'],
  [0x22, '"'],
  [0x5c, '\\'],
  [0x85, 'N'],
  [0xa0, '_'],
  [0x2028, 'L'],
  [0x2029, 'P'],
]);

function escapeOf(cp: number): string {
  const short = SHORT_ESCAPES.get(cp);
  if (short !== undefined) return `\\${short}`;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}

export function writeDoubleQuoted(w: V2Writer, s: string, allowBreaks: boolean): void {
  w.writeIndicator('"', true, false, false);
  // go-yaml's is_bom looks at the start of the whole text rather than at the current
  // character, so a string that starts with U+FEFF has every character escaped.
  const escapeAll = s.charCodeAt(0) === 0xfeff;
  let spaces = false;
  const last = s.length - 1;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    if (escapeAll || !isPrintable(cp) || isBreak(cp) || cp === 0x22 || cp === 0x5c) {
      const escape = escapeOf(cp);
      w.write(escape, escape.length);
      spaces = false;
    } else if (cp === SPACE) {
      if (allowBreaks && !spaces && w.column > V2Writer.bestWidth && i !== 0 && i !== last) {
        w.writeIndent();
        // A space right after the fold would be eaten as indentation, so it is escaped.
        if (s.charCodeAt(i + 1) === SPACE) w.write('\\', 1);
      } else {
        w.write(' ', 1);
      }
      spaces = true;
    } else {
      w.write(s.slice(i, i + units), 1);
      spaces = false;
    }
    i += units;
  }
  w.writeIndicator('"', false, false, false);
  w.whitespace = false;
  w.indention = false;
}

export function writeLiteral(w: V2Writer, s: string): void {
  w.writeIndicator('|', true, false, false);
  // An indentation indicator is needed when the first line starts with a space or is empty.
  const first = s.charCodeAt(0);
  if (first === SPACE || isBreak(first)) w.writeIndicator(String(V2Writer.bestIndent), false, false, false);
  const chomp = chompIndicator(s);
  if (chomp !== '') w.writeIndicator(chomp, false, false, false);
  w.putBreak();
  w.indention = true;
  w.whitespace = true;
  let breaks = true;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (isBreak(c)) {
      w.writeBreak(s[i]);
      i++;
      breaks = true;
    } else {
      if (breaks) w.writeIndent();
      const [end, width] = runEnd(s, i, false);
      w.write(s.slice(i, end), width);
      i = end;
      w.indention = false;
      breaks = false;
    }
  }
}

/** `-` strips a text without a final break, `+` keeps two or more final breaks (or a lone one). */
function chompIndicator(s: string): string {
  const n = s.length;
  if (n === 0) return '-';
  if (!isBreak(s.charCodeAt(n - 1))) return '-';
  if (n === 1) return '+';
  return isBreak(s.charCodeAt(n - 2)) ? '+' : '';
}
