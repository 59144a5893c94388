/**
 * Builds the field-type table (core/kube/schema-table.ts) from the Kubernetes schema as the
 * `kubernetes-models` packages ship it: type declarations generated from the Kubernetes
 * OpenAPI document and from the CRDs of Flux, cert-manager, external-secrets and the
 * Prometheus operator, plus the JSON-schema validators generated from the same documents.
 * The declarations give the shape (property names, nesting, optional or required, the doc
 * text with its "Defaults to"); a validator, asked about one probe value per property, tells
 * an integer from a number, which the declarations both call `number`.
 *
 * Run by esbuild.mjs before type checking; nothing here is read at run time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { encodeTable, type Definition, type FieldRef, type SchemaTable } from '../../core/kube/schema-encoding';

/** The packages read, in the order their kinds are listed. */
export const SCHEMA_PACKAGES = [
  'kubernetes-models',
  '@kubernetes-models/flux-cd',
  '@kubernetes-models/cert-manager',
  '@kubernetes-models/external-secrets',
  '@kubernetes-models/prometheus-operator',
];

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; keyword: string; params: { type?: string } }> | null };

interface Pending {
  definition: Definition;
  /** Properties typed `number` somewhere in their shape: integer or number, asked of the validator. */
  numbers: Array<{ name: string; probe: unknown }>;
  validatorFile?: string;
}

export async function generateSchemaTable(root: string): Promise<SchemaTable> {
  const files = SCHEMA_PACKAGES.flatMap((name) => declarationFiles(path.join(root, 'node_modules', name)));
  const program = ts.createProgram(files, { noResolve: false, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
  const checker = program.getTypeChecker();
  const definitions: Definition[] = [];
  const pending: Pending[] = [];
  const indexOfType = new Map<ts.Type, number>();
  const kinds: Record<string, number> = {};

  const refOf = (type: ts.Type, onNumber?: (path: Array<'[' | '{'>) => void, wrappers: Array<'[' | '{'> = []): FieldRef => {
    type = checker.getNonNullableType(type);
    const alias = type.aliasSymbol?.name;
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'u';
    if (type.isUnion()) {
      const parts = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
      const has = (flags: ts.TypeFlags) => parts.some((t) => t.flags & flags);
      const stringy = has(ts.TypeFlags.StringLike);
      const numbery = has(ts.TypeFlags.NumberLike);
      if (parts.every((t) => t.flags & ts.TypeFlags.BooleanLike)) return 'b';
      // A union of string literals is an enum (`imagePullPolicy`, Service `type`).
      if (parts.every((t) => t.flags & ts.TypeFlags.StringLiteral)) return 'e';
      if (parts.every((t) => t.flags & ts.TypeFlags.StringLike)) return 's';
      if (parts.every((t) => t.flags & ts.TypeFlags.NumberLike)) return number(onNumber, wrappers);
      // Quantity takes any number (`cpu: 0.5`); IntOrString only whole ones.
      if (stringy && numbery) return alias === 'IQuantity' || alias === 'Quantity' ? 'q' : 'x';
      return 'u';
    }
    if (type.flags & ts.TypeFlags.StringLike) return 's';
    if (type.flags & ts.TypeFlags.BooleanLike) return 'b';
    if (type.flags & ts.TypeFlags.NumberLike) return number(onNumber, wrappers);
    if (checker.isArrayType(type)) {
      const element = checker.getTypeArguments(type as ts.TypeReference)[0];
      return `[${refOf(element, onNumber, [...wrappers, '['])}`;
    }
    const properties = checker.getPropertiesOfType(type);
    const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
    if (properties.length === 0) return index ? `{${refOf(index.type, onNumber, [...wrappers, '{'])}` : 'u';
    return definitionOf(type);
  };

  const number = (onNumber: ((path: Array<'[' | '{'>) => void) | undefined, wrappers: Array<'[' | '{'>): FieldRef => {
    onNumber?.(wrappers);
    return 'i';
  };

  const definitionOf = (type: ts.Type): number => {
    const known = indexOfType.get(type);
    if (known !== undefined) return known;
    const definition: Definition = { p: {} };
    const at = definitions.push(definition) - 1;
    indexOfType.set(type, at);
    const item: Pending = { definition, numbers: [], validatorFile: validatorOf(type) };
    pending.push(item);
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const name = property.getName();
      if (name === 'status' || name === 'apiVersion' || name === 'kind') continue;
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (!declaration) continue;
      definition.p[name] = refOf(checker.getTypeOfSymbolAtLocation(property, declaration), (wrappers) => {
        item.numbers.push({ name, probe: wrappers.reduceRight<unknown>((inner, w) => (w === '[' ? [inner] : { k: inner }), 0.5) });
      });
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(name);
      const fallback = defaultIn(ts.displayPartsToString(property.getDocumentationComment(checker)));
      if (fallback !== undefined) (definition.d ??= {})[name] = fallback;
    }
    if (required.length) definition.r = required;
    return at;
  };

  for (const file of program.getSourceFiles()) {
    if (!files.includes(path.resolve(file.fileName))) continue;
    for (const statement of file.statements) {
      if (!ts.isInterfaceDeclaration(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const type = checker.getTypeAtLocation(statement);
      const apiVersion = literalOf(checker, type, 'apiVersion');
      const kind = literalOf(checker, type, 'kind');
      if (!apiVersion || !kind || kind.endsWith('List')) continue;
      kinds[`${apiVersion} ${kind}`] ??= definitionOf(type);
    }
  }

  for (const item of pending) await askValidator(item);
  return { kinds, definitions };
}

/** `[[{i` with the innermost `i` turned into `n` when the validator accepts 0.5. */
function setNumber(ref: FieldRef, integer: boolean): FieldRef {
  return typeof ref === 'string' && ref.endsWith('i') && !integer ? `${ref.slice(0, -1)}n` : ref;
}

async function askValidator(item: Pending): Promise<void> {
  if (item.numbers.length === 0 || !item.validatorFile) return;
  const { validate } = (await import(pathToFileURL(item.validatorFile).href)) as { validate: Validate };
  for (const number of item.numbers) {
    validate({ [number.name]: number.probe });
    const integer = (validate.errors ?? []).some((e) => e.instancePath.startsWith(`/${number.name}`) && e.keyword === 'type' && e.params.type === 'integer');
    item.definition.p[number.name] = setNumber(item.definition.p[number.name], integer);
  }
}

/** The generated validator for a declared interface: its model file imports it from `_schemas/`. */
function validatorOf(type: ts.Type): string | undefined {
  const declaration = type.getSymbol()?.declarations?.[0];
  if (!declaration) return undefined;
  const declarationFile = declaration.getSourceFile().fileName;
  const model = declarationFile.replace(/\.d\.ts$/, '.js');
  if (!fs.existsSync(model)) return undefined;
  const match = /from"((?:\.\.?\/)+_schemas\/[A-Za-z0-9]+)(?:\.js)?"/.exec(fs.readFileSync(model, 'utf8'));
  return match ? path.resolve(path.dirname(model), `${match[1]}.js`) : undefined;
}

function literalOf(checker: ts.TypeChecker, type: ts.Type, name: string): string | undefined {
  const property = type.getProperty(name);
  if (!property?.valueDeclaration) return undefined;
  const value = checker.getTypeOfSymbolAtLocation(property, property.valueDeclaration);
  return value.isStringLiteral() ? value.value : undefined;
}

/**
 * The default a field's doc names: "Defaults to 1.", "Defaults to `Always`", "Default is 10".
 * Prose is not a value ("Defaults to the namespace of…", "Defaults to empty"): an unquoted
 * word that is an English function word or says "nothing" is dropped. Kept short: it goes
 * into a message.
 */
export function defaultIn(doc: string): string | undefined {
  const match = /\bDefaults? (?:to|is|value is)[: ]+(`[^`]{1,40}`|"[^"]{0,40}"|'[^']{1,40}'|[^\s,;()]{1,40}?)(?=[.,;)]?(?:\s|$))/i.exec(doc);
  if (!match) return undefined;
  // "Defaults to Always if :latest tag is specified, or IfNotPresent otherwise": no one default.
  const after = doc.slice(match.index + match[0].length);
  if (/^[.,;]?\s+(?:if|when|unless|for|on|or|depending|based)\b(?!\s+(?:not|omitted|unset|empty|left|absent|unspecified)\b)/i.test(after)) return undefined;
  const written = match[1];
  if (/^[`"']/.test(written)) {
    const value = written.slice(1, -1);
    // `Defaults to "".`: the empty string, shown as such.
    return value === '' ? '""' : value;
  }
  return /^[\w./:%*-]+$/.test(written) && !prose.has(written.toLowerCase()) && !/^[A-Z]\w*\.[A-Z]/.test(written) ? written : undefined;
}

/** Words that start prose, not a value, after "Defaults to". */
const prose = new Set(['the', 'a', 'an', 'to', 'its', 'it', 'this', 'that', 'be', 'being', 'what', 'whatever', 'one', 'any', 'all', 'each', 'every', 'same', 'current', 'just', 'entirely', 'used', 'use', 'using', 'defined', 'specified', 'set', 'unset', 'not', 'no', 'none', 'nil', 'null', 'nothing', 'empty', 'user', 'zero-value', 'lowercased']);

function declarationFiles(directory: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '_schemas' || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.d.ts') && entry.name !== 'index.d.ts') out.push(path.resolve(full));
    }
  };
  walk(directory);
  return out.sort();
}

/** Writes the table as a TypeScript module holding one JSON string: parsed on first use. */
export async function writeSchemaTable(root: string, outFile: string): Promise<{ kinds: number; definitions: number; bytes: number }> {
  const table = await generateSchemaTable(root);
  const json = encodeTable(table);
  const versions = SCHEMA_PACKAGES.map((name) => `${name}@${JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version}`).join(', ');
  const text = `// Generated by server/src/tools/field-types/generate.ts from ${versions}. Do not edit.\nexport const SCHEMA_TABLE_SOURCES = ${JSON.stringify(versions)};\nexport const SCHEMA_TABLE_JSON = ${JSON.stringify(json)};\n`;
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, text);
  return { kinds: Object.keys(table.kinds).length, definitions: table.definitions.length, bytes: json.length };
}
