import { isAlias, isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import { goDurationError } from '../fleet/go-duration';
import { fleetDocuments, type FleetDocument } from '../fleet/options';
import { findField, fleetYaml, goTypeName, misplacedKeys, type FleetType, type StructType } from '../fleet/schema';
import { closest } from '../fleet/suggest';
import { goScalar, nodeRange, rewriteScalar, type GoScalar } from '../fleet/yaml';
import type { Range } from '../model';
import { formatFloat32G, formatFloat64G } from '../goyaml/v2/go-number';
import { GoFloat, GoInt, type GoValue } from '../goyaml/v2/value';
import type { Rule } from './rule';

/**
 * FLEET-FIELD: a fleet.yaml value that does not decode into Fleet's typed structs, changes
 * on the way, or sits under a key Fleet ignores.
 *
 * Fleet reads fleet.yaml with go-yaml v2 (YAML 1.1) into Go structs: `helm.version: 1.10` is
 * the number 1.1 and fails the bundle; a misspelt key is dropped without a word.
 */
export const fleetField: Rule = {
  id: 'FLEET-FIELD',
  severity: 'error',
  summary: 'A fleet.yaml value that does not decode into Fleet\'s types, or a key Fleet ignores.',
  docs: `# FLEET-FIELD

## What it does
Decodes fleet.yaml the way Fleet does — go-yaml v2 typing (YAML 1.1), then encoding/json into
Fleet's \`FleetYAML\` struct — and reports:
- **error**: a value of the wrong type, with the error Fleet stops on, e.g. \`helm.version: 1.10\`
  (a number where a string is required), \`paused: "true"\` (a string where a bool is required),
  \`helm.values\` written as a list;
- **warning**: a number or bool that Fleet quietly turns into a different string — \`name: 1.10\`
  becomes \`"1.1"\`, \`labels: {tier: yes}\` becomes \`"true"\`;
- **warning**: a key Fleet does not know, with the closest field name (\`targetNamespace\` is
  spelt \`namespace\` in fleet.yaml).

## Why is this bad?
YAML 1.1 reads \`1.10\` as the number 1.1, \`0755\` as 493 and \`yes\` as true. Below \`helm\`,
\`diff\`, \`targets\` and every other field fleet.yaml inherits from the bundle spec, nothing is
converted back, so Fleet fails the whole bundle with \`reading fleet.yaml: error unmarshaling
JSON: … json: cannot unmarshal number into Go struct field HelmOptions.helm.version of type
string\`. Where Fleet does convert (the bundle \`name\`, \`labels\`, a customization's \`name\` and
selectors), it keeps the YAML 1.1 number's text, not yours. Unknown keys are ignored: a
misspelt \`targetCustomisations\` deploys the same thing everywhere.

## Example
\`\`\`yaml
defaultNamspace: web
helm:
  chart: podinfo
  version: 6.10
  timeoutSeconds: "300"
\`\`\`

## Fix
Quote strings that look like numbers or bools (\`version: "6.10"\`), write bools and numbers
unquoted, and use the field names Fleet knows. The quick fixes do each of these.
`,
  *check(context) {
    for (const doc of fleetDocuments(context.file, context.documents())) {
      if (doc.source !== 'fleet.yaml') continue;
      for (const problem of checkFleetYaml(doc, context.text)) {
        const fixes = problem.fix ? [{ title: problem.fix.title, edits: [{ range: problem.fix.range, newText: problem.fix.newText }], preferred: true }] : [];
        yield { range: problem.range, severity: problem.severity, message: problem.message, fixes };
      }
    }
  },
};

/*
 * fleet.yaml as Fleet decodes it into FleetYAML (see fleet/schema.ts): which values fail to
 * decode, which are silently changed on the way (a number or bool turned into a string), and
 * which keys Fleet ignores. Messages quote encoding/json's error, which is what Fleet reports
 * as `reading fleet.yaml: error unmarshaling JSON: while decoding JSON: json: …`.
 */

interface FieldProblem {
  range: Range;
  severity: 'error' | 'warning';
  message: string;
  fix?: { title: string; range: Range; newText: string };
}

interface Where {
  /** The path as the author reads it: `targets[0].helm.version`. */
  path: string;
  /** Go's error context: the struct being decoded and the JSON field names from the root. */
  struct: string;
  stack: string[];
  /** Whether sigs.k8s.io/yaml still knows the Go type here (see schema.ts). */
  coerce: boolean;
}

function checkFleetYaml(doc: FleetDocument, text: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const sites = doc.sites;
  const readsFleetYaml = 'Fleet cannot read fleet.yaml';

  const walk = (node: Node | null | undefined, type: FleetType, where: Where): void => {
    if (node === null || node === undefined || isAlias(node) || type.kind === 'any') return;
    if (isScalar(node)) return scalar(node, type, where);
    const kind = isMap(node) ? 'object' : isSeq(node) ? 'array' : undefined;
    if (kind === undefined) return;
    if (type.kind === 'values' && kind === 'object') return unsupportedFloats(node, where);
    if (type.kind === 'struct' && isMap(node)) return fields(node, type, where);
    if (type.kind === 'map' && isMap(node)) {
      for (const pair of node.items) walk(pair.value as Node, type.value, { ...where, path: `${where.path}.${keyText(pair.key as Node)}` });
      return;
    }
    if (type.kind === 'list' && isSeq(node)) {
      node.items.forEach((item, i) => walk(item as Node, type.item, { ...where, path: `${where.path}[${i}]` }));
      return;
    }
    problems.push({ range: nodeRange(node) ?? { start: 0, end: 0 }, severity: 'error', message: `${where.path} must be ${expected(type)}, not ${kind === 'object' ? 'a map' : 'a list'}: ${readsFleetYaml} (${jsonError(kind, type, where)}).` });
  };

  const fields = (map: YAMLMap, type: StructType, where: Where): void => {
    const written = map.items.map((p) => keyText(p.key as Node));
    for (const pair of map.items) {
      const keyNode = pair.key as Node;
      if (!isScalar(keyNode)) continue;
      const key = keyText(keyNode);
      if (key === '<<') continue;
      const field = findField(type, key);
      const path = where.path === '' ? key : `${where.path}.${key}`;
      if (!field) {
        problems.push(unknownKey(keyNode, key, path, type, where.path === '', written));
        continue;
      }
      walk(pair.value as Node, field.type, { path, struct: type.name.split('.').pop() ?? type.name, stack: [...where.stack, field.name], coerce: where.coerce && !field.promoted });
    }
  };

  const unknownKey = (keyNode: Node, key: string, path: string, type: StructType, atRoot: boolean, written: string[]): FieldProblem => {
    const range = nodeRange(keyNode) ?? { start: 0, end: 0 };
    const misplaced = atRoot && type === fleetYaml ? misplacedKeys[key] : undefined;
    const suggestion = misplaced?.suggest ?? closest(key, type.fields.map((f) => f.name));
    const rename = misplaced ? misplaced.rename : suggestion !== undefined;
    let message = `Fleet ignores \`${path}\`: ${type.name.split('.').pop()} has no field \`${key}\`, and unknown keys are dropped without a word.`;
    if (suggestion) message += ` Did you mean \`${suggestion}\`?`;
    const site = isScalar(keyNode) ? sites.get(keyNode) : undefined;
    const newText = rename && suggestion && site && !written.includes(suggestion) ? rewriteScalar(site, suggestion, text) : undefined;
    return { range, severity: 'warning', message, ...(newText !== undefined ? { fix: { title: `Rename to \`${suggestion}\``, range, newText } } : {}) };
  };

  const scalar = (node: Node, type: FleetType, where: Where): void => {
    const value = goScalar(node, sites);
    if (!value || value.kind === 'null') return;
    const range = nodeRange(node) ?? { start: 0, end: 0 };
    if (value.value instanceof GoFloat && !Number.isFinite(value.value.value)) {
      problems.push({ range, severity: 'error', message: `${where.path}: YAML 1.1 reads \`${value.text}\` as ${formatFloat64G(value.value.value)}, which JSON cannot hold: ${readsFleetYaml} (json: unsupported value: ${formatFloat64G(value.value.value)}).` });
      return;
    }
    const error = (fix?: FieldProblem['fix']) => {
      const reads = value.kind === 'string' ? `\`${value.text}\` is a string` : `YAML 1.1 reads \`${value.text}\` as the ${value.kind} ${show(value.value)}`;
      problems.push({ range, severity: 'error', message: `${where.path} must be ${expected(type)}, but ${reads}: ${readsFleetYaml} (${jsonError(value.kind, type, where, value.value)}).`, ...(fix ? { fix } : {}) });
    };
    switch (type.kind) {
      case 'string':
      case 'duration':
        if (value.kind !== 'string') {
          if (type.kind === 'string' && where.coerce) return coerced(value, range, where);
          return error(quoteFix(value, range));
        }
        if (type.kind === 'duration') {
          const bad = goDurationError(value.text);
          if (bad) problems.push({ range, severity: 'error', message: `${where.path} must be a Go duration such as 5m or 1h30m: ${readsFleetYaml} (${bad}).` });
        }
        return;
      case 'bool':
        if (value.kind === 'bool') return;
        return error(value.kind === 'string' && /^(true|false)$/i.test(value.text) ? { title: `Write the bool ${value.text.toLowerCase()}`, range, newText: value.text.toLowerCase() } : undefined);
      case 'int':
        if (value.kind === 'number' && isWhole(value.value)) return;
        return error(value.kind === 'string' && /^-?\d+$/.test(value.text) ? { title: `Write the number ${value.text}`, range, newText: value.text } : undefined);
      case 'intOrString':
        if (value.kind === 'string' || (value.kind === 'number' && isWhole(value.value))) return;
        return error();
      default:
        return error();
    }
  };

  /** sigs.k8s.io/yaml turns the number or bool into a string; say so when the text changes. */
  const coerced = (value: GoScalar, range: Range, where: Where): void => {
    const becomes = value.value instanceof GoInt ? value.value.value.toString() : value.value instanceof GoFloat ? formatFloat32G(value.value.value) : String(value.value);
    if (becomes === value.text) return;
    const fix = quoteFix(value, range);
    problems.push({
      range,
      severity: 'warning',
      message: `${where.path}: YAML 1.1 reads \`${value.text}\` as the ${value.kind} ${show(value.value)}, and Fleet turns it into the string "${becomes}", not "${value.text}". Quote it.`,
      ...(fix ? { fix } : {}),
    });
  };

  /** A .inf or .nan anywhere in helm.values stops the YAML-to-JSON step. */
  const unsupportedFloats = (node: Node, where: Where): void => {
    if (isMap(node)) for (const pair of node.items) unsupportedFloats(pair.value as Node, { ...where, path: `${where.path}.${keyText(pair.key as Node)}` });
    else if (isSeq(node)) node.items.forEach((item, i) => unsupportedFloats(item as Node, { ...where, path: `${where.path}[${i}]` }));
    else if (isScalar(node)) {
      const value = goScalar(node, sites);
      if (value?.value instanceof GoFloat && !Number.isFinite(value.value.value)) {
        problems.push({
          range: nodeRange(node) ?? { start: 0, end: 0 },
          severity: 'error',
          message: `${where.path}: YAML 1.1 reads \`${value.text}\` as ${formatFloat64G(value.value.value)}, which JSON cannot hold: ${readsFleetYaml} (json: unsupported value: ${formatFloat64G(value.value.value)}). Quote it if it is a string.`,
        });
      }
    }
  };

  const quoteFix = (value: GoScalar, range: Range): FieldProblem['fix'] => {
    if (!value.site || value.site.style !== 'PLAIN' || text.slice(range.start, range.end).includes('\n')) return undefined;
    return { title: `Quote it: "${value.text}"`, range, newText: JSON.stringify(value.text) };
  };

  const root = doc.spec;
  fields(root, fleetYaml, { path: '', struct: 'FleetYAML', stack: [], coerce: true });
  return problems;
}

function keyText(node: Node | null): string {
  return isScalar(node) ? String(node.value) : '';
}

function isWhole(value: GoValue): boolean {
  return value instanceof GoInt || (value instanceof GoFloat && Number.isInteger(value.value));
}

function show(value: GoValue): string {
  if (value instanceof GoInt) return value.value.toString();
  if (value instanceof GoFloat) return formatFloat64G(value.value);
  return String(value);
}

function expected(type: FleetType): string {
  switch (type.kind) {
    case 'string':
      return 'a string';
    case 'bool':
      return 'true or false';
    case 'int':
      return 'a whole number';
    case 'intOrString':
      return 'a whole number or a string such as "25%"';
    case 'duration':
      return 'a Go duration string such as 5m';
    case 'list':
      return 'a list';
    case 'values':
    case 'map':
    case 'struct':
      return 'a map';
    case 'any':
      return 'a value';
  }
}

/** encoding/json's UnmarshalTypeError text for this field. */
function jsonError(kind: string, type: FleetType, where: Where, value?: GoValue): string {
  if (type.kind === 'values') return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
  if (type.kind === 'duration' || type.kind === 'intOrString') return `json: cannot unmarshal ${kind} into Go value of type ${type.kind === 'duration' ? 'string' : 'int32'}`;
  const shown = kind === 'number' && type.kind === 'int' && value !== undefined ? `number ${show(value)}` : kind;
  return `json: cannot unmarshal ${shown} into Go struct field ${where.struct}.${where.stack.join('.')} of type ${goTypeName(type)}`;
}
