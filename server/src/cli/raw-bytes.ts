/**
 * Bytes that are not UTF-8, carried through `render-lens envsubst` unchanged, as `flux envsubst`
 * (a Go program working on byte strings) passes them. The engine takes text, so each byte that
 * does not start a valid UTF-8 sequence is held as a private-use code point while it runs
 * (Python's "surrogateescape", moved to plane 16 because a lone surrogate cannot be encoded)
 * and written back as the byte afterwards. An input that already holds those code points is
 * decoded as before.
 */

/** U+10FF80..U+10FFFF stand for the bytes 0x80..0xFF. */
const escapeBase = 0x10ff00;

/** The input as text, with every invalid byte escaped; undefined when nothing needs escaping. */
export function decodeKeepingBytes(bytes: Uint8Array): string | undefined {
  let out = '';
  let escaped = false;
  for (let i = 0; i < bytes.length; ) {
    const width = validSequence(bytes, i);
    if (width === 0) {
      out += String.fromCodePoint(escapeBase + bytes[i]);
      escaped = true;
      i++;
    } else {
      out += Buffer.from(bytes.subarray(i, i + width)).toString('utf8');
      i += width;
    }
  }
  if (!escaped) return undefined;
  // Text that itself holds the escape code points cannot be told apart from escaped bytes.
  return /[\u{10ff80}-\u{10ffff}]/u.test(Buffer.from(bytes).toString('utf8')) ? undefined : out;
}

/** The output with each escape code point (UTF-8 F4 8F BE|BF xx) written back as its byte. */
export function restoreBytes(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0xf4 && bytes[i + 1] === 0x8f && (bytes[i + 2] === 0xbe || bytes[i + 2] === 0xbf) && i + 3 < bytes.length) {
      out.push((((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f)) - (escapeBase & 0xfff));
      i += 3;
    } else out.push(bytes[i]);
  }
  return Uint8Array.from(out);
}

/** The length of the valid UTF-8 sequence at `i` (Go's rules: shortest form, no surrogates, ≤ U+10FFFF), or 0. */
function validSequence(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  if (b < 0x80) return 1;
  const cont = (k: number, low = 0x80, high = 0xbf) => i + k < bytes.length && bytes[i + k] >= low && bytes[i + k] <= high;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const [low, high] = b === 0xe0 ? [0xa0, 0xbf] : b === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, low, high) && cont(2) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const [low, high] = b === 0xf0 ? [0x90, 0xbf] : b === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, low, high) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}
