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
 * play the part of the NULs go-yaml appends at the end of input. A JS string cannot hold
 * invalid UTF-8, so bytes that are not valid UTF-8 are judged before scanning, by
 * `goYamlReaderError`.
 */

import { SyntaxStage, syntaxError } from './errors';
import { toWellFormed, utf8Length, utf8Width } from './go-utf8';
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

/** The characters libyaml's reader accepts: tab, line breaks and the printable ranges. */
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
 * The error go-yaml's reader (v2 and v3 share it) raises for the first byte sequence it
 * cannot read as UTF-8, or undefined when the bytes are valid. Its rules are libyaml's, not
 * Go's utf8 package: a lead byte is classified by its high bits alone, so `C0 80` is "invalid
 * length" rather than a bad lead byte. It checks for control characters in the same pass, so
 * one that comes first is reported instead.
 */
export function goYamlReaderError(bytes: ArrayLike<number>): string | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i]!;
    let width: number;
    if ((b0 & 0x80) === 0) width = 1;
    else if ((b0 & 0xe0) === 0xc0) width = 2;
    else if ((b0 & 0xf0) === 0xe0) width = 3;
    else if ((b0 & 0xf8) === 0xf0) width = 4;
    else return 'yaml: invalid leading UTF-8 octet';
    if (i + width > bytes.length) return 'yaml: incomplete UTF-8 octet sequence';
    let value = width === 1 ? b0 : width === 2 ? b0 & 0x1f : width === 3 ? b0 & 0x0f : b0 & 0x07;
    for (let k = 1; k < width; k++) {
      const b = bytes[i + k]!;
      if ((b & 0xc0) !== 0x80) return 'yaml: invalid trailing UTF-8 octet';
      value = (value << 6) + (b & 0x3f);
    }
    const minimum = [0, 0, 0x80, 0x800, 0x10000][width]!;
    if (value < minimum) return 'yaml: invalid length of a UTF-8 sequence';
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return 'yaml: invalid Unicode character';
    if (!isAllowedCharacter(value)) return 'yaml: control characters are not allowed';
    i += width;
  }
  return undefined;
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
    this.readLine();
  }

  /**
   * Consumes one line break and returns what it stands for in a scalar: CR, LF, CR LF and
   * NEL become LF; LS and PS are kept. Returns '' (consuming nothing) when not at a break.
   */
  protected readLine(): string {
    const c = this.src.charCodeAt(this.pos);
    const units = c === CR && this.src.charCodeAt(this.pos + 1) === LF ? 2 : isBreak(c) ? 1 : 0;
    if (units === 0) return '';
    this.pos += units;
    this.index += units;
    this.unread -= units;
    this.line++;
    this.column = 0;
    return c === LS || c === PS ? String.fromCharCode(c) : '\n';
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
    while (this.decodeIndex < this.textLength) {
      // The text is well-formed (see the constructor), so a surrogate is always half a pair.
      const cp = this.src.codePointAt(this.decodeIndex)!;
      const width = utf8Width(cp);
      if (this.bytesDecoded + width > this.rawEnd) break;
      if (!isAllowedCharacter(cp)) throw syntaxError(SyntaxStage.Reader, 'control characters are not allowed', null, null);
      this.bytesDecoded += width;
      this.decodeIndex += cp > 0xffff ? 2 : 1;
      this.unread++;
    }
  }
}
