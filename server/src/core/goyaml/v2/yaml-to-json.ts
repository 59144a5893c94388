/**
 * sigs.k8s.io/yaml v1.6.0 `YAMLToJSON`: go-yaml v2 `Unmarshal` into interface{}, then
 * `convertToJSONableObject`, then `json.Marshal`. This is the step Flux runs on every
 * resource after substitution, so its errors are the ones users see after
 * `envsubst error: YAMLToJSON: `.
 *
 * JSON objects need string keys, so map keys are converted: strings stay, ints print in
 * decimal, bools as true/false, floats with 32-bit precision (`3.14159265358979` becomes
 * `3.1415927`) and ±Inf/NaN as `.inf`, `-.inf`, `.nan`. A null or uint64 key is an error.
 * Keys that convert to the same string collapse; Go's map order decides which value wins,
 * here the later one in the document does.
 */

import { decodeYamlV2, setGoMapEntry } from './decode';
import { formatGoValue, goTypeName } from './go-format';
import { formatFloat32G } from './go-number';
import { goJsonMarshal } from './json';
import { GoFloat, GoInt, GoMap, type GoValue } from './value';

export type YamlToJsonResult = { ok: true; json: string; value: GoValue } | { ok: false; error: string };

class ConversionError extends Error {}

function keyString(key: GoValue, value: GoValue): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'boolean') return key ? 'true' : 'false';
  if (key instanceof GoInt && !key.unsigned) return key.value.toString();
  if (key instanceof GoFloat) {
    const text = formatFloat32G(key.value);
    return text === '+Inf' ? '.inf' : text === '-Inf' ? '-.inf' : text === 'NaN' ? '.nan' : text;
  }
  throw new ConversionError(
    `unsupported map key of type: ${goTypeName(key)}, key: ${formatGoValue(key)}, value: ${formatGoValue(value)}`,
  );
}

class ArrayFrame {
  readonly out: GoValue[] = [];
  next = 0;
  constructor(readonly source: GoValue[]) {}
}

class MapFrame {
  readonly out = new GoMap(true);
  next = 0;
  name = '';
  constructor(readonly source: GoMap) {}
}

/**
 * `convertToJSONableObject` without a target type: every map gets string keys. Walks with an
 * explicit stack, since values may nest as deep as go-yaml allows (10000 levels).
 */
export function toJsonable(root: GoValue): GoValue {
  const stack: Array<ArrayFrame | MapFrame> = [];
  const indexes = new Map<GoMap, Map<string, number>>();
  let result: GoValue = null;
  // True when `result` holds a finished child value for the frame on top.
  let returning = false;
  const enter = (value: GoValue): void => {
    if (Array.isArray(value)) {
      stack.push(new ArrayFrame(value));
      returning = false;
    } else if (value instanceof GoMap) {
      stack.push(new MapFrame(value));
      returning = false;
    } else {
      result = value;
      returning = true;
    }
  };
  enter(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame instanceof ArrayFrame) {
      if (returning) frame.out.push(result);
      if (frame.next < frame.source.length) {
        enter(frame.source[frame.next++]!);
        continue;
      }
    } else {
      if (returning) setGoMapEntry(frame.out, frame.name, result, indexes);
      const entries = frame.source.entries;
      if (frame.next < entries.length) {
        const [key, item] = entries[frame.next++]!;
        frame.name = keyString(key, item);
        enter(item);
        continue;
      }
    }
    stack.pop();
    result = frame.out;
    returning = true;
  }
  return result;
}

/**
 * sigs.k8s.io/yaml `YAMLToJSON`. On success `value` is the JSON-able object (string-keyed
 * maps, exact ints) that `json` encodes.
 */
export function yamlToJson(text: string): YamlToJsonResult {
  const decoded = decodeYamlV2(text);
  if (!decoded.ok) return decoded;
  let value: GoValue;
  try {
    value = toJsonable(decoded.value);
  } catch (error) {
    if (error instanceof ConversionError) return { ok: false, error: error.message };
    throw error;
  }
  const marshalled = goJsonMarshal(value);
  if (!marshalled.ok) return marshalled;
  return { ok: true, json: marshalled.json, value };
}
