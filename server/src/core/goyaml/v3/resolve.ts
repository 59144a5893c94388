/**
 * go-yaml v3's `resolve()`: the type a scalar gets from its text and tag when it is decoded
 * into `interface{}`. This is the typing kustomize's kyaml applies to the manifest as written,
 * before Flux re-serializes it with go-yaml v2. It is "YAML 1.2-ish": only true/false are
 * bools (`yes`, `on` stay strings), but integers still go through Go's ParseInt with base 0,
 * so `0755` is octal 493, and unquoted dates become timestamps.
 */
import { parseGoDecimalFloat } from '../v2/go-number';
import { goYamlV3Timestamp } from '../v2/go-time';
import { resolveGoYamlNumber } from '../v2/resolve';
import { GoFloat, GoInt, type GoValue } from '../v2/value';

export const STR_TAG = '!!str';
export const NULL_TAG = '!!null';
export const BOOL_TAG = '!!bool';
export const INT_TAG = '!!int';
export const FLOAT_TAG = '!!float';
export const TIMESTAMP_TAG = '!!timestamp';
export const BINARY_TAG = '!!binary';
export const MERGE_TAG = '!!merge';

/**
 * What resolve() returns. A timestamp is carried as the RFC 3339 text json.Marshal writes for
 * it, since that is the only form in which it ever leaves the decoder.
 */
export interface Resolved {
  tag: string;
  value: GoValue;
}

/** The exact failure go-yaml raises (through failf) when a tag and the text disagree. */
export class ResolveError extends Error {}

const LITERALS = new Map<string, Resolved>([
  ...['true', 'True', 'TRUE'].map((s): [string, Resolved] => [s, { tag: BOOL_TAG, value: true }]),
  ...['false', 'False', 'FALSE'].map((s): [string, Resolved] => [s, { tag: BOOL_TAG, value: false }]),
  ...['', '~', 'null', 'Null', 'NULL'].map((s): [string, Resolved] => [s, { tag: NULL_TAG, value: null }]),
  ...['.nan', '.NaN', '.NAN'].map((s): [string, Resolved] => [s, { tag: FLOAT_TAG, value: new GoFloat(NaN) }]),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s): [string, Resolved] => [s, { tag: FLOAT_TAG, value: new GoFloat(Infinity) }]),
  ...['-.inf', '-.Inf', '-.INF'].map((s): [string, Resolved] => [s, { tag: FLOAT_TAG, value: new GoFloat(-Infinity) }]),
]);

/** go-yaml's resolveTable: the first byte decides whether resolve() looks any further. */
function hintOf(text: string): string | undefined {
  if (text === '') return 'N';
  const c = text[0];
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
}

const RESOLVABLE = new Set(['', STR_TAG, BOOL_TAG, INT_TAG, FLOAT_TAG, NULL_TAG, TIMESTAMP_TAG]);

/**
 * go-yaml v3 resolve(tag, text). `tag` is the short tag ('' for none). Tags it cannot resolve
 * (custom ones, !!binary, !!merge) come back unchanged with the text as a string.
 */
export function resolveV3(tag: string, text: string): Resolved {
  if (!RESOLVABLE.has(tag)) return { tag, value: text };
  const result = resolveUnchecked(tag, text);
  return checkAgainstTag(tag, text, result);
}

function resolveUnchecked(tag: string, text: string): Resolved {
  const hint = hintOf(text);
  if (hint === undefined || tag === STR_TAG) return { tag: STR_TAG, value: text };
  const literal = LITERALS.get(text);
  if (literal) return literal;
  if (hint === '.') {
    const f = parseGoDecimalFloat(text);
    if (f !== null) return { tag: FLOAT_TAG, value: new GoFloat(f) };
  }
  if (hint === 'D' || hint === 'S') {
    // Only an unquoted value (or an explicit !!timestamp) is tried as a timestamp.
    if (tag === '' || tag === TIMESTAMP_TAG) {
      const timestamp = goYamlV3Timestamp(text);
      if (timestamp !== undefined) return { tag: TIMESTAMP_TAG, value: timestamp };
    }
    // Numbers as in v2, plus YAML 1.2's `0o` octal prefix.
    const number = resolveGoYamlNumber(text.replace(/_/g, ''), true);
    if (number !== null) return { tag: number instanceof GoInt ? INT_TAG : FLOAT_TAG, value: number };
  }
  return { tag: STR_TAG, value: text };
}

/**
 * resolve()'s deferred check: an explicit tag must agree with what the text resolves to,
 * except that an integer may be read as a float.
 */
function checkAgainstTag(tag: string, text: string, result: Resolved): Resolved {
  if (tag === '' || tag === result.tag || tag === STR_TAG || tag === BINARY_TAG) return result;
  if (tag === FLOAT_TAG && result.tag === INT_TAG && result.value instanceof GoInt && !result.value.unsigned) {
    return { tag: FLOAT_TAG, value: new GoFloat(Number(result.value.value)) };
  }
  throw new ResolveError(`yaml: cannot decode ${result.tag} \`${text}\` as a ${tag}`);
}
