/**
 * What the Kubernetes schema says a field holds: looked up by the object's apiVersion and
 * kind and the field's key path, in the table generated from the Kubernetes OpenAPI schema
 * and the common GitOps CRDs (tools/field-types), or in the CRDs the workspace itself holds.
 * A kind neither knows has no typed fields, except its `metadata`, which every object shares
 * and kubectl decodes strictly.
 */
import { Memo } from '../memo';
import type { NodePath } from '../yaml/scalar-sites';
import { SCHEMA_TABLE_JSON, SCHEMA_TABLE_SOURCES } from './generated/schema-table';
import { decodeTable, type FieldRef, type SchemaTable } from './schema-encoding';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'int-or-string' | 'quantity' | 'object' | 'array' | 'preserve-unknown';

export interface FieldInfo {
  type: FieldType;
  /** Required by its parent object: a null there is rejected. List items and map values count as required. */
  required: boolean;
  /** The field is an item of a list or a value of a map, not a named property. */
  element?: boolean;
  /** A string field that takes one of a fixed set of names (an enum: `IfNotPresent`, `ClusterIP`). */
  enumerated?: boolean;
  /** The default the schema's docs name, for an optional field. */
  default?: string;
  /** Where the type comes from: the packaged schema, or a CustomResourceDefinition of the workspace. */
  source: string;
}

export interface ObjectType {
  apiVersion?: string;
  kind?: string;
}

let builtin: SchemaTable | undefined;
const byGroupKind = new Memo<SchemaTable, Map<string, number>>();

/** The packaged table, parsed on first use (a JSON string parses faster than the same object literal loads). */
export function builtinSchema(): SchemaTable {
  builtin ??= decodeTable(SCHEMA_TABLE_JSON);
  return builtin;
}

/**
 * Decodes the packaged table now: a server does it when it starts, so the first file the user
 * opens does not wait for it (6–10 ms, cold).
 */
export function prepareFieldTypes(): void {
  builtinSchema();
}

/** What the packaged table was generated from, for hovers and the bench. */
export const builtinSchemaSources = SCHEMA_TABLE_SOURCES;

/**
 * The type of the field at `path` in an object of `type`, or undefined when no schema knows it
 * (an unknown kind, a field the schema lacks, a templated key). `workspace` tables (from the
 * workspace's own CRDs) are asked first: they are the version the repository deploys.
 */
export function fieldAt(type: ObjectType, path: NodePath, workspace: readonly WorkspaceSchema[] = []): FieldInfo | undefined {
  const table = builtinSchema();
  // Every object has ObjectMeta, whatever its kind; kubectl decodes it strictly.
  if (path[0] === 'metadata') return walk(table, table.kinds['v1 ConfigMap'], path, 'Kubernetes schema');
  for (const schema of workspace) {
    // A CRD is read only when its kind is asked for (workspace-crds.ts).
    if (schema.kinds && (type.kind === undefined || !schema.kinds.has(type.kind))) continue;
    const root = rootOf(schema.table, type);
    if (root !== undefined) return walk(schema.table, root, path, schema.source);
  }
  const root = rootOf(table, type);
  return root === undefined ? undefined : walk(table, root, path, 'Kubernetes schema');
}

export interface WorkspaceSchema {
  /** The kinds it defines, when known without reading the table (which is then read on first use). */
  kinds?: ReadonlySet<string>;
  readonly table: SchemaTable;
  /** Where it was read: `CustomResourceDefinition in crds/foo.yaml`. */
  source: string;
}

function rootOf(table: SchemaTable, type: ObjectType): number | undefined {
  if (!type.kind) return undefined;
  if (type.apiVersion) {
    const exact = table.kinds[`${type.apiVersion} ${type.kind}`];
    if (exact !== undefined) return exact;
  }
  // Another version of the same group, or (a chart template's `apiVersion` is often templated) any.
  const group = type.apiVersion === undefined ? '*' : groupOf(type.apiVersion);
  return byGroupKind.of(table, indexByGroupKind).get(`${group} ${type.kind}`);
}

/** `group kind` and `* kind` → a definition: a stable version (`v1`, `v2`) before a beta or an alpha. */
function indexByGroupKind(table: SchemaTable): Map<string, number> {
  const index = new Map<string, number>();
  const keys = Object.keys(table.kinds);
  for (const stable of [true, false]) {
    for (const key of keys) {
      const [apiVersion, kind] = key.split(' ');
      if (isStable(apiVersion) !== stable) continue;
      for (const name of [`${groupOf(apiVersion)} ${kind}`, `* ${kind}`]) if (!index.has(name)) index.set(name, table.kinds[key]);
    }
  }
  return index;
}

function isStable(apiVersion: string): boolean {
  return /(^|\/)v\d+$/.test(apiVersion);
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/**
 * A table read into linked slots, each made on the first lookup that reaches it and kept with
 * its answer: a lookup, asked for every substituted scalar, then follows pointers and returns
 * a shared FieldInfo instead of decoding refs and building one each time.
 */
class Slot {
  private children: Map<string, Slot | null> | undefined;
  private element: Slot | undefined;

  constructor(
    private readonly table: SchemaTable,
    private readonly ref: FieldRef,
    readonly info: FieldInfo,
  ) {}

  child(segment: string | number): Slot | undefined {
    const ref = this.ref;
    if (ref === 'u') return freeBelow(this.table, this.info.source);
    if (typeof ref === 'string') {
      if (!((ref[0] === '[' && typeof segment === 'number') || (ref[0] === '{' && typeof segment === 'string'))) return undefined;
      const inner = unwrap(ref);
      this.element ??= new Slot(this.table, inner, { type: typeOf(inner), required: true, element: true, ...(inner === 'e' ? { enumerated: true } : {}), source: this.info.source });
      return this.element;
    }
    if (typeof segment !== 'string') return undefined;
    this.children ??= new Map();
    let child = this.children.get(segment);
    if (child === undefined) {
      const definition = this.table.definitions[ref];
      if (definition && Object.prototype.hasOwnProperty.call(definition.p, segment)) {
        const childRef = definition.p[segment];
        const required = definition.r?.includes(segment) ?? false;
        const fallback = required ? undefined : definition.d?.[segment];
        child = new Slot(this.table, childRef, { type: typeOf(childRef), required, ...(childRef === 'e' ? { enumerated: true } : {}), ...(fallback !== undefined ? { default: fallback } : {}), source: this.info.source });
      } else child = null;
      this.children.set(segment, child);
    }
    return child ?? undefined;
  }
}

/** Below a free-form field: free-form and optional all the way down. */
const freeSlots = new Memo<SchemaTable, Map<string, Slot>>();

function freeBelow(table: SchemaTable, source: string): Slot {
  const bySource = freeSlots.of(table, () => new Map());
  let slot = bySource.get(source);
  if (!slot) bySource.set(source, (slot = new Slot(table, 'u', { type: 'preserve-unknown', required: false, source })));
  return slot;
}

const rootSlots = new Memo<SchemaTable, Map<number, Slot>>();

function walk(table: SchemaTable, root: number, path: NodePath, source: string): FieldInfo | undefined {
  const roots = rootSlots.of(table, () => new Map());
  let slot = roots.get(root);
  if (!slot) roots.set(root, (slot = new Slot(table, root, { type: 'object', required: true, source })));
  for (let i = 0; i < path.length && slot; i++) slot = slot.child(path[i]);
  return slot?.info;
}

function unwrap(ref: string): FieldRef {
  const inner = ref.slice(1);
  return /^\d+$/.test(inner) ? Number(inner) : inner;
}

const leafTypes: Record<string, FieldType> = { s: 'string', e: 'string', i: 'integer', n: 'number', b: 'boolean', x: 'int-or-string', q: 'quantity', u: 'preserve-unknown' };

function typeOf(ref: FieldRef): FieldType {
  if (typeof ref === 'number') return 'object';
  if (ref[0] === '[') return 'array';
  if (ref[0] === '{') return 'object';
  return leafTypes[ref] ?? 'preserve-unknown';
}

/**
 * Must the field hold free text, which a bare value can re-type? An enum field is left out:
 * none of its names re-types, and a value outside them is rejected however it is quoted. (A
 * chart template's `*` key segment, templated, is any map key.)
 */
export function isStringField(type: ObjectType, path: NodePath, workspace?: readonly WorkspaceSchema[]): boolean {
  const field = fieldAt(type, path, workspace);
  return field?.type === 'string' && !field.enumerated;
}

/** "a string", "an integer", "an int-or-string": for messages. */
export function withArticle(type: FieldType): string {
  if (type === 'preserve-unknown') return 'a free-form value';
  if (type === 'quantity') return 'a quantity (a number or a string)';
  if (type === 'int-or-string') return 'an int-or-string';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
