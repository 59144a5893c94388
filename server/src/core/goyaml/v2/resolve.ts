/**
 * YAML 1.1 typing of scalars as go-yaml v2's `resolve` does it (resolve.go).
 *
 * The first character picks the candidates: a sign or digit may be a number, one of
 * `yYnNtTfFoO~` may be a bool or null, `.` may be a float, and anything else is a string
 * without further checks. Numbers drop every `_` first and then go through Go's strconv
 * (`ParseInt` with base prefixes, `ParseUint` for values past int64, then a float pattern).
 * Base-60 numbers are not recognised at all, and a timestamp resolves to its original text:
 * decoding into interface{} keeps it as a string.
 */

import { decodeError } from './errors';
import { parseGoDecimalFloat, parseGoInt64, parseGoUint64 } from './go-number';
import { isYamlTimestamp } from './go-time';
import { GoFloat, GoInt, type GoValue } from './value';

const PREFIX = 'tag:yaml.org,2002:';
export const TAG_STR = PREFIX + 'str';
export const TAG_BOOL = PREFIX + 'bool';
export const TAG_INT = PREFIX + 'int';
export const TAG_FLOAT = PREFIX + 'float';
export const TAG_NULL = PREFIX + 'null';
export const TAG_TIMESTAMP = PREFIX + 'timestamp';
export const TAG_BINARY = PREFIX + 'binary';
export const TAG_MERGE = PREFIX + 'merge';

/** `!!name` for the standard tags, as go-yaml prints them in errors. */
export function shortTag(tag: string): string {
  return tag.startsWith(PREFIX) ? '!!' + tag.slice(PREFIX.length) : tag;
}

export interface Resolved {
  tag: string;
  /** The typed value; for timestamps the original text. */
  value: GoValue;
}

const WORDS = new Map<string, Resolved>();
for (const word of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']) {
  WORDS.set(word, { tag: TAG_BOOL, value: true });
}
for (const word of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']) {
  WORDS.set(word, { tag: TAG_BOOL, value: false });
}
for (const word of ['', '~', 'null', 'Null', 'NULL']) WORDS.set(word, { tag: TAG_NULL, value: null });
for (const word of ['.nan', '.NaN', '.NAN']) WORDS.set(word, { tag: TAG_FLOAT, value: new GoFloat(NaN) });
for (const word of ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']) {
  WORDS.set(word, { tag: TAG_FLOAT, value: new GoFloat(Infinity) });
}
for (const word of ['-.inf', '-.Inf', '-.INF']) WORDS.set(word, { tag: TAG_FLOAT, value: new GoFloat(-Infinity) });

const enum Hint {
  None,
  Sign,
  Digit,
  Word,
  Dot,
}

function hintOf(text: string): Hint {
  if (text.length === 0) return Hint.Word;
  const c = text.charCodeAt(0);
  if (c === 0x2b || c === 0x2d) return Hint.Sign;
  if (c >= 0x30 && c <= 0x39) return Hint.Digit;
  if (c === 0x2e) return Hint.Dot;
  switch (text[0]) {
    case 'y':
    case 'Y':
    case 'n':
    case 'N':
    case 't':
    case 'T':
    case 'f':
    case 'F':
    case 'o':
    case 'O':
    case '~':
      return Hint.Word;
  }
  return Hint.None;
}

/** go-yaml's float pattern (v2 and v3), applied after underscores are removed. */
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** The implicit typing without the tag checks; `tag` only changes which candidates are tried. */
function resolveText(tag: string, text: string): Resolved {
  const hint = hintOf(text);
  if (hint === Hint.None || tag === TAG_STR || tag === TAG_BINARY) return { tag: TAG_STR, value: text };

  const word = WORDS.get(text);
  if (word !== undefined) return word;

  if (hint === Hint.Dot) {
    const f = parseGoDecimalFloat(text);
    if (f !== null) return { tag: TAG_FLOAT, value: new GoFloat(f) };
  } else if (hint === Hint.Sign || hint === Hint.Digit) {
    if ((tag === '' || tag === TAG_TIMESTAMP) && isYamlTimestamp(text)) return { tag: TAG_TIMESTAMP, value: text };
    const number = resolveGoYamlNumber(text.includes('_') ? text.replace(/_/g, '') : text, false);
    if (number !== null) return { tag: number instanceof GoInt ? TAG_INT : TAG_FLOAT, value: number };
  }
  return { tag: TAG_STR, value: text };
}

/**
 * The number branch of go-yaml's resolve, shared by v2 and v3, on the text with its
 * underscores removed: `ParseInt`, then `ParseUint` (both base 0), then the float pattern
 * through `ParseFloat`, then go-yaml's own retries after a `0b` prefix. Those retries only add
 * a signed digit string after the prefix (`0b-1`); v3 retries after `0o` the same way, since
 * YAML 1.2 spells octal so, which is what `yaml12Octal` asks for.
 */
export function resolveGoYamlNumber(plain: string, yaml12Octal: boolean): GoInt | GoFloat | null {
  const signed = parseGoInt64(plain);
  if (signed !== null) return new GoInt(signed);
  const unsigned = parseGoUint64(plain);
  if (unsigned !== null) return new GoInt(unsigned, true);
  if (YAML_FLOAT.test(plain)) {
    const f = parseGoDecimalFloat(plain);
    if (f !== null) return new GoFloat(f);
  }
  return prefixedInt(plain, '0b', 2) ?? (yaml12Octal ? prefixedInt(plain, '0o', 8) : null);
}

function prefixedInt(plain: string, prefix: string, base: number): GoInt | null {
  if (plain.startsWith(prefix)) {
    const digits = plain.slice(prefix.length);
    const signed = parseGoInt64(digits, base);
    if (signed !== null) return new GoInt(signed);
    const unsigned = parseGoUint64(digits, base);
    return unsigned === null ? null : new GoInt(unsigned, true);
  }
  if (plain.startsWith('-' + prefix)) {
    const signed = parseGoInt64('-' + plain.slice(prefix.length + 1), base);
    return signed === null ? null : new GoInt(signed);
  }
  return null;
}

/** Tags `resolve` handles; any other tag leaves the text as a string. */
function isResolvableTag(tag: string): boolean {
  return (
    tag === '' ||
    tag === TAG_STR ||
    tag === TAG_BOOL ||
    tag === TAG_INT ||
    tag === TAG_FLOAT ||
    tag === TAG_NULL ||
    tag === TAG_TIMESTAMP
  );
}

/**
 * go-yaml v2's `resolve(tag, text)`. With an explicit tag the implicit result must agree
 * with it (an int may become a float for `!!float`); otherwise decoding fails with
 * "cannot decode !!str `x` as a !!null".
 */
export function resolveTagged(tag: string, text: string): Resolved {
  if (!isResolvableTag(tag)) return { tag, value: text };
  const resolved = resolveText(tag, text);
  if (tag === '' || tag === resolved.tag || tag === TAG_STR) return resolved;
  if (tag === TAG_FLOAT && resolved.tag === TAG_INT) {
    const v = resolved.value as GoInt;
    if (!v.unsigned) return { tag: TAG_FLOAT, value: new GoFloat(Number(v.value)) };
  }
  throw decodeError(`cannot decode ${shortTag(resolved.tag)} \`${text}\` as a ${shortTag(tag)}`);
}

/**
 * The value of an untagged plain scalar decoded into interface{}: bool, null, int (int64 or
 * uint64), float, or the text itself (also for a timestamp).
 */
export function resolvePlainV2(text: string): GoValue {
  return resolveText('', text).value;
}

/**
 * The tag go-yaml v2's `resolve("", text)` gives an untagged plain scalar (a timestamp keeps
 * `!!timestamp` here). The encoder quotes a string whose tag would not be `!!str`.
 */
export function implicitTagV2(text: string): string {
  return resolveText('', text).tag;
}
