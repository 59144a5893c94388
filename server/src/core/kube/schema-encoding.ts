/**
 * The field-type table's shape, shared by the generator (tools/field-types) and the reader
 * (schema-types.ts). Compact on purpose: it ships inside the server and the CLI bundles.
 *
 * A field's type is a `FieldRef`: a number names an object definition; a string is zero or
 * more wrappers (`[` a list of, `{` a map of) then a leaf code or a definition number:
 * `s` string, `e` a string from a fixed set (an enum), `i` integer, `n` number, `b` boolean, `x` int-or-string, `q` quantity (a number
 * or a string), `u` anything (x-kubernetes-preserve-unknown-fields, `JSON`).
 */

export type FieldRef = string | number;

export interface Definition {
  /** Property name → its type. */
  p: Record<string, FieldRef>;
  /** Required properties. */
  r?: string[];
  /** Defaults named by the field's docs, for optional fields. */
  d?: Record<string, string>;
}

export interface SchemaTable {
  /** `apiVersion kind` → the definition of the whole object. */
  kinds: Record<string, number>;
  definitions: Definition[];
}

export function encodeTable(table: SchemaTable): string {
  return JSON.stringify(table);
}

export function decodeTable(json: string): SchemaTable {
  return JSON.parse(json) as SchemaTable;
}
