/**
 * Does a value of one JSON type fit a field of a schema type, judged as the API server's
 * decoder judges it: an integer field takes whole numbers only, an int-or-string takes a
 * string or a whole number, a quantity a string or any number; a null leaves an optional
 * field out (its default applies), fails a required one, and in a list item or a map value
 * is decoded as the type's empty value (Go's JSON decoder leaves the zero value there).
 */
import type { JsonType } from '../model/index';
import { codeSpan } from '../markdown';
import type { FieldInfo, FieldType } from './schema-types';

export type Fit = 'fits' | 'mismatch' | 'left-out' | 'emptied';

export interface ArrivingValue {
  type: JsonType;
  /** The value as decoded (`8080`, `1.5`, `true`); for a number it tells a whole one from a float. */
  display: string;
}

export function fitOf(field: FieldInfo, value: ArrivingValue): Fit {
  if (value.type === 'null') return field.element ? 'emptied' : field.required ? 'mismatch' : 'left-out';
  return accepts(field.type, value) ? 'fits' : 'mismatch';
}

function accepts(type: FieldType, value: ArrivingValue): boolean {
  switch (type) {
    case 'preserve-unknown':
      return true;
    case 'string':
      return value.type === 'string';
    case 'boolean':
      return value.type === 'bool';
    case 'number':
      return value.type === 'number';
    case 'integer':
      return value.type === 'number' && isWhole(value.display);
    case 'int-or-string':
      return value.type === 'string' || (value.type === 'number' && isWhole(value.display));
    case 'quantity':
      return value.type === 'string' || value.type === 'number';
    case 'object':
      return value.type === 'object';
    case 'array':
      return value.type === 'array';
  }
}

function isWhole(display: string): boolean {
  return /^-?\d+$/.test(display);
}

/** "the integer `8080`", "a float `1.5`", "null", "the string `http`": what arrives, for messages. */
export function describeValue(value: ArrivingValue, secret: boolean): string {
  if (value.type === 'null') return 'null';
  const what = value.type === 'number' ? (isWhole(value.display) ? 'integer' : 'float') : value.type;
  if (secret) return `a ${what} (secret value not shown)`;
  if (value.type === 'array' || value.type === 'object') return `an ${what}`;
  return `the ${what} ${codeSpan(value.display)}`;
}

/** What leaving an optional field out means: its documented default, when the schema names one. */
export function leftOutMeaning(field: FieldInfo): string {
  return field.default !== undefined ? `the field is left out and its default ${codeSpan(field.default)} applies` : 'the field is left out, as if it were not written';
}

/** What a null list item or map value is decoded as: the zero value of its type. */
export function emptiedMeaning(field: FieldInfo): string {
  const zero = field.type === 'string' ? '""' : field.type === 'integer' || field.type === 'number' ? '0' : field.type === 'boolean' ? 'false' : undefined;
  return zero !== undefined ? `the API server reads it as ${codeSpan(zero)}` : 'the API server reads it as an empty value';
}
