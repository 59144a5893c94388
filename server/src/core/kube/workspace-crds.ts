/**
 * Field types of the CustomResourceDefinitions a repository vendors: each CRD's
 * `openAPIV3Schema` turned into the same table shape as the packaged one, so a custom
 * resource's fields are judged like a Deployment's. Read per file version from its text
 * (a CRD file is rare; the text check keeps the rest from being parsed).
 */
import { parseAllDocuments } from 'yaml';
import type { Definition, FieldRef, SchemaTable } from './schema-encoding';
import type { WorkspaceSchema } from './schema-types';

type Json = Record<string, unknown>;

/** Shared by every file without a CRD: the index keeps one answer per file. */
const none: readonly WorkspaceSchema[] = Object.freeze([]);

const crdMarker = /^kind:\s*["']?CustomResourceDefinition\b/m;

/** Might the text hold a CRD? `includes` first: asked on every keystroke of any file. */
export function mayHoldCrd(text: string | undefined): boolean {
  return text !== undefined && text.includes('CustomResourceDefinition') && crdMarker.test(text);
}

/**
 * The schemas of the CRDs in one file's text; empty for a file without any. Each is read (a
 * full parse: CRD files are long) only when a kind it names is asked for: a chart repository
 * vendors dozens of CRDs its templates mostly never instantiate.
 */
export function crdSchemasOf(file: string, text: string): readonly WorkspaceSchema[] {
  if (!mayHoldCrd(text)) return none;
  let parsed: WorkspaceSchema[] | undefined;
  const read = (): WorkspaceSchema[] => (parsed ??= parseCrds(file, text));
  const kinds = namedKinds(text);
  // Kinds not found by the text scan (an unusual layout): read at once, to be sure.
  if (kinds.size === 0) return read();
  return [...kinds].map((kind) => ({
    kinds: new Set([kind]),
    source: `CustomResourceDefinition in ${file}`,
    get table(): SchemaTable {
      return read().find((schema) => Object.keys(schema.table.kinds).some((key) => key.endsWith(` ${kind}`)))?.table ?? emptyTable;
    },
  }));
}

const emptyTable = { kinds: {}, definitions: [] } as unknown as SchemaTable;

function parseCrds(file: string, text: string): WorkspaceSchema[] {
  const out: WorkspaceSchema[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) continue;
    const crd = document.toJS({ maxAliasCount: 100 }) as unknown;
    if (!isObject(crd) || crd.kind !== 'CustomResourceDefinition') continue;
    const table = tableOf(crd);
    if (table) out.push({ table, source: `CustomResourceDefinition in ${file}` });
  }
  return out;
}

/** `spec.names.kind` of every CRD in the text, found without parsing it. */
function namedKinds(text: string): ReadonlySet<string> {
  const kinds = new Set<string>();
  for (const match of text.matchAll(/^(\s*)names:[ \t]*\r?\n((?:\1[ \t]+.*\r?\n?)*)/gm)) {
    const kind = /^\s*kind:\s*["']?([A-Za-z0-9]+)/m.exec(match[2]);
    if (kind) kinds.add(kind[1]);
  }
  return kinds;
}


/** Every CRD schema of the workspace's files, through a per-file memo (`derive`). */
export function workspaceCrdSchemas(files: readonly string[], derive: (file: string) => readonly WorkspaceSchema[] | undefined): WorkspaceSchema[] {
  const out: WorkspaceSchema[] = [];
  for (const file of files) {
    if (!/\.ya?ml$/i.test(file)) continue;
    const schemas = derive(file);
    if (schemas) for (const schema of schemas) out.push(schema);
  }
  return out;
}

function tableOf(crd: Json): SchemaTable | undefined {
  const spec = crd.spec;
  if (!isObject(spec) || typeof spec.group !== 'string' || !isObject(spec.names) || typeof spec.names.kind !== 'string') return undefined;
  const kind = spec.names.kind;
  const table: SchemaTable = { kinds: {}, definitions: [] };
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
  // apiextensions.k8s.io/v1beta1 kept one schema for all versions in spec.validation.
  const shared = isObject(spec.validation) ? spec.validation.openAPIV3Schema : undefined;
  const names = versions.length > 0 ? versions.map((v) => v.name) : [spec.version];
  names.forEach((name, i) => {
    const schema = (isObject(versions[i]?.schema) ? (versions[i].schema as Json).openAPIV3Schema : undefined) ?? shared;
    if (typeof name !== 'string' || !isObject(schema)) return;
    const root = refOf(schema, table.definitions, true);
    if (typeof root === 'number') table.kinds[`${spec.group}/${name} ${kind}`] = root;
  });
  return Object.keys(table.kinds).length > 0 ? table : undefined;
}

function refOf(schema: Json, definitions: Definition[], top = false): FieldRef {
  if (schema['x-kubernetes-int-or-string'] === true) return 'x';
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && !properties) return 'u';
  switch (schema.type) {
    case 'string':
      return Array.isArray(schema.enum) && schema.enum.length > 0 ? 'e' : 's';
    case 'integer':
      return 'i';
    case 'number':
      return 'n';
    case 'boolean':
      return 'b';
    case 'array':
      return isObject(schema.items) ? wrap('[', refOf(schema.items, definitions)) : 'u';
    case 'object':
    case undefined:
      break;
    default:
      return 'u';
  }
  if (properties) {
    const definition: Definition = { p: {} };
    const at = definitions.push(definition) - 1;
    for (const [name, child] of Object.entries(properties)) {
      if (!isObject(child) || (top && (name === 'status' || name === 'apiVersion' || name === 'kind' || name === 'metadata'))) continue;
      definition.p[name] = refOf(child, definitions);
      if (child.default !== undefined && child.default !== null && typeof child.default !== 'object') (definition.d ??= {})[name] = String(child.default);
    }
    const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
    if (required.length > 0) definition.r = required;
    return at;
  }
  if (isObject(schema.additionalProperties)) return wrap('{', refOf(schema.additionalProperties, definitions));
  return 'u';
}

function wrap(wrapper: '[' | '{', ref: FieldRef): string {
  return `${wrapper}${ref}`;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
