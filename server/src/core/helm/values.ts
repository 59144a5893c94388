/**
 * Values as a Helm template sees them. Values files go through sigs.k8s.io/yaml (YAML 1.1,
 * then JSON), so every number is a float64 and `{{ .Values.ttl }}` prints `2.592e+06` for
 * 2592000; `int` makes an int64. Chart metadata is a Go struct whose missing fields are
 * errors; `.Release` details that only exist at install time are Unknown: the evaluator says
 * so instead of guessing.
 */
import { formatFloat64G } from '../goyaml/v2/go-number';
import { compareGoStrings } from '../goyaml/v2/json';
import { GoFloat, GoInt, GoMap, type GoValue } from '../goyaml/v2/value';

/** A value the repository cannot show: install-time data, the cluster, randomness. */
export class Unknown {
  constructor(
    readonly reason: string,
    /** True when the printed text surely has no line break (a name, a number). */
    readonly oneLine = false,
  ) {}
}

/** A Go struct (`.Chart`): reading a field it lacks is an error, not a nil. */
export class GoStruct {
  constructor(
    readonly typeName: string,
    readonly fields: ReadonlyMap<string, TValue>,
  ) {}
}

export type TValue = null | boolean | string | GoInt | GoFloat | TValue[] | GoMap | GoStruct | Unknown;

export class TemplateError extends Error {
  constructor(
    message: string,
    /** `required` and `fail` read as `execution error at (…): msg` in Helm's output. */
    readonly userFailure = false,
  ) {
    super(message);
  }
}

/** Values read from YAML/JSON: numbers become float64, as JSON decoding into interface{} does. */
export function fromJsonable(value: GoValue): TValue {
  if (value instanceof GoInt) return new GoFloat(Number(value.value));
  if (Array.isArray(value)) return value.map(fromJsonable);
  if (value instanceof GoMap) {
    const map = new GoMap(true);
    for (const [k, v] of value.entries) map.entries.push([k, fromJsonable(v) as GoValue]);
    return map;
  }
  return value;
}

/** The Go type name, as text/template and fmt print it in errors. */
export function goType(value: TValue): string {
  if (value === null) return 'interface {}';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (value instanceof GoInt) return 'int';
  if (value instanceof GoFloat) return 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  if (value instanceof GoMap) return 'map[string]interface {}';
  if (value instanceof GoStruct) return value.typeName;
  return 'unknown';
}

/** text/template's truth: false, 0, nil and empty strings, lists and maps are false. */
export function isTrue(value: Exclude<TValue, Unknown>): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  if (value instanceof GoInt) return value.value !== 0n;
  if (value instanceof GoFloat) return value.value !== 0;
  if (value instanceof GoMap) return value.entries.length > 0;
  return true;
}

/** sprig's `empty`: the same as not true. */
export const isEmpty = (value: Exclude<TValue, Unknown>) => !isTrue(value);

/** The first Unknown inside a value (lists and maps included). */
export function unknownIn(value: TValue): Unknown | undefined {
  if (value instanceof Unknown) return value;
  if (Array.isArray(value)) for (const v of value) {
    const u = unknownIn(v);
    if (u) return u;
  }
  if (value instanceof GoMap) for (const [, v] of value.entries) {
    const u = unknownIn(v);
    if (u) return u;
  }
  return undefined;
}

/** Go's `%v` (fmt.Sprint of one operand); nil inside containers prints `<nil>`. */
export function formatV(value: Exclude<TValue, Unknown>): string {
  if (value === null) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof GoInt) return value.value.toString();
  if (value instanceof GoFloat) return formatFloat64G(value.value);
  if (Array.isArray(value)) return `[${value.map((v) => formatV(v as Exclude<TValue, Unknown>)).join(' ')}]`;
  if (value instanceof GoMap) {
    const entries = [...value.entries].sort((a, b) => compareGoStrings(String(a[0]), String(b[0])));
    return `map[${entries.map(([k, v]) => `${String(k)}:${formatV(v as Exclude<TValue, Unknown>)}`).join(' ')}]`;
  }
  return `{${[...value.fields.values()].map((v) => (v instanceof Unknown ? '…' : formatV(v))).join(' ')}}`;
}

/** What `{{ x }}` writes: a nil prints `<no value>`, which Helm strips from the output. */
export function printed(value: Exclude<TValue, Unknown>): string {
  return value === null ? '' : formatV(value);
}

/** A short description for hovers: the type and the printed value. */
export function describeValue(value: TValue): string {
  if (value instanceof Unknown) return `unknown (${value.reason})`;
  if (value === null) return 'nil';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (value instanceof GoFloat) return `the float64 ${formatFloat64G(value.value)}`;
  if (value instanceof GoInt) return `the int ${value.value}`;
  if (typeof value === 'boolean') return `the bool ${value}`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof GoMap) return `a map with ${value.entries.length} key${value.entries.length === 1 ? '' : 's'}`;
  return `a ${value.typeName}`;
}

/** TValue → GoValue for encoders (toYaml, toJson); integral floats encode as JSON integers. */
export function toJsonGo(value: Exclude<TValue, Unknown>, forYaml: boolean): GoValue {
  if (value instanceof GoFloat && forYaml && Number.isInteger(value.value) && Math.abs(value.value) < 1e21) return new GoInt(BigInt(value.value));
  if (Array.isArray(value)) return value.map((v) => toJsonGo(v as Exclude<TValue, Unknown>, forYaml));
  if (value instanceof GoMap) {
    const map = new GoMap(true);
    for (const [k, v] of value.entries) map.entries.push([k, toJsonGo(v as Exclude<TValue, Unknown>, forYaml)]);
    return map;
  }
  if (value instanceof GoStruct) {
    const map = new GoMap(true);
    for (const [k, v] of value.fields) if (!(v instanceof Unknown)) map.entries.push([k, toJsonGo(v, forYaml)]);
    return map;
  }
  return value;
}
