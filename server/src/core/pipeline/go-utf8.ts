/**
 * Go strings are bytes, and envsubst output can stop being UTF-8 when a substring cuts a
 * character in half. sigs.k8s.io/yaml then hands those bytes to go-yaml, whose reader
 * rejects them with its own error texts before any parsing happens.
 */

/** True when every byte belongs to a valid UTF-8 sequence. */
export function isValidUtf8(bytes: ArrayLike<number>): boolean {
  for (let i = 0; i < bytes.length; ) {
    const decoded = decodeRune(bytes, i);
    if (!decoded) return false;
    i += decoded.width;
  }
  return true;
}

/**
 * Go's utf8.DecodeRune: the rune at `i` and its width, or undefined for an invalid sequence
 * (bad lead byte, bad continuation, overlong form, surrogate, or beyond U+10FFFF).
 */
function decodeRune(bytes: ArrayLike<number>, i: number): { rune: number; width: number } | undefined {
  const b0 = bytes[i];
  if (b0 < 0x80) return { rune: b0, width: 1 };
  let width: number;
  let rune: number;
  let min: number;
  if (b0 >= 0xc2 && b0 <= 0xdf) [width, rune, min] = [2, b0 & 0x1f, 0x80];
  else if (b0 >= 0xe0 && b0 <= 0xef) [width, rune, min] = [3, b0 & 0x0f, 0x800];
  else if (b0 >= 0xf0 && b0 <= 0xf4) [width, rune, min] = [4, b0 & 0x07, 0x10000];
  else return undefined;
  if (i + width > bytes.length) return undefined;
  for (let k = 1; k < width; k++) {
    const b = bytes[i + k];
    if ((b & 0xc0) !== 0x80) return undefined;
    rune = (rune << 6) | (b & 0x3f);
  }
  if (rune < min || rune > 0x10ffff || (rune >= 0xd800 && rune <= 0xdfff)) return undefined;
  return { rune, width };
}

/**
 * The error go-yaml's reader (v2 and v3 share it) raises for the first byte sequence it
 * cannot read as UTF-8, or undefined when the bytes are valid. The reader checks control
 * characters in the same pass, so one that comes first is reported instead.
 */
export function goYamlReaderError(bytes: ArrayLike<number>): string | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i];
    let width: number;
    if ((b0 & 0x80) === 0) width = 1;
    else if ((b0 & 0xe0) === 0xc0) width = 2;
    else if ((b0 & 0xf0) === 0xe0) width = 3;
    else if ((b0 & 0xf8) === 0xf0) width = 4;
    else return 'yaml: invalid leading UTF-8 octet';
    if (i + width > bytes.length) return 'yaml: incomplete UTF-8 octet sequence';
    let value = width === 1 ? b0 : width === 2 ? b0 & 0x1f : width === 3 ? b0 & 0x0f : b0 & 0x07;
    for (let k = 1; k < width; k++) {
      const b = bytes[i + k];
      if ((b & 0xc0) !== 0x80) return 'yaml: invalid trailing UTF-8 octet';
      value = (value << 6) + (b & 0x3f);
    }
    const minimum = [0, 0, 0x80, 0x800, 0x10000][width];
    if (value < minimum) return 'yaml: invalid length of a UTF-8 sequence';
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return 'yaml: invalid Unicode character';
    if (!isYamlPrintable(value)) return 'yaml: control characters are not allowed';
    i += width;
  }
  return undefined;
}

/** The characters go-yaml's reader accepts: tab, line breaks and the printable ranges. */
function isYamlPrintable(c: number): boolean {
  return (
    c === 0x09 ||
    c === 0x0a ||
    c === 0x0d ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}
