import { GoFloat, GoInt, GoMap, type GoValue } from './value';

/**
 * go-yaml v2 sorts map keys with its keyList.Less before writing a mapping. It is not a plain
 * string sort: numbers and bools come first, ordered by value; strings are compared rune by
 * rune, where letters sort after non-letters and runs of digits compare as numbers, so `a2`
 * comes before `a10`. Keys of different Go kinds are ordered by reflect.Kind.
 *
 * go-yaml v3 kept the same sorter.go with one change to the string rule (see `runesLess`);
 * the controller path needs v3's order only for string keys (`sortedStringKeysV3`).
 */

/** reflect.Kind numbers of the Go types a decoded map key can have. */
const enum Kind {
  Bool = 1,
  Int = 2,
  Uint64 = 11,
  Float64 = 14,
  /** A nil interface value stays of kind Interface after go-yaml unwraps the key. */
  Interface = 20,
  Map = 21,
  Slice = 23,
  String = 24,
}

interface SortKey {
  readonly kind: Kind;
  /** keyFloat: the key as a float64 when it is a number or a bool. */
  readonly float: number | undefined;
  readonly value: GoValue;
  /** Code points, for string keys. */
  readonly runes: readonly number[] | undefined;
}

/** The map's entries in the order go-yaml v2 writes them. */
export function sortedEntries(map: GoMap): Array<[GoValue, GoValue]> {
  const entries = map.entries;
  if (entries.length < 2) return entries.slice();
  const keyed = entries.map((entry) => ({ key: sortKey(entry[0]), entry }));
  // Go's map order is random, so any consistent sort reproduces its output; Array.sort is stable.
  keyed.sort((a, b) => (keyLess(a.key, b.key) ? -1 : keyLess(b.key, a.key) ? 1 : 0));
  return keyed.map((k) => k.entry);
}

function sortKey(value: GoValue): SortKey {
  if (typeof value === 'string') return { kind: Kind.String, float: undefined, value, runes: codePoints(value) };
  if (typeof value === 'boolean') return { kind: Kind.Bool, float: value ? 1 : 0, value, runes: undefined };
  if (value instanceof GoInt) {
    return { kind: value.unsigned ? Kind.Uint64 : Kind.Int, float: Number(value.value), value, runes: undefined };
  }
  if (value instanceof GoFloat) return { kind: Kind.Float64, float: value.value, value, runes: undefined };
  if (value === null) return { kind: Kind.Interface, float: undefined, value, runes: undefined };
  return { kind: value instanceof GoMap ? Kind.Map : Kind.Slice, float: undefined, value, runes: undefined };
}

function keyLess(a: SortKey, b: SortKey): boolean {
  if (a.float !== undefined && b.float !== undefined) {
    // Written as Go's `af != bf`, so NaN keys compare as unordered the same way.
    if (!(a.float === b.float)) return a.float < b.float;
    if (a.kind !== b.kind) return a.kind < b.kind;
    return numLess(a.value, b.value);
  }
  if (a.kind !== Kind.String || b.kind !== Kind.String) return a.kind < b.kind;
  return runesLess(a.runes as readonly number[], b.runes as readonly number[], false);
}

/** Exact comparison of two numbers of the same kind whose float64 values tie. */
function numLess(a: GoValue, b: GoValue): boolean {
  if (a instanceof GoInt && b instanceof GoInt) return a.value < b.value;
  if (a instanceof GoFloat && b instanceof GoFloat) return a.value < b.value;
  return a === false && b === true;
}

/** The keys of a Go map with string keys in the order go-yaml v3 writes them. */
export function sortedStringKeysV3(keys: readonly string[]): string[] {
  const keyed = keys.map((key) => ({ key, runes: codePoints(key) }));
  keyed.sort((a, b) => (runesLess(a.runes, b.runes, true) ? -1 : runesLess(b.runes, a.runes, true) ? 1 : 0));
  return keyed.map((k) => k.key);
}

/**
 * keyList.Less for two strings. Where one rune is a letter and the other is not, v2 always
 * puts the non-letter first; v3 (`v3Rule`) puts the letter first when the runes before were
 * digits, so that `1a` sorts before `1_`.
 */
function runesLess(ar: readonly number[], br: readonly number[], v3Rule: boolean): boolean {
  const n = Math.min(ar.length, br.length);
  let afterDigit = false;
  for (let i = 0; i < n; i++) {
    if (ar[i] === br[i]) {
      if (v3Rule) afterDigit = isDigit(ar[i]);
      continue;
    }
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return v3Rule && afterDigit ? al : bl;
    // Neither is a letter: compare the digit runs starting here as numbers. A zero inside a
    // number (some earlier digit of the shared prefix is not zero) must not be treated as a
    // leading zero, so Go seeds both values with 1 in that case.
    let seed = 0;
    if (ar[i] === 0x30 || br[i] === 0x30) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== 0x30) {
          seed = 1;
          break;
        }
      }
    }
    const [ai, an] = digitRun(ar, i, seed);
    const [bi, bn] = digitRun(br, i, seed);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

/**
 * The end of the digit run at `start` and its value, accumulated like Go's int64 `an*10 + d`
 * (wrapping on overflow, and `d` being the rune minus '0' even for non-ASCII digits). Values are
 * bigints so the comparison stays exact; runs are short, so this costs little.
 */
function digitRun(runes: readonly number[], start: number, seed: number): [number, bigint] {
  let value = BigInt(seed);
  let i = start;
  let small = seed;
  let exact = true;
  for (; i < runes.length && isDigit(runes[i]); i++) {
    if (exact && small < 1e14 && runes[i] <= 0x39) {
      small = small * 10 + (runes[i] - 0x30);
    } else {
      if (exact) value = BigInt(small);
      exact = false;
      value = BigInt.asIntN(64, value * 10n + BigInt(runes[i] - 0x30));
    }
  }
  return [i, exact ? BigInt(small) : value];
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/** Go's unicode.IsLetter. */
function isLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return LETTER.test(String.fromCodePoint(cp));
}

/** Go's unicode.IsDigit. */
function isDigit(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39;
  return DIGIT.test(String.fromCodePoint(cp));
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i) as number;
    out.push(c);
    if (c > 0xffff) i++;
  }
  return out;
}
