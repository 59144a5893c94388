/**
 * UTF-8 helpers with Go's semantics.
 *
 * Flux's envsubst works on Go strings, which are byte sequences: lengths, offsets and
 * trims count bytes, and a slice may cut a character in half. The evaluator therefore keeps
 * every value as a "byte string": a JS string whose char codes are the bytes 0..255. Slicing,
 * `indexOf`, `startsWith` and concatenation on such strings are exactly Go's byte-level
 * string operations, and they cost no typed-array allocations.
 */

/** A JS string holding one byte (0..255) per char code. */
export type ByteString = string;

/** U+FFFD, which Go substitutes for every byte that does not start a valid UTF-8 sequence. */
export const RUNE_ERROR = 0xfffd;

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** True when every char code is below 0x80, so the UTF-16 and UTF-8 forms coincide. */
export function isAscii(text: string): boolean {
  return ASCII_ONLY.test(text);
}

const textEncoder = new TextEncoder();

/**
 * Encodes a JS string as UTF-8 bytes. A lone surrogate becomes EF BF BD (U+FFFD), as
 * TextEncoder does, because that is what a Go program receives for such text.
 */
export function utf8Encode(text: string): ByteString {
  if (isAscii(text)) return text;
  return fromByteArray(textEncoder.encode(text));
}

/** Writes the UTF-8 bytes of a rune at `at` (utf8Width(rune) of them) and returns where they end. */
function writeRune(out: Uint8Array, at: number, rune: number): number {
  if (rune < 0x80) {
    out[at] = rune;
    return at + 1;
  }
  if (rune < 0x800) {
    out[at] = 0xc0 | (rune >> 6);
    out[at + 1] = 0x80 | (rune & 0x3f);
    return at + 2;
  }
  if (rune < 0x10000) {
    out[at] = 0xe0 | (rune >> 12);
    out[at + 1] = 0x80 | ((rune >> 6) & 0x3f);
    out[at + 2] = 0x80 | (rune & 0x3f);
    return at + 3;
  }
  out[at] = 0xf0 | (rune >> 18);
  out[at + 1] = 0x80 | ((rune >> 12) & 0x3f);
  out[at + 2] = 0x80 | ((rune >> 6) & 0x3f);
  out[at + 3] = 0x80 | (rune & 0x3f);
  return at + 4;
}

/** The UTF-8 bytes of one rune, as Go's `string(rune)` writes them (surrogates become U+FFFD). */
export function encodeRune(rune: number): ByteString {
  if (rune < 0x80) return String.fromCharCode(rune);
  const bytes = new Uint8Array(4);
  const end = writeRune(bytes, 0, (rune >= 0xd800 && rune <= 0xdfff) || rune > 0x10ffff ? RUNE_ERROR : rune);
  return fromByteArray(bytes.subarray(0, end));
}

/**
 * A byte string from bytes. It is built a chunk at a time (one call cannot take a million
 * arguments), and the bytes stay in a typed array: large arrays of numbers cost the garbage
 * collector far more than their size, which made long values disproportionately slow.
 */
function fromByteArray(bytes: Uint8Array): ByteString {
  const CHUNK = 8192;
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK) out += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return out;
}

/**
 * Decodes the rune that starts at byte `i`, exactly like Go's utf8.DecodeRuneInString: an
 * invalid or truncated sequence yields U+FFFD with width 1. The result packs both numbers
 * as `rune * 8 + width` so the hot loops allocate nothing; use runeOf and widthOf.
 */
export function decodeRune(bytes: ByteString, i: number): number {
  const c0 = bytes.charCodeAt(i);
  if (c0 < 0x80) return c0 * 8 + 1;
  const invalid = RUNE_ERROR * 8 + 1;
  if (c0 < 0xc2 || c0 > 0xf4 || i + 1 >= bytes.length) return invalid;
  const c1 = bytes.charCodeAt(i + 1);
  if (c0 < 0xe0) {
    return c1 >= 0x80 && c1 <= 0xbf ? (((c0 & 0x1f) << 6) | (c1 & 0x3f)) * 8 + 2 : invalid;
  }
  if (c0 < 0xf0) {
    const lo = c0 === 0xe0 ? 0xa0 : 0x80;
    const hi = c0 === 0xed ? 0x9f : 0xbf;
    if (c1 < lo || c1 > hi || i + 2 >= bytes.length) return invalid;
    const c2 = bytes.charCodeAt(i + 2);
    if (c2 < 0x80 || c2 > 0xbf) return invalid;
    return (((c0 & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f)) * 8 + 3;
  }
  const lo = c0 === 0xf0 ? 0x90 : 0x80;
  const hi = c0 === 0xf4 ? 0x8f : 0xbf;
  if (c1 < lo || c1 > hi || i + 3 >= bytes.length) return invalid;
  const c2 = bytes.charCodeAt(i + 2);
  const c3 = bytes.charCodeAt(i + 3);
  if (c2 < 0x80 || c2 > 0xbf || c3 < 0x80 || c3 > 0xbf) return invalid;
  return (((c0 & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f)) * 8 + 4;
}

export function runeOf(packed: number): number {
  return Math.floor(packed / 8);
}

export function widthOf(packed: number): number {
  return packed % 8;
}

/**
 * Go's strings.Map with a one-rune mapping (strings.ToUpper, strings.ToLower): every rune
 * mapped, each invalid byte read as U+FFFD.
 */
export function mapRunes(bytes: ByteString, map: (rune: number) => number): ByteString {
  let size = 0;
  for (let i = 0; i < bytes.length; ) {
    const packed = decodeRune(bytes, i);
    size += utf8Width(map(runeOf(packed)));
    i += widthOf(packed);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < bytes.length; ) {
    const packed = decodeRune(bytes, i);
    at = writeRune(out, at, map(runeOf(packed)));
    i += widthOf(packed);
  }
  return fromByteArray(out);
}

/** `string(r)` of `r := []rune(s)` reversed: the runes in reverse order, each invalid byte as U+FFFD. */
export function reverseRunes(bytes: ByteString): ByteString {
  let size = 0;
  for (let i = 0; i < bytes.length; ) {
    const packed = decodeRune(bytes, i);
    size += utf8Width(runeOf(packed));
    i += widthOf(packed);
  }
  // Each rune is written where it ends up, counting from the end of the output.
  const out = new Uint8Array(size);
  let end = size;
  for (let i = 0; i < bytes.length; ) {
    const packed = decodeRune(bytes, i);
    const rune = runeOf(packed);
    end -= utf8Width(rune);
    writeRune(out, end, rune);
    i += widthOf(packed);
  }
  return fromByteArray(out);
}

/** Copies a byte string into a Uint8Array. */
export function toUint8Array(bytes: ByteString): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}

/**
 * Decodes bytes to a JS string the way Go converts them to runes: each byte that does not
 * start a valid sequence becomes its own U+FFFD (the WHATWG decoder would merge some of them).
 */
export function utf8Decode(bytes: ByteString): string {
  if (isAscii(bytes)) return bytes;
  let out = '';
  let plainFrom = 0;
  let i = 0;
  while (i < bytes.length) {
    if (bytes.charCodeAt(i) < 0x80) {
      i++;
      continue;
    }
    out += bytes.slice(plainFrom, i);
    const packed = decodeRune(bytes, i);
    out += String.fromCodePoint(runeOf(packed));
    i += widthOf(packed);
    plainFrom = i;
  }
  return out + bytes.slice(plainFrom);
}

/** The number of bytes UTF-8 needs for a rune (lone surrogates are written as U+FFFD: 3). */
export function utf8Width(rune: number): number {
  if (rune < 0x80) return 1;
  if (rune < 0x800) return 2;
  if (rune < 0x10000) return 3;
  return 4;
}

/**
 * A growing UTF-8 output buffer. Literal text goes through the platform's TextEncoder, which is
 * fast on large inputs and writes a lone surrogate as EF BF BD; evaluated values are already
 * bytes.
 */
export class ByteSink {
  private buffer: Uint8Array;
  private length = 0;
  private static readonly encoder = new TextEncoder();

  constructor(capacity: number) {
    this.buffer = new Uint8Array(Math.max(64, capacity));
  }

  writeText(text: string): void {
    let rest = text;
    while (rest.length > 0) {
      // Most text is ASCII, one byte per code unit; grow only when the encoder runs out of room.
      this.reserve(rest.length);
      const { read, written } = ByteSink.encoder.encodeInto(rest, this.buffer.subarray(this.length));
      this.length += written;
      if (read >= rest.length) return;
      rest = rest.slice(read);
      this.reserve(rest.length + 4);
    }
  }

  writeBytes(bytes: ByteString): void {
    this.reserve(bytes.length);
    const buffer = this.buffer;
    let at = this.length;
    for (let i = 0; i < bytes.length; i++) buffer[at++] = bytes.charCodeAt(i);
    this.length = at;
  }

  /** The bytes written, in an array of their own. */
  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Decodes bytes like utf8Decode, using the platform decoder when the bytes are valid UTF-8. */
export function decodeBytes(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return utf8Decode(fromByteArray(bytes));
  }
}
