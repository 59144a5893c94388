/**
 * UTF-8 as Go sees it. Go strings are bytes, which may not be valid UTF-8 (envsubst can cut a
 * character in half); JavaScript strings are UTF-16, where the nearest thing to invalid UTF-8
 * is a lone surrogate. These helpers translate between the two views.
 */

/**
 * Go's `utf8.DecodeRune`: the rune at `i` and its width in bytes, or undefined where Go
 * returns RuneError with width 1 (a bad lead byte, a bad or missing continuation byte, an
 * overlong form, a surrogate, or a value past U+10FFFF).
 */
export function decodeRune(bytes: ArrayLike<number>, i: number): { rune: number; width: number } | undefined {
  const b0 = bytes[i]!;
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
    const b = bytes[i + k]!;
    if ((b & 0xc0) !== 0x80) return undefined;
    rune = (rune << 6) | (b & 0x3f);
  }
  if (rune < min || rune > 0x10ffff || (rune >= 0xd800 && rune <= 0xdfff)) return undefined;
  return { rune, width };
}

/** Go's `utf8.Valid`. */
export function isValidUtf8(bytes: ArrayLike<number>): boolean {
  for (let i = 0; i < bytes.length; ) {
    const decoded = decodeRune(bytes, i);
    if (!decoded) return false;
    i += decoded.width;
  }
  return true;
}

/**
 * Decodes bytes the way Go iterates a string: each byte that does not begin a valid sequence
 * becomes one U+FFFD. (TextDecoder replaces maximal subparts instead, which differs for
 * truncated sequences.) This is what `json.Marshal` prints for such bytes.
 */
export function decodeUtf8Go(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const decoded = decodeRune(bytes, i);
    out += decoded ? String.fromCodePoint(decoded.rune) : '\ufffd';
    i += decoded ? decoded.width : 1;
  }
  return out;
}

/** How many UTF-8 bytes encode `cp`; a surrogate takes the 3 bytes of its WTF-8 form. */
export function utf8Width(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp > 0xffff ? 4 : 3;
}

/** The length of `s` in UTF-8 bytes, a lone surrogate counted as in `utf8Width`. */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i)!;
    bytes += utf8Width(cp);
    if (cp > 0xffff) i++;
  }
  return bytes;
}

/** The index of the first lone surrogate at or after `from`, or -1: where `s` stops being valid UTF-8. */
function loneSurrogateFrom(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** Whether `s` has a lone surrogate, i.e. would not be valid UTF-8. */
export function hasLoneSurrogate(s: string): boolean {
  return loneSurrogateFrom(s, 0) >= 0;
}

/**
 * Replaces lone surrogates with U+FFFD. Encoding the text for Go (as TextEncoder does) turns
 * each into U+FFFD, so that is what Go code reading the bytes sees.
 */
export function toWellFormed(s: string): string {
  let lone = loneSurrogateFrom(s, 0);
  if (lone < 0) return s;
  let out = '';
  let from = 0;
  while (lone >= 0) {
    out += s.slice(from, lone) + '\ufffd';
    from = lone + 1;
    lone = loneSurrogateFrom(s, from);
  }
  return out + s.slice(from);
}
