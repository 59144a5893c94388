/**
 * The template functions evaluated statically: text/template's builtins and the sprig and
 * Helm functions charts use for values (sprig v3.3.0 as vendored by Helm 3). Anything else
 * evaluates to Unknown with its name, so a hover says what it could not evaluate.
 */
import { goQuote } from '../goyaml/v2/go-text';
import { goJsonMarshal } from '../goyaml/v2/json';
import { marshalYamlV2 } from '../goyaml/v2/marshal';
import { GoFloat, GoInt, GoMap } from '../goyaml/v2/value';
import { sha256Hex } from '../sha256';
import { sprint, sprintf } from './printf';
import { formatV, goType, isEmpty, isTrue, TemplateError, toJsonGo, Unknown, unknownIn, type TValue } from './values';

type Known = Exclude<TValue, Unknown>;

export interface CallContext {
  include(name: string, data: TValue): TValue;
  tpl(text: string, data: TValue): TValue;
}

type Fn = (args: Known[], context: CallContext) => TValue;

/** sprig's `strval`: strings as they are, anything else through `%v` (nil → `<nil>`). */
const strval = (value: Known): string => formatV(value);

function str(value: Known): string {
  if (typeof value === 'string') return value;
  if (value === null) throw new TemplateError('invalid value; expected string');
  throw new TemplateError(`wrong type for value; expected string; got ${goType(value)}`);
}

function int(value: Known): number {
  if (value instanceof GoInt) return Number(value.value);
  if (value === null) throw new TemplateError('invalid value; expected int');
  throw new TemplateError(`wrong type for value; expected int; got ${goType(value)}`);
}

function bool(value: Known): boolean {
  if (typeof value === 'boolean') return value;
  if (value === null) throw new TemplateError('invalid value; expected bool');
  throw new TemplateError(`wrong type for value; expected bool; got ${goType(value)}`);
}

/** spf13/cast `ToInt64` as sprig uses it: floats truncate, strings parse with base prefixes, else 0. */
function toInt(value: Known): GoInt {
  if (value instanceof GoInt) return value;
  if (value instanceof GoFloat) return new GoInt(BigInt(Math.trunc(Number.isFinite(value.value) ? value.value : 0)));
  if (typeof value === 'boolean') return new GoInt(value ? 1n : 0n);
  if (typeof value === 'string') {
    const text = value.replace(/\.0*$/, '');
    try {
      return /^[+-]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[0-9]+)$/.test(text) ? new GoInt(parseGoIntLiteral(text)) : new GoInt(0n);
    } catch {
      return new GoInt(0n);
    }
  }
  return new GoInt(0n);
}

function parseGoIntLiteral(text: string): bigint {
  const negative = text.startsWith('-');
  const body = text.replace(/^[+-]/, '');
  const value = /^0[oO]/.test(body) ? BigInt('0o' + body.slice(2)) : /^0[0-7]+$/.test(body) ? BigInt('0o' + body.slice(1)) : BigInt(body);
  return negative ? -value : value;
}

function toFloat(value: Known): GoFloat {
  if (value instanceof GoFloat) return value;
  if (value instanceof GoInt) return new GoFloat(Number(value.value));
  if (typeof value === 'boolean') return new GoFloat(value ? 1 : 0);
  if (typeof value === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) return new GoFloat(Number(value));
  return new GoFloat(0);
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63] + (i + 1 < bytes.length ? alphabet[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? alphabet[n & 63] : '=');
  }
  return out;
}

/** Go's eq/lt on basic kinds; an int against a float64 (`eq .Values.port 80`) is an error. */
function kindOf(value: Known): string {
  if (value === null) return 'invalid';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (value instanceof GoInt) return 'int';
  if (value instanceof GoFloat) return 'float';
  return 'other';
}

function numberOf(value: Known): number | bigint | string | boolean {
  if (value instanceof GoInt) return value.value;
  if (value instanceof GoFloat) return value.value;
  return value as string | boolean;
}

function eq(a: Known, b: Known): boolean {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) {
    if (ka !== 'invalid' && kb !== 'invalid') throw new TemplateError('incompatible types for comparison');
    return false;
  }
  if (ka === 'invalid') return true;
  if (ka === 'other') throw new TemplateError('non-comparable types');
  return numberOf(a) === numberOf(b);
}

function less(a: Known, b: Known): boolean {
  const ka = kindOf(a);
  if (ka !== kindOf(b)) throw new TemplateError('incompatible types for comparison');
  if (ka === 'bool' || ka === 'invalid' || ka === 'other') throw new TemplateError('invalid type for comparison');
  return numberOf(a) < numberOf(b);
}

function pad(spaces: number, text: string): string {
  const padding = ' '.repeat(Math.max(0, spaces));
  return padding + text.replace(/\n/g, '\n' + padding);
}

function toYaml(value: Known): string {
  if (value instanceof Unknown) return '';
  // sigs.k8s.io/yaml marshals through JSON, then go-yaml v2; Helm trims the final newline.
  return marshalYamlV2(toJsonGo(value, true)).replace(/\n$/, '');
}

function toJson(value: Known): string {
  const marshalled = goJsonMarshal(toJsonGo(value, false));
  return marshalled.ok ? marshalled.json : '';
}

function dict(args: Known[]): GoMap {
  const map = new GoMap(true);
  for (let i = 0; i < args.length; i += 2) map.set(strval(args[i]), (i + 1 < args.length ? args[i + 1] : '') as never);
  return map;
}

function index(collection: Known, keys: Known[]): TValue {
  let value: Known = collection;
  for (const key of keys) {
    if (value instanceof GoMap) value = (value.get(str(key)) ?? null) as Known;
    else if (Array.isArray(value)) {
      const i = int(key);
      if (i < 0 || i >= value.length) throw new TemplateError(`error calling index: index out of range: ${i}`);
      value = value[i] as Known;
    } else if (value === null) throw new TemplateError('error calling index: index of untyped nil');
    else throw new TemplateError(`error calling index: can't index item of type ${goType(value)}`);
  }
  return value;
}

const functions: Record<string, Fn> = {
  // text/template builtins.
  not: ([a]) => !isTrue(a),
  len: ([a]) => {
    if (typeof a === 'string' || Array.isArray(a)) return new GoInt(BigInt(a.length));
    if (a instanceof GoMap) return new GoInt(BigInt(a.entries.length));
    throw new TemplateError(a === null ? 'error calling len: len of nil pointer' : `error calling len: len of type ${goType(a)}`);
  },
  index: ([collection, ...keys]) => index(collection, keys),
  eq: ([a, ...rest]) => rest.some((b) => eq(a, b)),
  ne: ([a, b]) => !eq(a, b),
  lt: ([a, b]) => less(a, b),
  le: ([a, b]) => less(a, b) || eq(a, b),
  gt: ([a, b]) => less(b, a),
  ge: ([a, b]) => less(b, a) || eq(a, b),
  print: (args) => sprint(args),
  println: (args) => {
    const out = args.map(formatV).join(' ');
    return out + '\n';
  },
  printf: ([format, ...args]) => sprintf(str(format), args),
  // sprig: strings.
  quote: (args) => args.filter((a) => a !== null).map((a) => goQuote(strval(a))).join(' '),
  squote: (args) => args.filter((a) => a !== null).map((a) => `'${strval(a)}'`).join(' '),
  toString: ([a]: Known[]) => strval(a),
  upper: ([s]) => str(s).toUpperCase(),
  lower: ([s]) => str(s).toLowerCase(),
  title: ([s]) => str(s).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase()),
  trim: ([s]) => str(s).replace(/^[\s\u0085\u00a0]+|[\s\u0085\u00a0]+$/g, ''),
  trimSuffix: ([suffix, s]) => (str(s).endsWith(str(suffix)) && str(suffix) !== '' ? str(s).slice(0, -str(suffix).length) : str(s)),
  trimPrefix: ([prefix, s]) => (str(s).startsWith(str(prefix)) ? str(s).slice(str(prefix).length) : str(s)),
  trunc: ([n, s]) => {
    const c = int(n);
    const text = str(s);
    if (c < 0 && text.length + c > 0) return text.slice(text.length + c);
    return c >= 0 && text.length > c ? text.slice(0, c) : text;
  },
  replace: ([from, to, s]) => str(s).split(str(from)).join(str(to)),
  contains: ([substr, s]) => str(s).includes(str(substr)),
  hasPrefix: ([prefix, s]) => str(s).startsWith(str(prefix)),
  hasSuffix: ([suffix, s]) => str(s).endsWith(str(suffix)),
  repeat: ([n, s]) => str(s).repeat(Math.max(0, int(n))),
  cat: (args) => args.filter((a) => a !== null).map(strval).join(' '),
  indent: ([n, s]) => pad(int(n), str(s)),
  nindent: ([n, s]) => '\n' + pad(int(n), str(s)),
  b64enc: ([s]) => base64(str(s)),
  sha256sum: ([s]) => sha256Hex(str(s)),
  join: ([sep, list]) => (Array.isArray(list) ? list.filter((v) => v !== null).map((v) => strval(v as Known)).join(str(sep)) : strval(list)),
  splitList: ([sep, s]) => str(s).split(str(sep)),
  // sprig: conversions and defaults.
  int: ([a]) => toInt(a),
  int64: ([a]) => toInt(a),
  float64: ([a]) => toFloat(a),
  atoi: ([s]) => (/^[+-]?\d+$/.test(str(s)) ? new GoInt(BigInt(str(s))) : new GoInt(0n)),
  default: ([d, ...given]) => (given.length === 0 || isEmpty(given[0]) ? d : given[0]),
  empty: ([a]) => isEmpty(a),
  coalesce: (args) => args.find((a) => !isEmpty(a)) ?? null,
  ternary: ([yes, no, cond]) => (bool(cond) ? yes : no),
  required: ([message, value]) => {
    if (value === null || value === '') throw new TemplateError(str(message), true);
    return value;
  },
  fail: ([message]) => {
    throw new TemplateError(str(message), true);
  },
  typeOf: ([a]) => (a === null ? '<nil>' : goType(a)),
  kindIs: ([kind, a]) => str(kind) === (a === null ? 'invalid' : a instanceof GoFloat ? 'float64' : a instanceof GoInt ? 'int' : Array.isArray(a) ? 'slice' : a instanceof GoMap ? 'map' : typeof a === 'boolean' ? 'bool' : typeof a === 'string' ? 'string' : 'struct'),
  // sprig: collections.
  dict: (args) => dict(args),
  list: (args) => [...args],
  hasKey: ([map, key]) => (map instanceof GoMap ? map.entries.some(([k]) => k === str(key)) : false),
  get: ([map, key]) => (map instanceof GoMap ? (map.get(str(key)) ?? '') : ''),
  // sprig: arithmetic (int64).
  add: (args) => new GoInt(args.reduce((sum, a) => sum + toInt(a).value, 0n)),
  add1: ([a]) => new GoInt(toInt(a).value + 1n),
  sub: ([a, b]) => new GoInt(toInt(a).value - toInt(b).value),
  mul: (args) => new GoInt(args.reduce((p, a) => p * toInt(a).value, 1n)),
  max: (args) => new GoInt(args.map((a) => toInt(a).value).reduce((m, v) => (v > m ? v : m))),
  min: (args) => new GoInt(args.map((a) => toInt(a).value).reduce((m, v) => (v < m ? v : m))),
  // Helm.
  toYaml: ([a]) => toYaml(a),
  toJson: ([a]) => toJson(a),
  include: ([name, data], context) => context.include(str(name), data),
  tpl: ([text, data], context) => context.tpl(str(text), data),
};

/** Functions whose output has no line break when their Unknown inputs have none. */
const lineKeeping = new Set(['quote', 'squote', 'toString', 'upper', 'lower', 'title', 'trim', 'trimSuffix', 'trimPrefix', 'trunc', 'default', 'printf', 'print', 'b64enc', 'sha256sum', 'int', 'int64', 'float64', 'replace', 'cat', 'required', 'coalesce']);

/** Functions that print a whole value, lists and maps included. */
const printing = new Set(['toYaml', 'toJson', 'toString', 'quote', 'squote', 'print', 'printf', 'println', 'cat', 'join', 'b64enc', 'sha256sum']);

/** Functions that are not evaluated here, with the reason a hover gives. */
const reasons: Record<string, string> = {
  lookup: '`lookup` reads the live cluster',
  randAlphaNum: 'random', randAlpha: 'random', randNumeric: 'random', randAscii: 'random', uuidv4: 'random',
  now: 'the render time', date: 'the render time',
  genCA: 'generated at render time', genPrivateKey: 'generated at render time', genSelfSignedCert: 'generated at render time', genSignedCert: 'generated at render time',
  semverCompare: '`semverCompare` is not evaluated here',
};

const own = (table: object, name: string) => Object.prototype.hasOwnProperty.call(table, name);

export function callFunction(name: string, args: readonly TValue[], context: CallContext): TValue {
  if (!own(functions, name)) return new Unknown(reasons[name] ?? `\`${name}\` is not evaluated here`);
  // `default` and the boolean helpers still decide when the unknown input does not matter.
  if (name === 'default' && args.length === 2 && !(args[1] instanceof Unknown) && !isEmpty(args[1])) return args[1];
  if (name === 'required' && args[1] !== undefined && !(args[1] instanceof Unknown)) {
    // The message may be unknown; the value decides.
    if (args[1] !== null && args[1] !== '') return args[1];
  }
  // Printing functions see inside lists and maps; the others only take their arguments whole
  // (`include "x" .` passes the root, which holds the unknown release name).
  const unknown = args.map((a) => (printing.has(name) ? unknownIn(a) : a instanceof Unknown ? a : undefined)).find((u) => u !== undefined);
  if (unknown) return new Unknown(unknown.reason, unknown.oneLine && lineKeeping.has(name));
  return functions[name](args as Known[], context);
}

