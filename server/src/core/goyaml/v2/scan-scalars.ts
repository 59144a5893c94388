/**
 * Scalar scanning of the go-yaml v2 scanner (libyaml's scanner.c): block scalars with their
 * chomping and indentation indicators, single- and double-quoted scalars with escapes, and
 * plain scalars. Line folding follows libyaml: one line break between two lines becomes a
 * space (folded block scalars and flow scalars), more breaks are kept minus the first, and
 * lines that start with blanks in a folded block scalar keep their breaks.
 *
 * The `cache(n)` calls sit where go-yaml refills its buffer, because that decides when a
 * control character further on is reported (see reader.ts).
 */

import { SyntaxStage, syntaxError, type YamlV2Error } from './errors';
import { LF, ScannerInput, hexValue, isBlank, isBlankOrBreakOrNul, isBreak, isBreakOrNul, isDigit, isHex } from './reader';
import { Mark, ScalarStyle, Token, TokenKind } from './tokens';

export const SPACE = 0x20;
export const TAB = 0x09;
const HASH = 0x23;

/** Scanner state needed to scan scalars, and the scalar scanners themselves. */
export class ScalarScanner extends ScannerInput {
  /** Column of the innermost block collection; -1 at the top level. */
  protected indent = -1;
  /** Depth of `[`/`{` nesting; 0 is the block context. */
  protected flowLevel = 0;
  /** Whether a simple key (and so `-`, `?` or `:` structure) may start at this point. */
  protected simpleKeyAllowed = false;

  // Out-parameters of scanBlockScalarBreaks, kept as fields to avoid allocating.
  private blockIndent = 0;
  private blockBreaks = '';
  private blockEnd: Mark | null = null;

  /** A scanner error at the current position; libyaml prints it one-based. */
  protected error(context: Mark | null, problem: string): YamlV2Error {
    return syntaxError(SyntaxStage.Scanner, problem, this.mark(), context);
  }

  /** Consumes characters while `test` holds, refilling the buffer after each one as go-yaml does. */
  protected skipWhile(test: (c: number) => boolean): void {
    while (test(this.at(0))) {
      this.skip();
      this.cache(1);
    }
  }

  protected skipBlanks(): void {
    this.skipWhile(isBlank);
  }

  /** A comment runs from `#` to the end of the line. */
  protected skipComment(): void {
    if (this.at(0) === HASH) this.skipWhile(isNotBreakOrNul);
  }

  /**
   * The end of a line that holds a directive or a block scalar header: blanks, an optional
   * comment, then a line break (consumed) or the end of the input.
   */
  protected skipToLineEnd(start: Mark): void {
    this.cache(1);
    this.skipBlanks();
    this.skipComment();
    if (!isBreakOrNul(this.at(0))) throw this.error(start, 'did not find expected comment or line break');
    if (isBreak(this.at(0))) {
      this.cache(2);
      this.skipLine();
    }
  }

  protected scanBlockScalar(literal: boolean): Token {
    const start = this.mark();
    this.skip();
    this.cache(1);

    let chomping = 0;
    let increment = 0;
    let c = this.at(0);
    if (c === 0x2b || c === 0x2d) {
      chomping = c === 0x2b ? 1 : -1;
      this.skip();
      this.cache(1);
      if (isDigit(this.at(0))) {
        if (this.at(0) === 0x30) throw this.error(start, 'found an indentation indicator equal to 0');
        increment = this.at(0) - 0x30;
        this.skip();
      }
    } else if (isDigit(c)) {
      if (c === 0x30) throw this.error(start, 'found an indentation indicator equal to 0');
      increment = c - 0x30;
      this.skip();
      this.cache(1);
      c = this.at(0);
      if (c === 0x2b || c === 0x2d) {
        chomping = c === 0x2b ? 1 : -1;
        this.skip();
      }
    }

    this.skipToLineEnd(start);

    this.blockIndent = increment > 0 ? (this.indent >= 0 ? this.indent + increment : increment) : 0;
    this.blockBreaks = '';
    this.blockEnd = this.mark();
    this.scanBlockScalarBreaks(start);
    let trailingBreaks = this.blockBreaks;
    let s = '';
    let leadingBreak = '';
    let leadingBlank = false;

    this.cache(1);
    while (this.column === this.blockIndent && this.at(0) !== 0) {
      // At the start of a non-empty line of the scalar.
      const trailingBlank = isBlank(this.at(0));
      // A folded scalar joins lines with one space, unless either line is more indented.
      if (!literal && !leadingBlank && !trailingBlank && leadingBreak.length > 0 && leadingBreak.charCodeAt(0) === LF) {
        if (trailingBreaks.length === 0) s += ' ';
      } else {
        s += leadingBreak;
      }
      leadingBreak = '';
      s += trailingBreaks;
      leadingBlank = isBlank(this.at(0));

      const from = this.pos;
      this.skipWhile(isNotBreakOrNul);
      s += this.src.slice(from, this.pos);
      this.cache(2);
      leadingBreak = this.readLine();

      this.blockBreaks = '';
      this.scanBlockScalarBreaks(start);
      trailingBreaks = this.blockBreaks;
    }

    if (chomping !== -1) s += leadingBreak;
    if (chomping === 1) s += trailingBreaks;
    return new Token(TokenKind.Scalar, start, this.blockEnd, s, '', literal ? ScalarStyle.Literal : ScalarStyle.Folded);
  }

  /**
   * Consumes indentation and empty lines inside a block scalar, collecting the breaks in
   * `blockBreaks`. When the indentation is not known yet it becomes the deepest indentation
   * seen on the leading empty lines or the first content line, but at least one more than
   * the enclosing block.
   */
  private scanBlockScalarBreaks(start: Mark): void {
    this.blockEnd = this.mark();
    let maxIndent = 0;
    for (;;) {
      this.cache(1);
      while ((this.blockIndent === 0 || this.column < this.blockIndent) && this.at(0) === SPACE) {
        this.skip();
        this.cache(1);
      }
      if (this.column > maxIndent) maxIndent = this.column;
      if ((this.blockIndent === 0 || this.column < this.blockIndent) && this.at(0) === TAB) {
        throw this.error(start, 'found a tab character where an indentation space is expected');
      }
      if (!isBreak(this.at(0))) break;
      this.cache(2);
      this.blockBreaks += this.readLine();
      this.blockEnd = this.mark();
    }
    if (this.blockIndent === 0) {
      this.blockIndent = Math.max(maxIndent, this.indent + 1, 1);
    }
  }

  protected scanFlowScalar(single: boolean): Token {
    const start = this.mark();
    this.skip();
    let s = '';
    const gap = new ScalarGap();
    const quote = single ? 0x27 : 0x22;

    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.atDocumentIndicator()) {
        throw this.error(start, 'found unexpected document indicator');
      }
      if (this.at(0) === 0) throw this.error(start, 'found unexpected end of stream');

      let runStart = this.pos;
      while (!isBlankOrBreakOrNul(this.at(0))) {
        const c = this.at(0);
        if (single) {
          if (c === 0x27) {
            if (this.at(1) !== 0x27) break;
            // '' is an escaped single quote.
            s += this.src.slice(runStart, this.pos) + "'";
            this.skip();
            this.skip();
            runStart = this.pos;
          } else {
            this.skip();
          }
        } else if (c === 0x22) {
          break;
        } else if (c === 0x5c /* \ */ && isBreak(this.at(1))) {
          // An escaped line break: the lines join without a space.
          s += this.src.slice(runStart, this.pos);
          this.cache(3);
          this.skip();
          this.skipLine();
          gap.leadingBlanks = true;
          runStart = this.pos;
          break;
        } else if (c === 0x5c) {
          s += this.src.slice(runStart, this.pos) + this.scanEscape(start);
          runStart = this.pos;
        } else {
          this.skip();
        }
        this.cache(2);
      }
      s += this.src.slice(runStart, this.pos);

      this.cache(1);
      if (this.at(0) === quote) break;
      this.scanGap(gap, start, undefined);
      s += gap.take();
    }

    this.skip();
    return new Token(
      TokenKind.Scalar,
      start,
      this.mark(),
      s,
      '',
      single ? ScalarStyle.SingleQuoted : ScalarStyle.DoubleQuoted,
    );
  }

  /** Decodes one backslash escape of a double-quoted scalar, consuming it. */
  private scanEscape(start: Mark): string {
    const escape = String.fromCharCode(this.at(1));
    const text = SHORT_ESCAPES.get(escape);
    const codeLength = CODE_ESCAPE_LENGTHS.get(escape);
    if (text === undefined && codeLength === undefined) throw this.error(start, 'found unknown escape character');
    this.skip();
    this.skip();
    if (codeLength === undefined) return text!;
    this.cache(codeLength);
    let value = 0;
    for (let k = 0; k < codeLength; k++) {
      const c = this.at(k);
      if (!isHex(c)) throw this.error(start, 'did not find expected hexdecimal number');
      value = value * 16 + hexValue(c);
    }
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
      throw this.error(start, 'found invalid Unicode character escape code');
    }
    for (let k = 0; k < codeLength; k++) this.skip();
    return String.fromCodePoint(value);
  }

  /**
   * Consumes the blanks and line breaks after a run of flow or plain scalar text into `gap`.
   * In a plain scalar (`plainIndent` given) a tab in the indentation of a continuation line is
   * an error; quoted scalars accept it.
   */
  private scanGap(gap: ScalarGap, start: Mark, plainIndent: number | undefined): void {
    for (;;) {
      const c = this.at(0);
      if (isBlank(c)) {
        if (plainIndent !== undefined && gap.leadingBlanks && this.column < plainIndent && c === TAB) {
          throw this.error(start, 'found a tab character that violates indentation');
        }
        if (!gap.leadingBlanks) gap.whitespaces += c === TAB ? '\t' : ' ';
        this.skip();
      } else if (isBreak(c)) {
        this.cache(2);
        if (!gap.leadingBlanks) {
          gap.whitespaces = '';
          gap.leadingBreak = this.readLine();
          gap.leadingBlanks = true;
        } else {
          gap.trailingBreaks += this.readLine();
        }
      } else {
        break;
      }
      this.cache(1);
    }
  }

  protected atDocumentIndicator(): boolean {
    const c = this.at(0);
    return (
      (c === 0x2d || c === 0x2e) && this.at(1) === c && this.at(2) === c && isBlankOrBreakOrNul(this.at(3))
    );
  }

  protected scanPlainScalar(): Token {
    let s = '';
    const gap = new ScalarGap();
    const indent = this.indent + 1;
    const start = this.mark();
    let endIndex = this.index;
    let endLine = this.line;
    let endColumn = this.column;
    const flow = this.flowLevel > 0;

    for (;;) {
      this.cache(4);
      if (this.column === 0 && this.atDocumentIndicator()) break;
      if (this.at(0) === HASH) break;

      let runStart = -1;
      while (!isBlankOrBreakOrNul(this.at(0))) {
        const c = this.at(0);
        // `: ` ends a plain scalar everywhere; flow indicators end it in the flow context.
        if (c === 0x3a && isBlankOrBreakOrNul(this.at(1))) break;
        if (flow && (c === 0x2c || c === 0x3f || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d)) break;

        if (runStart < 0) {
          // The gap before this run joins the scalar only now that more text follows it.
          s += gap.take();
          runStart = this.pos;
        }
        this.skip();
        endIndex = this.index;
        endLine = this.line;
        endColumn = this.column;
        this.cache(2);
      }
      if (runStart >= 0) s += this.src.slice(runStart, this.pos);

      const c0 = this.at(0);
      if (!(isBlank(c0) || isBreak(c0))) break;

      this.cache(1);
      this.scanGap(gap, start, indent);

      if (!flow && this.column < indent) break;
    }

    // A plain scalar that ran over a line break leaves the scanner at the start of a line,
    // where a simple key may begin.
    if (gap.leadingBlanks) this.simpleKeyAllowed = true;
    return new Token(TokenKind.Scalar, start, new Mark(endIndex, endLine, endColumn), s, '', ScalarStyle.Plain);
  }
}

/** The escapes of a double-quoted scalar that stand for one fixed character (`\<TAB>` is a tab). */
const SHORT_ESCAPES = new Map<string, string>([
  ['0', '\0'],
  ['a', '\x07'],
  ['b', '\b'],
  ['t', '\t'],
  ['\t', '\t'],
  ['n', '\n'],
  ['v', '\v'],
  ['f', '\f'],
  ['r', '\r'],
  ['e', '\x1b'],
  [' ', ' '],
  ['"', '"'],
  ["'", "'"],
  ['\\', '\\'],
  ['N', '\x85'],
  ['_', '\xa0'],
  ['L', '\u2028'],
  ['P', '\u2029'],
]);

/** The escapes followed by a code point in hex, and how many hex digits each takes. */
const CODE_ESCAPE_LENGTHS = new Map<string, number>([
  ['x', 2],
  ['u', 4],
  ['U', 8],
]);

function isNotBreakOrNul(c: number): boolean {
  return !isBreakOrNul(c);
}

/**
 * The blanks and line breaks between two runs of text in a flow or plain scalar, as libyaml
 * collects them: blanks count until the first line break, which goes to `leadingBreak`;
 * further breaks go to `trailingBreaks`.
 */
class ScalarGap {
  whitespaces = '';
  leadingBreak = '';
  trailingBreaks = '';
  /** A line break was crossed (or, in a double-quoted scalar, escaped). */
  leadingBlanks = false;

  /**
   * What the gap adds to the scalar, emptying it: a single line feed folds to a space, more
   * breaks are kept minus the first, and without a break the blanks stay as they are.
   */
  take(): string {
    let text = this.whitespaces;
    if (this.leadingBlanks) {
      const folded = this.leadingBreak.charCodeAt(0) === LF;
      if (!folded) text = this.leadingBreak + this.trailingBreaks;
      else text = this.trailingBreaks.length === 0 ? ' ' : this.trailingBreaks;
    }
    this.whitespaces = '';
    this.leadingBreak = '';
    this.trailingBreaks = '';
    this.leadingBlanks = false;
    return text;
  }
}
