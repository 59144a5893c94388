/**
 * The character reader and token scanner used inside `${…}`.
 *
 * It reproduces the reader of Flux's envsubst, quirks included, but walks the JS string
 * directly so every position is a UTF-16 offset the editor can use. Code points are read as
 * Go decodes them from the UTF-8 bytes (a lone surrogate reads as U+FFFD). Go counts
 * widths in bytes; the one place where that difference shows (the `${NAME:` look-ahead) is
 * handled in the parser.
 */
import { RUNE_ERROR } from './bytes';

/** Go's reader returns rune 0 at the end of input, so a NUL character also reads as the end. */
export const EOF = 0;

export const DOLLAR = 0x24;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const SLASH = 0x2f;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;

/** Decides whether a rune continues a word; `offset` counts code units from the word start to just after the rune. */
export type Accept = (rune: number, offset: number) => boolean;

/** What a scan may return, depending on its rules. */
export interface TokenRules {
  /** `${` is a token of its own (a nested expansion starts). */
  readonly open: boolean;
  /** `}` is a token of its own. */
  readonly close: boolean;
  /** Which runes form a word; null when no word may be scanned. */
  readonly word: Accept | null;
  /** `$$`, `\/` and `\\` stand for `$`, `/` and `\` (replace arguments only). */
  readonly escapes: boolean;
}

export type Token = 'eof' | 'open' | 'close' | 'word' | 'illegal';

export class Scanner {
  /** The offset of the next code unit to read. */
  pos: number;
  /** Code units taken by the last read: 0 at the real end of the text, 1 for a NUL. */
  private width = 0;
  private start = 0;
  /** Offsets of escape characters dropped from the current word. */
  private readonly dropped: number[] = [];

  constructor(
    public text: string,
    pos: number,
  ) {
    this.pos = pos;
  }

  /** Starts over on another text, so one scanner can serve every parse. */
  reset(text: string, pos: number): void {
    this.text = text;
    this.pos = pos;
    this.width = 0;
    this.start = pos;
    if (this.dropped.length > 0) this.dropped.length = 0;
  }

  /** Reads one code point; EOF at the end of the text and for a NUL. */
  read(): number {
    const text = this.text;
    if (this.pos >= text.length) {
      this.width = 0;
      return EOF;
    }
    const c = text.charCodeAt(this.pos);
    if (c < 0xd800 || c > 0xdfff) {
      this.width = 1;
      this.pos++;
      return c;
    }
    if (c <= 0xdbff && this.pos + 1 < text.length) {
      const low = text.charCodeAt(this.pos + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.width = 2;
        this.pos += 2;
        return 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      }
    }
    this.width = 1;
    this.pos++;
    return RUNE_ERROR;
  }

  /** Steps back over the last code point read (nothing after reading the real end). */
  unread(): void {
    this.pos -= this.width;
  }

  peek(): number {
    const rune = this.read();
    this.unread();
    return rune;
  }

  /** True when the last read hit the real end of the text (not a NUL). */
  lastReadWasEnd(): boolean {
    return this.width === 0;
  }

  /** Code units taken by the last read. */
  lastWidth(): number {
    return this.width;
  }

  /** Where the last token began. */
  tokenStart(): number {
    return this.start;
  }

  /**
   * Scans one token. A word runs while `rules.word` accepts; it stops before a `${` when
   * `rules.open` is set. When the first rune is not accepted the result is 'illegal' and that
   * rune stays consumed, which is where Go's parser reports its error.
   */
  scan(rules: TokenRules): Token {
    this.start = this.pos;
    if (this.dropped.length > 0) this.dropped.length = 0;
    const first = this.read();
    if (first === EOF) return 'eof';
    if (rules.open && first === DOLLAR) {
      if (this.read() === LBRACE) return 'open';
      this.unread();
    }
    if (rules.close && first === RBRACE) return 'close';
    const accept = rules.word;
    if (accept === null) return 'illegal';
    if (rules.escapes && this.atEscape(first)) this.dropEscape();
    else if (!accept(first, this.pos - this.start)) return 'illegal';
    for (;;) {
      const rune = this.read();
      if (rune === EOF) {
        this.unread();
        break;
      }
      if (rules.open && rune === DOLLAR) {
        if (this.read() === LBRACE) {
          // Both `$` and `{` are one code unit: step back over the two.
          this.pos -= 2;
          break;
        }
        this.unread();
      }
      if (rules.escapes && this.atEscape(rune)) {
        this.dropEscape();
        continue;
      }
      if (!accept(rune, this.pos - this.start)) {
        this.unread();
        break;
      }
    }
    return 'word';
  }

  /** The text of the last word, without its dropped escape characters. */
  word(): string {
    const { text, start, pos, dropped } = this;
    if (dropped.length === 0) return text.slice(start, pos);
    let out = '';
    let from = start;
    for (const at of dropped) {
      out += text.slice(from, at);
      from = at + 1;
    }
    return out + text.slice(from, pos);
  }

  /** After reading `rune`: is it the first half of `$$`, `\/` or `\\`? */
  private atEscape(rune: number): boolean {
    if (rune !== DOLLAR && rune !== BACKSLASH) return false;
    const next = this.peek();
    return rune === DOLLAR ? next === DOLLAR : next === SLASH || next === BACKSLASH;
  }

  /**
   * Drops the escape character just read and consumes the character it escapes, which is
   * kept verbatim and not examined again (so an escaped `/` does not end a pattern).
   */
  private dropEscape(): void {
    this.dropped.push(this.pos - 1);
    this.pos += 1;
    this.width = 1;
  }
}
