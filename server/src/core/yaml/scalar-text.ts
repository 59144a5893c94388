/**
 * Decodes the source of one YAML scalar into its value while remembering, for every UTF-16
 * unit of the value, which source range produced it. Rules find hazards in decoded values
 * (what the controller substitutes), and this map puts each finding back on the exact
 * source columns, whatever the quoting, escapes, folding or block indentation.
 */

export type ScalarStyle = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED';

export interface ScalarText {
  value: string;
  /** Source offset (absolute) where value unit i comes from. */
  starts: Int32Array;
  /** Source offset (absolute) just past the source of value unit i. */
  ends: Int32Array;
}

/** Maps the value range [from, to) to a source range. An empty range maps to a point. */
export function sourceRange(text: ScalarText, from: number, to: number): { start: number; end: number } {
  const n = text.value.length;
  if (n === 0) return { start: 0, end: 0 };
  const start = from < n ? text.starts[from] : text.ends[n - 1];
  const end = to > from ? text.ends[Math.min(to, n) - 1] : start;
  return { start, end };
}

/**
 * The source range of the value units [from, to), without the per-unit map, where the map is
 * plainly linear: a one-line plain or quoted scalar written exactly as its value (no escape,
 * no folding), or one line of a literal block (`|`, no indentation indicator), whose lines are
 * the source lines without their indentation. Undefined when only the map can tell (a range
 * across a line break, an escape, folding). `range` is the scalar's source range, quotes and
 * block header included. The answer is sourceRange's on the decoded text (yaml-scalar-text.test.ts).
 */
export function linearRange(source: string, style: ScalarStyle, range: { start: number; end: number }, value: string, from: number, to: number): { start: number; end: number } | undefined {
  if (from < 0 || from >= to || to > value.length) return undefined;
  switch (style) {
    case 'PLAIN':
      return written(source, range.start, range.end, value) ? { start: range.start + from, end: range.start + to } : undefined;
    case 'QUOTE_SINGLE':
    case 'QUOTE_DOUBLE':
      return written(source, range.start + 1, range.end - 1, value) ? { start: range.start + 1 + from, end: range.start + 1 + to } : undefined;
    case 'BLOCK_LITERAL':
      return literalLineRange(source, range.start, range.end, value, from, to);
    default:
      return undefined;
  }
}

/** Is source[start, end) exactly `value`? */
function written(source: string, start: number, end: number, value: string): boolean {
  return end - start === value.length && source.startsWith(value, start);
}

function literalLineRange(source: string, header: number, scalarEnd: number, value: string, from: number, to: number): { start: number; end: number } | undefined {
  const lineStart = value.lastIndexOf('\n', from - 1) + 1;
  const lineEnd = value.indexOf('\n', from);
  if (lineEnd !== -1 && to > lineEnd) return undefined;
  // The header: `|`, then chomping, then a comment or nothing; an indentation indicator is not linear here.
  const headerEnd = source.indexOf('\n', header);
  if (headerEnd === -1 || /^\|[-+]?[1-9]/.test(source.slice(header, headerEnd))) return undefined;
  // Value line l is source body line l; the indentation is the first line with content's.
  let line = headerEnd + 1;
  for (let i = value.indexOf('\n'); i !== -1 && i < lineStart; i = value.indexOf('\n', i + 1)) {
    line = source.indexOf('\n', line) + 1;
    if (line === 0) return undefined;
  }
  const indent = contentIndent(source, headerEnd + 1, scalarEnd);
  if (indent < 0) return undefined;
  const text = value.slice(lineStart, lineEnd === -1 ? value.length : lineEnd);
  const at = line + indent;
  if (!source.startsWith(text, at) || (source.length > at + text.length && source[at + text.length] !== '\n' && source[at + text.length] !== '\r')) return undefined;
  return { start: at + (from - lineStart), end: at + (to - lineStart) };
}

/**
 * A block scalar's auto-detected indentation: the spaces before the first line of
 * text[from, end) that holds anything else (-1 when none does). Lines end at `\n`, `\r\n` or `\r`.
 */
function contentIndent(text: string, from: number, end: number): number {
  for (let line = from; line < end; ) {
    let i = line;
    while (i < end && text[i] === ' ') i++;
    if (i >= end) return -1;
    if (text[i] !== '\n' && text[i] !== '\r') return i - line;
    line = i + (text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1);
  }
  return -1;
}

/** Offsets go straight into typed arrays that double when full: no boxed numbers, no copy at the end but one. */
class Builder {
  private value = '';
  private starts: Int32Array;
  private ends: Int32Array;
  private length = 0;

  constructor(capacity: number) {
    this.starts = new Int32Array(Math.max(16, capacity));
    this.ends = new Int32Array(Math.max(16, capacity));
  }

  push(chars: string, start: number, end: number): void {
    this.reserve(chars.length);
    for (let i = 0; i < chars.length; i++) {
      this.starts[this.length] = start;
      this.ends[this.length++] = end;
    }
    this.value += chars;
  }

  /** Copies source[from, to) verbatim: each unit maps to itself. */
  copy(source: string, from: number, to: number, base: number): void {
    this.reserve(to - from);
    for (let i = from; i < to; i++) {
      this.starts[this.length] = base + i;
      this.ends[this.length++] = base + i + 1;
    }
    this.value += source.slice(from, to);
  }

  build(): ScalarText {
    return { value: this.value, starts: this.starts.slice(0, this.length), ends: this.ends.slice(0, this.length) };
  }

  private reserve(more: number): void {
    if (this.length + more <= this.starts.length) return;
    const size = Math.max(this.length + more, this.starts.length * 2);
    const grow = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from.subarray(0, this.length));
      return to;
    };
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
  }
}

const isBlank = (c: string): boolean => c === ' ' || c === '\t';

/**
 * `raw` is the scalar's source from its first character (quote, block indicator or plain
 * text) to the end of its value; `base` is the absolute offset of raw[0].
 */
export function decodeScalar(raw: string, style: ScalarStyle, base: number, parentIndent = 0): ScalarText {
  switch (style) {
    case 'PLAIN':
      return decodeFlow(raw, 0, raw.length, base, 'plain');
    case 'QUOTE_SINGLE':
      return decodeFlow(raw, 1, raw.length - 1, base, 'single');
    case 'QUOTE_DOUBLE':
      return decodeFlow(raw, 1, raw.length - 1, base, 'double');
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED':
      return decodeBlock(raw, base, style === 'BLOCK_FOLDED', parentIndent);
  }
}

/** Plain and quoted scalars: line folding plus the style's own escapes. */
function decodeFlow(raw: string, from: number, to: number, base: number, kind: 'plain' | 'single' | 'double'): ScalarText {
  const out = new Builder(to - from);
  let i = from;
  while (i < to) {
    const c = raw[i];
    if (c === '\n' || c === '\r') {
      i = fold(raw, i, to, base, out);
      continue;
    }
    if (isBlank(c)) {
      // Blanks before a line break are dropped by folding; elsewhere they are content.
      let j = i;
      while (j < to && isBlank(raw[j])) j++;
      if (j < to && (raw[j] === '\n' || raw[j] === '\r')) {
        i = j;
        continue;
      }
      if (j === to && kind === 'plain') break;
      out.copy(raw, i, j, base);
      i = j;
      continue;
    }
    if (kind === 'single' && c === "'" && raw[i + 1] === "'") {
      out.push("'", base + i, base + i + 2);
      i += 2;
      continue;
    }
    if (kind === 'double' && c === '\\') {
      i = unescape(raw, i, to, base, out);
      continue;
    }
    out.copy(raw, i, i + 1, base);
    i++;
  }
  return out.build();
}

/** Folds the line break at raw[i]: one break becomes a space, n+1 breaks become n newlines. */
function fold(raw: string, i: number, to: number, base: number, out: Builder): number {
  const breakStart = i;
  let breaks = 0;
  let j = i;
  for (;;) {
    if (raw[j] === '\r' && raw[j + 1] === '\n') j += 2;
    else if (raw[j] === '\n' || raw[j] === '\r') j += 1;
    else break;
    breaks++;
    while (j < to && isBlank(raw[j])) j++;
  }
  if (breaks === 1) out.push(' ', base + breakStart, base + j);
  else out.push('\n'.repeat(breaks - 1), base + breakStart, base + j);
  return j;
}

const simpleEscapes: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
const hexLengths: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Decodes one escape of a double-quoted scalar starting at raw[i] === '\\'. */
function unescape(raw: string, i: number, to: number, base: number, out: Builder): number {
  const e = raw[i + 1];
  if (e === '\n' || e === '\r') {
    // An escaped line break joins the lines with nothing in between.
    let j = i + 1;
    j += raw[j] === '\r' && raw[j + 1] === '\n' ? 2 : 1;
    while (j < to && isBlank(raw[j])) j++;
    return j;
  }
  if (e !== undefined && e in simpleEscapes) {
    out.push(simpleEscapes[e], base + i, base + i + 2);
    return i + 2;
  }
  const length = e === undefined ? undefined : hexLengths[e];
  if (length !== undefined) {
    const code = parseInt(raw.slice(i + 2, i + 2 + length), 16);
    if (!Number.isNaN(code) && code <= 0x10ffff) {
      out.push(String.fromCodePoint(code), base + i, base + i + 2 + length);
      return i + 2 + length;
    }
  }
  // An invalid escape: keep it verbatim so positions stay honest; the parser reports it.
  out.copy(raw, i, Math.min(i + 2, to), base);
  return Math.min(i + 2, to);
}

/**
 * Literal (`|`) and folded (`>`) block scalars with their header indicators.
 * `parentIndent` is the indentation of the node that owns the scalar; an explicit
 * indentation indicator counts from it.
 */
function decodeBlock(raw: string, base: number, folded: boolean, parentIndent: number): ScalarText {
  const out = new Builder(raw.length);
  let i = 1;
  let chomp: 'clip' | 'strip' | 'keep' = 'clip';
  let explicitIndent = 0;
  for (; i < raw.length && raw[i] !== '\n' && raw[i] !== '\r' && !isBlank(raw[i]) && raw[i] !== '#'; i++) {
    if (raw[i] === '-') chomp = 'strip';
    else if (raw[i] === '+') chomp = 'keep';
    else if (raw[i] >= '1' && raw[i] <= '9') explicitIndent = raw.charCodeAt(i) - 48;
  }
  while (i < raw.length && raw[i] !== '\n' && raw[i] !== '\r') i++;
  const lines = splitLines(raw, i);
  const indent = explicitIndent > 0 ? Math.max(parentIndent, 0) + explicitIndent : Math.max(contentIndent(raw, lines[0]?.start ?? raw.length, raw.length), 0);

  // Breaks seen since the last content line: the one ending it, then one per empty line.
  let breaks: Array<[number, number]> = [];
  let previousMoreIndented = false;
  let seenContent = false;
  for (const line of lines) {
    if (isEmptyLine(raw, line, indent)) {
      breaks.push([line.breakStart, line.breakEnd]);
      continue;
    }
    const contentStart = line.start + indent;
    const moreIndented = isBlank(raw[contentStart] ?? '');
    if (!seenContent) {
      // Empty lines before the first content line are newlines of the value.
      for (const [bs, be] of breaks) out.push('\n', base + bs, base + be);
    } else if (folded && !previousMoreIndented && !moreIndented) {
      // Folding: a single break becomes a space; otherwise the first break is dropped.
      if (breaks.length === 1) out.push(' ', base + breaks[0][0], base + breaks[0][1]);
      for (const [bs, be] of breaks.slice(1)) out.push('\n', base + bs, base + be);
    } else {
      for (const [bs, be] of breaks) out.push('\n', base + bs, base + be);
    }
    out.copy(raw, contentStart, line.end, base);
    breaks = [[line.breakStart, line.breakEnd]];
    previousMoreIndented = moreIndented;
    seenContent = true;
  }
  // Chomping decides what happens to the final break and trailing empty lines.
  const trailing = breaks.filter(([s, e]) => e > s);
  const kept = chomp === 'keep' ? trailing : chomp === 'clip' && seenContent ? trailing.slice(0, 1) : [];
  for (const [bs, be] of kept) out.push('\n', base + bs, base + be);
  return out.build();
}

interface Line {
  start: number;
  end: number;
  breakStart: number;
  breakEnd: number;
}

function splitLines(raw: string, headerEnd: number): Line[] {
  const lines: Line[] = [];
  let i = headerEnd;
  if (raw[i] === '\r' && raw[i + 1] === '\n') i += 2;
  else if (i < raw.length) i += 1;
  while (i < raw.length) {
    let end = i;
    while (end < raw.length && raw[end] !== '\n' && raw[end] !== '\r') end++;
    const breakEnd = raw[end] === '\r' && raw[end + 1] === '\n' ? end + 2 : Math.min(end + 1, raw.length);
    lines.push({ start: i, end, breakStart: end, breakEnd });
    i = breakEnd;
  }
  return lines;
}

/** A line of spaces no deeper than the content indentation carries no content. */
function isEmptyLine(raw: string, line: Line, indent: number): boolean {
  for (let i = line.start; i < line.end; i++) if (raw[i] !== ' ') return false;
  return line.end - line.start <= indent;
}
