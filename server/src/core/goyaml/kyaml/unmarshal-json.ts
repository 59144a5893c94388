/**
 * kyaml's `RNode.UnmarshalJSON`, the step that turns the substituted JSON back into the
 * resource the controller applies:
 *   1. `json.Unmarshal` into `map[string]interface{}`: every number becomes a float64, so an
 *      integer beyond 2^53 is rounded here (9007199254740993 arrives as 9007199254740992);
 *   2. `FromMap`: go-yaml v3 writes the map out and parses it back, which can fail
 *      (v3-tab-literal.ts);
 *   3. what the controller then applies is that object, as JSON.
 */
import { GoFloat, GoInt, GoMap, type GoValue } from '../v2/value';
import { goJsonMarshal, goJsonParse } from '../v2/json';
import { v3RoundTripError } from './v3-tab-literal';

export type UnmarshalResult = { ok: true; final: string } | { ok: false; error: string };

export function kyamlUnmarshalJson(json: string): UnmarshalResult {
  const parsed = goJsonParse(json);
  const root = intoStringMap(parsed);
  if (typeof root === 'string') return { ok: false, error: root };
  const object = asFloat64(root) as GoMap;
  const roundTrip = v3RoundTripError(object);
  if (roundTrip) return { ok: false, error: roundTrip };
  const marshalled = goJsonMarshal(object);
  // A float64 tree from valid JSON always marshals; keep the error text if it ever does not.
  return marshalled.ok ? { ok: true, final: marshalled.json } : { ok: false, error: marshalled.error };
}

/** json.Unmarshal into a map: null leaves it empty, anything but an object is an error. */
function intoStringMap(value: GoValue): GoMap | string {
  if (value instanceof GoMap) return value;
  if (value === null) return new GoMap(true);
  const kind = Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'bool' : 'number';
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

/** encoding/json decodes every number into interface{} as a float64. */
function asFloat64(value: GoValue): GoValue {
  if (value instanceof GoInt) return new GoFloat(Number(value.value));
  if (Array.isArray(value)) return value.map(asFloat64);
  if (value instanceof GoMap) {
    const map = new GoMap(true);
    for (const [key, item] of value.entries) map.entries.push([key, asFloat64(item)]);
    return map;
  }
  return value;
}
