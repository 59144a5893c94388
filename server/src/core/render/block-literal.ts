/**
 * The common case of a substituted multi-line string, answered without a YAML decoder.
 *
 * go-yaml v2 emits a multi-line string as a literal block (`k: |-`, two-space indentation).
 * Substitution rewrites text inside its lines. When it adds no line break, keeps the first
 * line starting at the block's indentation (which fixes the indentation), keeps the last line
 * non-blank (so chomping sees the same ending) and brings in no character go-yaml's reader
 * rejects, the block still reads back as a string: its lines without the indentation. Any
 * other case (an indentation indicator, a value with line breaks, a line that empties) is
 * left to the real decoder; a test compares both on generated blocks.
 */

import { isBreak } from '../goyaml/v2/emit-analyze';

/** Characters go-yaml's reader accepts that need no second look here (no CR, NEL, BOM, surrogates, controls). */
const plain = /^[\t\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*$/;
const indent = '  ';

/**
 * The string a literal block reads back as after substitution, when the substituted text
 * provably keeps the emitted block's shape; undefined when only a decoder can tell.
 * `prefix` is what precedes the block header on its line (`k: `).
 */
export function unchangedLiteralBlock(emitted: string, substituted: string, prefix: string): string | undefined {
  const header = /^\|([-+]?)\n/.exec(emitted.slice(prefix.length));
  if (!header || !emitted.startsWith(prefix) || !substituted.startsWith(prefix + header[0])) return undefined;
  if (!plain.test(substituted)) return undefined;
  const before = emitted.split('\n');
  const after = substituted.split('\n');
  // The same lines (a value with a line break moves everything after it), each still indented.
  if (before.length !== after.length || after[after.length - 1] !== '') return undefined;
  const lines = after.slice(1, -1);
  if (lines.length === 0 || !startsContent(before[1]) || !startsContent(lines[0])) return undefined;
  if (!/\S/.test(before[before.length - 2]) || !/\S/.test(lines[lines.length - 1])) return undefined;
  if (!lines.every((line) => line === '' || line.startsWith(indent))) return undefined;
  const content = lines.map((line) => line.slice(indent.length)).join('\n');
  // Strip drops the final line break; clip and keep hold one (there are no trailing blank lines).
  return header[1] === '-' ? content : `${content}\n`;
}

/** A first line that fixes the block's indentation at two spaces. */
function startsContent(line: string): boolean {
  return line.startsWith(indent) && line.length > indent.length && line[indent.length] !== ' ' && line[indent.length] !== '\t';
}

/**
 * Whether go-yaml v2 writes `value` (a map value) as a literal block that unchangedLiteralBlock
 * takes as it is, decided without writing it: the same answer as `unchangedLiteralBlock(e, e,
 * 'k: ')` of the emitted text `e` (scalar-after.fast-paths.test.ts compares the two). A
 * multi-line string of characters the shortcut reads that needs no indentation indicator (it
 * starts with neither a space nor a break), keeps at most one final break (no `|+`), ends on a
 * line that is not blank, and that go-yaml's analysis allows as a block. Undefined for a value
 * with U+2028 or U+2029, which go-yaml breaks lines at and the shortcut does not: only writing
 * it tells.
 */
export function emitsSimpleLiteral(value: string): boolean | undefined {
  if (!value.includes('\n') || !plain.test(value)) return false;
  if (/[\u2028\u2029]/.test(value)) return undefined;
  const first = value.charCodeAt(0);
  if (first === 0x20 || isBreak(first)) return false;
  const body = value.endsWith('\n') ? value.slice(0, -1) : value;
  if (body.endsWith('\n')) return false;
  if (!/\S/.test(body.slice(body.lastIndexOf('\n') + 1))) return false;
  // go-yaml's analysis (analyzeScalar) of these characters, which hold no surrogate and no
  // break but \n: a tab is not printable to it, and a space before a break or at the end
  // rules out a block. One regex pass, not a loop over every character of a long script.
  return !/\t| \n| $/.test(value);
}
