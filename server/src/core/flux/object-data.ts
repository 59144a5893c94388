/**
 * The data of ConfigMaps and Secrets as a cluster receives them: the base object, generated
 * objects, and the overlay patches kustomize applies on the way (strategic merge, and JSON
 * 6902 ops on `/data/KEY`). Each key keeps a stack of layers, base first, the value in force last.
 */
import { isSeq, type Node } from 'yaml';
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';
import type { K8sObject } from '../workspace/objects';
import { parseYamlFile } from '../yaml/document';
import { mapEntries, mapGet, rangeOf, scalarText, seqItems } from '../yaml/nodes';
import { decodeScalar, sourceRange, type ScalarStyle } from '../yaml/scalar-text';
import type { GeneratorSpec, InlinePatch, KustomizeFile, PatchTarget } from './kustomize-file';
import { dirname, resolveInside } from './paths';

export interface DataLayer {
  file: string;
  /** The key (or patch op) that sets the value. */
  range: Range;
  /** undefined when the value cannot be known (SOPS-encrypted, produced elsewhere). */
  value: string | undefined;
  encrypted: boolean;
  via: 'data' | 'stringData' | 'patch' | 'generator' | 'external';
}

export interface ObjectData {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  namespace: string | undefined;
  file: string;
  range: Range;
  data: Map<string, DataLayer[]>;
  /** Keys cannot be known from the repository (e.g. an ExternalSecret's dataFrom). */
  opaque: boolean;
}

const sopsValue = /^ENC\[/;

function base64Text(value: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(value.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/** The data of a ConfigMap or Secret object as written, or undefined for other kinds. */
export function objectData(object: K8sObject): ObjectData | undefined {
  if (object.apiVersion === 'v1' && (object.kind === 'ConfigMap' || object.kind === 'Secret')) {
    const root = object.document.contents;
    const sops = mapGet(root, 'sops') !== undefined;
    const result: ObjectData = { kind: object.kind, name: object.name, namespace: object.namespace, file: object.file, range: object.range, data: new Map(), opaque: false };
    const add = (section: 'data' | 'stringData') => {
      for (const { key, keyNode, value } of mapEntries(mapGet(root, section))) {
        const text = scalarText(value) ?? '';
        const encrypted = sops || sopsValue.test(text);
        const decoded = encrypted ? undefined : object.kind === 'Secret' && section === 'data' ? base64Text(text) : text;
        result.data.set(key, [{ file: object.file, range: rangeOf(keyNode) ?? object.range, value: decoded, encrypted, via: section }]);
      }
    };
    add('data');
    if (object.kind === 'Secret') add('stringData');
    return result;
  }
  if (object.kind === 'ExternalSecret' && object.apiVersion.startsWith('external-secrets.io/')) return externalSecret(object);
  return undefined;
}

/** A Secret made by the External Secrets operator: keys are known, values are not. */
function externalSecret(object: K8sObject): ObjectData {
  const spec = mapGet(object.document.contents, 'spec');
  const result: ObjectData = {
    kind: 'Secret',
    name: scalarText(mapGet(spec, 'target', 'name')) ?? object.name,
    namespace: object.namespace,
    file: object.file,
    range: object.range,
    data: new Map(),
    opaque: mapGet(spec, 'dataFrom') !== undefined,
  };
  for (const item of seqItems(mapGet(spec, 'data'))) {
    const key = scalarText(mapGet(item, 'secretKey'));
    if (key) result.data.set(key, [{ file: object.file, range: rangeOf(mapGet(item, 'secretKey')) ?? object.range, value: undefined, encrypted: false, via: 'external' }]);
  }
  return result;
}

/** The object a configMapGenerator or secretGenerator produces. */
export function generatedData(generator: GeneratorSpec, kustomization: KustomizeFile, index: FileIndex): ObjectData {
  const result: ObjectData = { kind: generator.kind, name: generator.name, namespace: generator.namespace, file: kustomization.file, range: generator.range, data: new Map(), opaque: false };
  const dir = dirname(kustomization.file);
  const set = (key: string, layer: DataLayer) => result.data.set(key, [layer]);
  for (const literal of generator.literals) set(literal.key, { file: kustomization.file, range: literal.range, value: literal.literal, encrypted: false, via: 'generator' });
  for (const file of generator.files) {
    const path = resolveInside(dir, file.path);
    const text = path === undefined ? undefined : index.text(path);
    set(file.key, { file: path ?? kustomization.file, range: path && text !== undefined ? { start: 0, end: 0 } : file.range, value: text, encrypted: false, via: 'generator' });
  }
  for (const env of generator.envs) {
    const path = resolveInside(dir, env.value);
    const text = path === undefined ? undefined : index.text(path);
    if (path === undefined || text === undefined) continue;
    let offset = 0;
    for (const line of text.split('\n')) {
      const match = /^\s*([^#=\s][^=]*?)\s*=(.*)$/.exec(line);
      if (match) set(match[1], { file: path, range: { start: offset, end: offset + line.length }, value: match[2].replace(/\r$/, ''), encrypted: false, via: 'generator' });
      offset += line.length + 1;
    }
  }
  return result;
}

/** One patch document, with a way back from positions in its text to the file. */
interface PatchDoc {
  file: string;
  root: Node | null;
  target: PatchTarget | undefined;
  toFile(range: Range): Range;
}

function patchDocsOf(kustomization: KustomizeFile, index: FileIndex): PatchDoc[] {
  const docs: PatchDoc[] = [];
  const dir = dirname(kustomization.file);
  for (const ref of kustomization.patchFiles) {
    const path = resolveInside(dir, ref.value);
    const parsed = path === undefined ? undefined : index.parsed(path);
    if (!parsed || path === undefined) continue;
    for (const document of parsed.documents) docs.push({ file: path, root: document.contents, target: ref.target, toFile: (r) => r });
  }
  for (const patch of kustomization.inlinePatches) docs.push(...inlinePatchDocs(kustomization.file, patch, index));
  return docs;
}

/** Parses an inline patch (a string inside a YAML file) and maps its positions to the file. */
export function inlinePatchDocs(file: string, patch: InlinePatch, index: FileIndex): PatchDoc[] {
  const text = index.text(file);
  const node = patch.node;
  const mapped =
    text !== undefined && node?.range ? decodeScalar(text.slice(node.range[0], node.range[1]), (node.type ?? 'PLAIN') as ScalarStyle, node.range[0], (node.srcToken as { indent?: number } | undefined)?.indent ?? 0) : undefined;
  const usable = mapped !== undefined && mapped.value === patch.text;
  const toFile = (r: Range): Range => (usable ? sourceRange(mapped, r.start, r.end) : patch.range);
  return parseYamlFile(patch.text).documents.map((document) => ({ file, root: document.contents, target: patch.target, toFile }));
}

function matches(pattern: string | undefined, value: string): boolean {
  if (pattern === undefined || pattern === '') return true;
  if (pattern === value) return true;
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return false;
  }
}

function applies(doc: PatchDoc, object: ObjectData): boolean {
  if (doc.target) return matches(doc.target.kind, object.kind) && matches(doc.target.name, object.name) && (doc.target.group ?? '') === '';
  return scalarText(mapGet(doc.root, 'kind')) === object.kind && scalarText(mapGet(doc.root, 'metadata', 'name')) === object.name;
}

/** Applies one patch document's changes to the data of `object`, in place. */
function applyPatch(doc: PatchDoc, object: ObjectData): void {
  if (!applies(doc, object)) return;
  const push = (key: string, layer: DataLayer) => object.data.set(key, [...(object.data.get(key) ?? []), layer]);
  if (isSeq(doc.root)) {
    for (const op of seqItems(doc.root)) {
      const kind = scalarText(mapGet(op, 'op'));
      const path = scalarText(mapGet(op, 'path')) ?? '';
      const match = /^\/(data|stringData)\/(.+)$/.exec(path);
      if (!match) continue;
      const key = match[2].replace(/~1/g, '/').replace(/~0/g, '~');
      if (kind === 'remove') object.data.delete(key);
      else if (kind === 'add' || kind === 'replace') {
        const value = scalarText(mapGet(op, 'value')) ?? '';
        const secretData = object.kind === 'Secret' && match[1] === 'data';
        push(key, { file: doc.file, range: doc.toFile(rangeOf(op) ?? { start: 0, end: 0 }), value: secretData ? base64Text(value) : value, encrypted: sopsValue.test(value), via: 'patch' });
      }
    }
    return;
  }
  for (const section of ['data', 'stringData'] as const) {
    for (const { key, keyNode, value } of mapEntries(mapGet(doc.root, section))) {
      const text = scalarText(value);
      if (text === undefined) {
        object.data.delete(key); // `key: null` deletes in a strategic merge patch.
        continue;
      }
      const secretData = object.kind === 'Secret' && section === 'data';
      push(key, { file: doc.file, range: doc.toFile(rangeOf(keyNode) ?? { start: 0, end: 0 }), value: secretData ? base64Text(text) : text, encrypted: sopsValue.test(text), via: 'patch' });
    }
  }
}

/** A copy of `object` with the patches of each kustomization in `chain` applied, innermost first. */
export function patchedData(object: ObjectData, chain: readonly KustomizeFile[], index: FileIndex): ObjectData {
  const copy: ObjectData = { ...object, data: new Map([...object.data].map(([k, v]) => [k, [...v]])) };
  for (let i = chain.length - 1; i >= 0; i--) for (const doc of patchDocsOf(chain[i], index)) applyPatch(doc, copy);
  return copy;
}
