/**
 * What each operator does to a value (flux.md §3.4), on UTF-8 bytes as Go does it.
 * Values and arguments are byte strings (see bytes.ts).
 */
import type { Operator } from './ast';
import { type ByteString, decodeRune, encodeRune, isAscii, mapRunes, reverseRunes, runeOf, widthOf } from './bytes';
import { compileGlob } from './glob';
import { BAD_PATTERN, MATCH, matchPrefixes } from './glob-prefixes';
import { GoPanic } from './messages';
import { toLowerRune, toUpperRune } from './unicode';

/** Applies `operator` to the variable's value with the evaluated arguments. */
export function applyOperator(operator: Operator, value: ByteString, args: readonly ByteString[]): ByteString {
  switch (operator) {
    case 'value':
      return value;
    case 'length':
      return String(value.length);
    case ':-':
    case ':=':
    case '=':
    case ':?':
    case ':+':
      // All five are the same function: the value unless it is empty, else the word.
      return value === '' && args.length > 0 ? concatenate(args) : value;
    case ':':
      return substring(value, args);
    case '^':
      return mapFirstRune(value, toUpperRune);
    case '^^':
      // On ASCII, JS changes exactly a–z as Go does, and faster than rune by rune.
      return isAscii(value) ? value.toUpperCase() : mapRunes(value, toUpperRune);
    case ',':
      return mapFirstRune(value, toLowerRune);
    case ',,':
      return isAscii(value) ? value.toLowerCase() : mapRunes(value, toLowerRune);
    case '^,':
    case ',^':
      // An unknown operator falls back to the default function with no word: the value itself.
      return value;
    case '#':
      return trimShortest(value, args[0] ?? '');
    case '##':
      return trimLongest(value, args[0] ?? '');
    // `%` and `%%` reverse the value and the pattern by rune, trim a prefix and reverse back.
    // Converting to runes turns every invalid byte into U+FFFD, even when nothing is trimmed.
    case '%':
      return reverseRunes(trimShortest(reverseRunes(value), reverseRunes(args[0] ?? '')));
    case '%%':
      return reverseRunes(trimLongest(reverseRunes(value), reverseRunes(args[0] ?? '')));
    case '/':
      return args.length === 0 ? value : replace(value, args[0] ?? '', args[1] ?? '', 1);
    case '//':
      return args.length === 0 ? value : replace(value, args[0] ?? '', args[1] ?? '', -1);
    case '/#':
      return replacePrefix(value, args);
    case '/%':
      return replaceSuffix(value, args);
  }
}

/**
 * Joins the parts of a default word with `+`, which V8 does in constant time by linking the
 * two strings (join copies them): a default nested n deep in defaults then costs O(n) in all,
 * not O(n²) for copying its growing word once per level.
 */
function concatenate(parts: readonly ByteString[]): ByteString {
  let word = '';
  for (const part of parts) word += part;
  return word;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL = /^[+-]?[0-9]+$/;

/** Go's strconv.Atoi on a 64-bit platform: an optional sign and ASCII digits, within int64. */
function atoi(text: ByteString): bigint | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/**
 * `${v:offset}` and `${v:offset:length}` on bytes. An argument that is not a decimal integer
 * leaves the value unchanged. A negative length that ends the slice before its start makes
 * Go panic; the message follows Go's bounds check for `s[low:high]`, which tests `high`
 * first (a negative high prints as `[:high]`) and then `low <= high` (`[low:high]`).
 */
function substring(value: ByteString, args: readonly ByteString[]): ByteString {
  const size = BigInt(value.length);
  let offset = atoi(args[0] ?? '');
  if (offset === undefined) return value;
  if (offset < 0n) {
    offset = size + offset;
    if (offset < 0n) offset = 0n;
  }
  if (args.length === 1) return offset < size ? value.slice(Number(offset)) : '';
  const length = atoi(args[1] ?? '');
  if (length === undefined) return value;
  // Go adds two ints, which wraps around on overflow.
  const high = BigInt.asIntN(64, offset + length);
  if (high >= size) return offset < size ? value.slice(Number(offset)) : '';
  if (high < 0n) throw new GoPanic(`runtime error: slice bounds out of range [:${high}]`);
  if (offset > high) throw new GoPanic(`runtime error: slice bounds out of range [${offset}:${high}]`);
  return value.slice(Number(offset), Number(high));
}

/** unicode.ToUpper/ToLower of the first rune; an invalid first byte becomes U+FFFD. */
function mapFirstRune(value: ByteString, map: (rune: number) => number): ByteString {
  if (value === '') return value;
  const packed = decodeRune(value, 0);
  return encodeRune(map(runeOf(packed))) + value.slice(widthOf(packed));
}

/**
 * `#`: Go tries every non-empty prefix from the longest to the shortest and removes the last
 * (shortest) that matches. A bad pattern at any length leaves the value unchanged, even if a
 * longer prefix already matched. The answers for all prefixes are worked out together, in
 * linear time (glob-prefixes.ts), and read in Go's order.
 */
function trimShortest(value: ByteString, pattern: ByteString): ByteString {
  const outcomes = matchPrefixes(compileGlob(pattern), value);
  let shortest = 0;
  for (let length = value.length; length > 0; length--) {
    if (outcomes[length] === BAD_PATTERN) return value;
    if (outcomes[length] === MATCH) shortest = length;
  }
  return value.slice(shortest);
}

/** `##`: removes the longest non-empty prefix that matches. */
function trimLongest(value: ByteString, pattern: ByteString): ByteString {
  const outcomes = matchPrefixes(compileGlob(pattern), value);
  for (let length = value.length; length > 0; length--) {
    if (outcomes[length] === BAD_PATTERN) return value;
    if (outcomes[length] === MATCH) return value.slice(length);
  }
  return value;
}

/**
 * Go's strings.Replace with a literal pattern: the first `limit` matches (all for -1). An
 * empty pattern matches before every rune and at the end.
 */
function replace(value: ByteString, pattern: ByteString, replacement: ByteString, limit: number): ByteString {
  if (pattern === replacement) return value;
  const matches = pattern === '' ? runeCount(value) + 1 : countOccurrences(value, pattern);
  if (matches === 0) return value;
  const count = limit < 0 || matches < limit ? matches : limit;
  let out = '';
  let start = 0;
  for (let i = 0; i < count; i++) {
    let at = start;
    if (pattern === '') {
      if (i > 0) at += widthOf(decodeRune(value, start));
    } else {
      at = value.indexOf(pattern, start);
    }
    out += value.slice(start, at) + replacement;
    start = at + pattern.length;
  }
  return out + value.slice(start);
}

/** `/#`: needs exactly two arguments, so an empty replacement does nothing. */
function replacePrefix(value: ByteString, args: readonly ByteString[]): ByteString {
  const [pattern, replacement] = args;
  if (args.length !== 2 || pattern === undefined || replacement === undefined) return value;
  return value.startsWith(pattern) ? replace(value, pattern, replacement, 1) : value;
}

/** `/%`: needs exactly two arguments, so an empty replacement does nothing. */
function replaceSuffix(value: ByteString, args: readonly ByteString[]): ByteString {
  const [pattern, replacement] = args;
  if (args.length !== 2 || pattern === undefined || replacement === undefined) return value;
  return value.endsWith(pattern) ? value.slice(0, value.length - pattern.length) + replacement : value;
}

function runeCount(bytes: ByteString): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i += widthOf(decodeRune(bytes, i))) count++;
  return count;
}

function countOccurrences(value: ByteString, pattern: ByteString): number {
  let count = 0;
  for (let at = value.indexOf(pattern); at >= 0; at = value.indexOf(pattern, at + pattern.length)) count++;
  return count;
}
