/**
 * Go's `%#v` (and `%+#v`, identical for these types) of decoded values, for the error texts
 * "invalid map key: ..." and "unsupported map key of type: ..., key: ..., value: ...".
 */

import { formatFloat64G } from './go-number';
import { goQuote } from './go-text';
import { compareGoStrings } from './json';
import { GoFloat, GoInt, GoMap, type GoValue } from './value';

/** Rank of a dynamic type when fmt sorts interface{} map keys (nil first). */
function typeRank(v: GoValue): number {
  if (v === null) return 0;
  if (typeof v === 'boolean') return 1;
  if (v instanceof GoInt) return v.unsigned ? 3 : 2;
  if (v instanceof GoFloat) return 4;
  if (typeof v === 'string') return 5;
  return 6;
}

/**
 * fmt prints maps with sorted keys: nil first, then by dynamic type (Go orders types by an
 * internal address we cannot know; a fixed order is used), then by value within a type.
 */
function compareKeys(a: GoValue, b: GoValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof GoInt && b instanceof GoInt) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a instanceof GoFloat && b instanceof GoFloat) {
    if (Number.isNaN(a.value)) return Number.isNaN(b.value) ? 0 : -1;
    if (Number.isNaN(b.value)) return 1;
    return a.value - b.value;
  }
  if (typeof a === 'string' && typeof b === 'string') return compareGoStrings(a, b);
  return 0;
}

function formatScalar(v: GoValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return goQuote(v);
  if (v instanceof GoInt) return v.unsigned ? '0x' + v.value.toString(16) : v.value.toString();
  return formatFloat64G((v as GoFloat).value);
}

/** A value still to print, with the text that goes before it. */
interface Pending {
  before: string;
  value: GoValue;
  /** Whether the value sits in an interface{} slot, where nil prints as `interface {}(nil)`. */
  nested: boolean;
}

/**
 * `%#v` of a value held in an interface{} (a nil interface prints as `<nil>`). Printed with
 * an explicit stack: values may nest as deep as go-yaml allows.
 */
export function formatGoValue(root: GoValue): string {
  let out = '';
  // Work items: a value to print, or a literal closing text (a string).
  const work: Array<Pending | string> = [{ before: '', value: root, nested: false }];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    out += item.before;
    const v = item.value;
    if (v === null && item.nested) {
      out += 'interface {}(nil)';
    } else if (Array.isArray(v)) {
      out += '[]interface {}{';
      work.push('}');
      for (let i = v.length - 1; i >= 0; i--) work.push({ before: i > 0 ? ', ' : '', value: v[i]!, nested: true });
    } else if (v instanceof GoMap) {
      out += (v.stringKeys ? 'map[string]interface {}' : 'map[interface {}]interface {}') + '{';
      work.push('}');
      const entries = [...v.entries].sort((x, y) => compareKeys(x[0], y[0]));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, value] = entries[i]!;
        work.push({ before: ':', value, nested: true });
        work.push({ before: i > 0 ? ', ' : '', value: key, nested: !v.stringKeys });
      }
    } else {
      out += formatScalar(v);
    }
  }
  return out;
}

/** The dynamic type name `%s` of `reflect.TypeOf(v)` prints. */
export function goTypeName(v: GoValue): string {
  if (v === null) return '%!s(<nil>)';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoInt) return v.unsigned ? 'uint64' : 'int';
  if (v instanceof GoFloat) return 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return v.stringKeys ? 'map[string]interface {}' : 'map[interface {}]interface {}';
}
