/**
 * What one string scalar becomes after the controller's round trip: emitted by go-yaml v2
 * (quoting chosen for the value as written), substituted as text, read back with YAML 1.1
 * typing. The same three steps the controller runs, on a one-field document.
 */
import { envsubst, type Lookup } from '../envsubst';
import { GoFloat, GoInt, GoMap, type GoValue } from '../yaml/v2/value';
import { marshalYamlV2 } from '../yaml/v2/marshal';
import { yamlToJson } from '../yaml/v2/yaml-to-json';

export type JsonType = 'string' | 'bool' | 'number' | 'null' | 'array' | 'object';

export type ScalarAfter =
  | { kind: 'value'; type: JsonType; display: string }
  /** The substituted text no longer parses: go-yaml's error. */
  | { kind: 'broken'; error: string }
  /** envsubst itself fails (parse error, strict mode): other rules report it. */
  | { kind: 'failed' };

const field = 'k';

export function scalarAfterSubstitution(value: string, isKey: boolean, lookup: Lookup, strict: boolean): ScalarAfter {
  const document = new GoMap(true);
  if (isKey) document.set(value, 'v');
  else document.set(field, value);
  const substituted = envsubst(marshalYamlV2(document), lookup, { strict });
  if (substituted.kind !== 'output') return { kind: 'failed' };
  const read = yamlToJson(substituted.text);
  if (!read.ok) return { kind: 'broken', error: read.error };
  const root = read.value;
  if (!(root instanceof GoMap)) return { kind: 'broken', error: 'the document is no longer a map' };
  if (isKey) {
    // sigs.k8s.io/yaml turns every key into a string; what matters is that it is one key.
    return root.entries.length === 1 ? { kind: 'value', type: 'string', display: String(root.entries[0][0]) } : { kind: 'broken', error: 'the key turned into several entries' };
  }
  const result = root.get(field);
  return { kind: 'value', type: typeOf(result ?? null), display: display(result ?? null) };
}

function typeOf(value: GoValue): JsonType {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (value instanceof GoInt || value instanceof GoFloat) return 'number';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

function display(value: GoValue): string {
  if (value === null) return 'null';
  if (value instanceof GoInt) return value.value.toString();
  if (value instanceof GoFloat) return String(value.value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? '[…]' : '{…}';
}
