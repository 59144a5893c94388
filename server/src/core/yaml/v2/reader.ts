/**
 * The character source under the scanner: libyaml's reader as go-yaml v2 runs it.
 *
 * go-yaml does not validate the whole input up front. It reads the input in 512-byte raw
 * chunks and decodes (and checks) a chunk only when the scanner asks for more characters
 * than are buffered. "control characters are not allowed" therefore appears exactly when
 * the scanner first needs a character from the offending chunk, which may be after a syntax
 * error earlier in the text, or never if the first document ends before that chunk. This
 * class reproduces that timing: `unread` counts decoded characters not yet consumed, and
 * `cache(n)` decodes the next chunk whenever fewer than `n` are available, exactly where
 * the Go scanner calls it.
 *
 * The scanner reads characters straight from the JS string; padding NULs after the text
 * play the part of the NULs go-yaml appends at the end of input.
 */

import { SyntaxStage, syntaxError } from './errors';
import { Mark } from './tokens';

/** Size of go-yaml v2's raw input buffer (`input_raw_buffer_size`). */
const RAW_CHUNK = 512;

/** Enough NULs for the longest lookahead (an 8-digit `\U` escape). */
const PADDING = '\0'.repeat(16);

export const CR = 0x0d;
export const LF = 0x0a;
export const NEL = 0x85;
export const LS = 0x2028;
export const PS = 0x2029;
export const BOM = 0xfeff;

export function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

export function isBreak(c: number): boolean {
  return c === LF || c === CR || c === NEL || c === LS || c === PS;
}

export function isBreakOrNul(c: number): boolean {
  return c === 0 || isBreak(c);
}

export function isBlankOrBreakOrNul(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0 || isBreak(c);
}

/** libyaml's `is_alpha`: the characters allowed in anchors, directive names and tag handles. */
export function isAlpha(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

export function hexValue(c: number): number {
  if (c >= 0x61) return c - 0x61 + 10;
  if (c >= 0x41) return c - 0x41 + 10;
  return c - 0x30;
}

/** The characters libyaml's reader accepts; everything else is a "control character". */
function isAllowedCharacter(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * Replaces lone surrogates with U+FFFD. A JS string can hold them but UTF-8 cannot; encoding
 * the text for Go (as TextEncoder does) turns each into U+FFFD, so that is what go-yaml sees.
 */
export function toWellFormed(text: string): string {
  if (!/[\ud800-\udfff]/.test(text)) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    out += text.slice(from, i) + '\ufffd';
    from = i + 1;
  }
  return out + text.slice(from);
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export class ScannerInput {
  /** The text followed by NUL padding. */
  protected readonly src: string;
  /** Length of the text without padding, in UTF-16 units. */
  private readonly textLength: number;
  /** UTF-16 offset of the current character. */
  protected pos: number;
  /** The current position in libyaml's terms (see `Mark`). */
  protected index = 0;
  protected line = 0;
  protected column = 0;
  /** Decoded characters not yet consumed, as go-yaml counts them (NULs at end of input included). */
  protected unread = 0;
  /**
   * UTF-16 offset of the character at the start of go-yaml's decoded buffer. go-yaml's BOM
   * test looks at the start of that buffer instead of the current position, so it matters.
   */
  protected bufferBase: number;

  private decodeIndex: number;
  private bytesDecoded: number;
  private rawEnd: number;
  private readonly totalBytes: number;
  private eof: boolean;

  constructor(text: string) {
    const clean = toWellFormed(text);
    this.textLength = clean.length;
    this.src = clean + PADDING;
    this.totalBytes = utf8Length(clean);
    // Encoding detection reads the first raw chunk; with fewer than 3 bytes it reads again
    // and meets the end of input, which sets the EOF flag early.
    this.rawEnd = Math.min(this.totalBytes, RAW_CHUNK);
    this.eof = this.totalBytes < 3;
    const hasBom = this.totalBytes >= 3 && clean.charCodeAt(0) === BOM;
    this.bytesDecoded = hasBom ? 3 : 0;
    this.decodeIndex = hasBom ? 1 : 0;
    this.pos = this.decodeIndex;
    this.bufferBase = this.pos;
  }

  protected mark(): Mark {
    return new Mark(this.index, this.line, this.column);
  }

  /** The UTF-16 unit `k` units ahead; only used after ASCII characters, so units equal characters. */
  protected at(k: number): number {
    return this.src.charCodeAt(this.pos + k);
  }

  /** Ensures `n` decoded characters are available, decoding more input as go-yaml would. */
  protected cache(n: number): void {
    if (this.unread < n) this.fill(n);
  }

  protected skip(): void {
    const c = this.src.charCodeAt(this.pos);
    this.pos += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    this.index++;
    this.column++;
    this.unread--;
  }

  /** Consumes one line break (CR LF counts as one) without returning it. */
  protected skipLine(): void {
    const c = this.src.charCodeAt(this.pos);
    if (c === CR && this.src.charCodeAt(this.pos + 1) === LF) {
      this.pos += 2;
      this.index += 2;
      this.unread -= 2;
      this.line++;
      this.column = 0;
    } else if (isBreak(c)) {
      this.pos++;
      this.index++;
      this.unread--;
      this.line++;
      this.column = 0;
    }
  }

  /**
   * Consumes one line break and returns what it stands for in a scalar: CR, LF, CR LF and
   * NEL become LF; LS and PS are kept. Returns '' (consuming nothing) when not at a break.
   */
  protected readLine(): string {
    const c = this.src.charCodeAt(this.pos);
    if (c === CR && this.src.charCodeAt(this.pos + 1) === LF) {
      this.pos += 2;
      this.index += 2;
      this.unread -= 2;
      this.line++;
      this.column = 0;
      return '\n';
    }
    if (c === LF || c === CR || c === NEL || c === LS || c === PS) {
      this.pos++;
      this.index++;
      this.unread--;
      this.line++;
      this.column = 0;
      return c === LS || c === PS ? String.fromCharCode(c) : '\n';
    }
    return '';
  }

  /** go-yaml's `yaml_parser_update_buffer`, called only when `unread < length`. */
  private fill(length: number): void {
    // Go moves the unread characters to the start of its buffer here.
    this.bufferBase = this.pos;
    let first = true;
    while (this.unread < length) {
      if (!first || this.bytesDecoded === this.rawEnd) this.readRaw();
      first = false;
      this.decodeChunk();
      if (this.eof) {
        // At the end of input every refill appends one NUL.
        this.unread++;
        break;
      }
    }
  }

  private readRaw(): void {
    if (this.eof) return;
    if (this.rawEnd >= this.totalBytes) {
      this.eof = true;
      return;
    }
    // The bytes of a character cut by the previous chunk move to the front, then the raw
    // buffer is filled up to its capacity again.
    this.rawEnd = Math.min(this.totalBytes, this.bytesDecoded + RAW_CHUNK);
  }

  private decodeChunk(): void {
    const src = this.src;
    while (this.decodeIndex < this.textLength) {
      const c = src.charCodeAt(this.decodeIndex);
      let cp = c;
      let units = 1;
      let width: number;
      if (c < 0x80) width = 1;
      else if (c < 0x800) width = 2;
      else if (c >= 0xd800 && c <= 0xdbff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (src.charCodeAt(this.decodeIndex + 1) - 0xdc00);
        units = 2;
        width = 4;
      } else width = 3;
      if (this.bytesDecoded + width > this.rawEnd) break;
      if (!isAllowedCharacter(cp)) throw syntaxError(SyntaxStage.Reader, 'control characters are not allowed', null, null);
      this.bytesDecoded += width;
      this.decodeIndex += units;
      this.unread++;
    }
  }
}
