/**
 * The Unicode predicates and case mappings Go's envsubst relies on.
 *
 * Go's unicode.IsLetter is the L category and unicode.IsDigit is Nd, which JS regular
 * expressions expose as \p{L} and \p{Nd}. Go's unicode.ToUpper/ToLower are the simple,
 * one-rune mappings of UnicodeData.txt, while JS toUpperCase/toLowerCase apply the full
 * mappings of SpecialCasing.txt (`ß` becomes `SS`). Mapping one code point at a time and
 * keeping the JS result only when it is a single code point gives the simple mapping, except
 * for the few characters whose full mapping expands but whose simple mapping is not the
 * identity; those are listed below.
 */

const NAME_RUNE = /^[\p{L}\p{Nd}_]$/u;

/** A rune that may appear in a variable name: unicode.IsLetter || unicode.IsDigit || '_'. */
export function isNameRune(rune: number): boolean {
  if (rune < 0x80) {
    return (rune >= 0x61 && rune <= 0x7a) || (rune >= 0x41 && rune <= 0x5a) || (rune >= 0x30 && rune <= 0x39) || rune === 0x5f;
  }
  return NAME_RUNE.test(String.fromCodePoint(rune));
}

/**
 * Simple uppercase mappings whose full (JS) mapping is several code points: Greek letters with
 * ypogegrammeni map to their prosgegrammeni forms (U+1F80 → U+1F88, U+1FB3 → U+1FBC).
 */
function expandingUpper(rune: number): number {
  if (rune >= 0x1f80 && rune <= 0x1faf && (rune & 0x0f) < 0x08) return rune + 8;
  if (rune === 0x1fb3) return 0x1fbc;
  if (rune === 0x1fc3) return 0x1fcc;
  if (rune === 0x1ff3) return 0x1ffc;
  return rune;
}

/** The one lowercase mapping that expands in JS: U+0130 `İ` is simply `i`. */
function expandingLower(rune: number): number {
  return rune === 0x0130 ? 0x69 : rune;
}

const upperCache = new Map<number, number>();
const lowerCache = new Map<number, number>();

/** Go's unicode.ToUpper. */
export function toUpperRune(rune: number): number {
  if (rune < 0x80) return rune >= 0x61 && rune <= 0x7a ? rune - 0x20 : rune;
  let mapped = upperCache.get(rune);
  if (mapped === undefined) {
    mapped = single(String.fromCodePoint(rune).toUpperCase()) ?? expandingUpper(rune);
    upperCache.set(rune, mapped);
  }
  return mapped;
}

/** Go's unicode.ToLower. */
export function toLowerRune(rune: number): number {
  if (rune < 0x80) return rune >= 0x41 && rune <= 0x5a ? rune + 0x20 : rune;
  let mapped = lowerCache.get(rune);
  if (mapped === undefined) {
    mapped = single(String.fromCodePoint(rune).toLowerCase()) ?? expandingLower(rune);
    lowerCache.set(rune, mapped);
  }
  return mapped;
}

/** The code point of a one-code-point string, else undefined. */
function single(text: string): number | undefined {
  const first = text.codePointAt(0);
  if (first === undefined) return undefined;
  return text.length === (first > 0xffff ? 2 : 1) ? first : undefined;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * Go's strconv.Quote (`%q`) for the names in strict-mode errors. Names are letters, digits and
 * `_`, so in practice this only adds the quotes; the escapes keep it right for any text.
 */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) {
    const rune = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += '\\' + char;
    else if (rune >= 0xd800 && rune <= 0xdfff) out += '\ufffd'; // Go sees EF BF BD: a printable U+FFFD.
    else if (PRINTABLE.test(char)) out += char;
    else if (rune === 0x07) out += '\\a';
    else if (rune === 0x08) out += '\\b';
    else if (rune === 0x0c) out += '\\f';
    else if (rune === 0x0a) out += '\\n';
    else if (rune === 0x0d) out += '\\r';
    else if (rune === 0x09) out += '\\t';
    else if (rune === 0x0b) out += '\\v';
    else if (rune < 0x80) out += '\\x' + rune.toString(16).padStart(2, '0');
    else if (rune < 0x10000) out += '\\u' + rune.toString(16).padStart(4, '0');
    else out += '\\U' + rune.toString(16).padStart(8, '0');
  }
  return out + '"';
}
