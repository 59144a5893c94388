/**
 * Flux Kustomization objects (`kustomize.toolkit.fluxcd.io` v1, v1beta2, v1beta1), reduced
 * to what decides what they render and with which variables. Every value keeps its range.
 */
import { Memo } from '../memo';
import { isMap, type Node } from 'yaml';
import type { Range } from '../model';
import type { K8sObject } from '../workspace/objects';
import { apiGroup } from '../workspace/objects';
import { asScalar, mapEntries, mapGet, rangeOf, resolveAlias, scalarText, seqItems } from '../yaml/nodes';
import type { InlinePatch, PatchTarget, Ref } from './kustomize-file';

export const fluxKustomizeGroup = 'kustomize.toolkit.fluxcd.io';
const fluxVersions = new Set(['v1', 'v1beta2', 'v1beta1']);

export interface InlineVariable {
  name: string;
  value: string;
  /** Where the entry is written: the Kustomization's file, or a parent's patch. */
  file: string;
  keyRange: Range;
  valueRange: Range;
}

export interface SubstituteFrom {
  kind: string;
  name: string;
  optional: boolean;
  /** Where the entry is written: the Kustomization's file, or a parent's patch. */
  file: string;
  range: Range;
}

export interface PostBuild {
  range: Range;
  substitute: InlineVariable[];
  substituteFrom: SubstituteFrom[];
  strategy: 'WithVariables' | 'Always';
  /** Where this postBuild was written: the object itself or a parent's patch. */
  file: string;
}

export interface FluxKustomization {
  /** `file#index`: stable identity within the workspace. */
  id: string;
  object: K8sObject;
  name: string;
  namespace: string;
  nameRange: Range;
  path: Ref | undefined;
  components: Ref[];
  targetNamespace: string | undefined;
  postBuild: PostBuild | undefined;
  /** `spec.patches`: they apply to what this Kustomization renders, including child Kustomizations. */
  patches: InlinePatch[];
  /** `spec.sourceRef`: the artifact `spec.path` is read from (its namespace defaults to the Kustomization's). */
  sourceRef: SourceRef | undefined;
}

export interface SourceRef {
  kind: string;
  name: string;
  /** As written; undefined means the Kustomization's own namespace. */
  namespace: string | undefined;
  range: Range;
}

export function isFluxKustomization(object: K8sObject): boolean {
  const [, version] = object.apiVersion.split('/');
  return object.kind === 'Kustomization' && apiGroup(object.apiVersion) === fluxKustomizeGroup && fluxVersions.has(version);
}

function refOf(node: Node | undefined): Ref | undefined {
  const value = scalarText(node);
  const range = rangeOf(node);
  return value !== undefined && range ? { value, range } : undefined;
}

/** `root`: the document, where an alias among the values (`APP: *app`) finds its anchor. */
export function readPostBuild(node: Node | undefined, file: string, root?: Node | null): PostBuild | undefined {
  if (!node || !rangeOf(node)) return undefined;
  const substitute: InlineVariable[] = mapEntries(mapGet(node, 'substitute')).flatMap(({ key, keyNode, value }) => {
    const text = scalarText(resolveAlias(value, root)) ?? '';
    const keyRange = rangeOf(keyNode);
    return keyRange ? [{ name: key, value: text, file, keyRange, valueRange: rangeOf(value) ?? keyRange }] : [];
  });
  const substituteFrom = seqItems(mapGet(node, 'substituteFrom')).map((item) => readSubstituteFrom(item, file, rangeOf(node)!));
  return { range: rangeOf(node)!, substitute, substituteFrom, strategy: scalarText(mapGet(node, 'substituteStrategy')) === 'Always' ? 'Always' : 'WithVariables', file };
}

/** A node's range without what trails a block map (its last line break and comments). */
export function tightRange(node: Node | null | undefined): Range | undefined {
  const range = rangeOf(node);
  if (!range || !isMap(node) || node.items.length === 0) return range;
  const last = node.items[node.items.length - 1];
  const end = tightRange(last.value as Node | null) ?? rangeOf(last.key as Node | null);
  return end ? { start: range.start, end: end.end } : range;
}

export function readSubstituteFrom(item: Node | undefined, file: string, fallback: Range): SubstituteFrom {
  return {
    kind: scalarText(mapGet(item, 'kind')) ?? '',
    name: scalarText(mapGet(item, 'name')) ?? '',
    optional: scalarText(mapGet(item, 'optional')) === 'true',
    file,
    range: tightRange(item) ?? fallback,
  };
}

function readPatches(node: Node | undefined): InlinePatch[] {
  return seqItems(node).flatMap((item) => {
    const patchNode = mapGet(item, 'patch');
    const patch = refOf(patchNode);
    if (!patch) return [];
    const t = mapGet(item, 'target');
    const get = (key: string) => scalarText(mapGet(t, key));
    const target: PatchTarget | undefined = t
      ? { kind: get('kind'), name: get('name'), namespace: get('namespace'), group: get('group'), version: get('version'), labelSelector: get('labelSelector'), annotationSelector: get('annotationSelector') }
      : undefined;
    return [{ text: patch.value, range: patch.range, target, node: asScalar(patchNode) }];
  });
}

// Objects of the index's file models live as long as the file's version: read each once.
const readObjects = new Memo<K8sObject, FluxKustomization>();

/** The Kustomization `object` describes; the same (unchanging) value for the same object. */
export function readFluxKustomization(object: K8sObject): FluxKustomization {
  return readObjects.of(object, readUncached);
}

function readUncached(object: K8sObject): FluxKustomization {
  const root = object.document.contents;
  const spec = mapGet(root, 'spec');
  return {
    id: `${object.file}#${object.index}`,
    object,
    name: object.name,
    namespace: object.namespace ?? 'default',
    nameRange: rangeOf(mapGet(root, 'metadata', 'name')) ?? object.range,
    path: refOf(mapGet(spec, 'path')),
    components: seqItems(mapGet(spec, 'components')).flatMap((item) => refOf(item) ?? []),
    targetNamespace: scalarText(mapGet(spec, 'targetNamespace')),
    postBuild: readPostBuild(mapGet(spec, 'postBuild'), object.file, root),
    patches: readPatches(mapGet(spec, 'patches')),
    sourceRef: readSourceRef(mapGet(spec, 'sourceRef')),
  };
}

function readSourceRef(node: Node | undefined): SourceRef | undefined {
  const range = tightRange(node);
  const name = scalarText(mapGet(node, 'name'));
  if (!range || name === undefined) return undefined;
  return { kind: scalarText(mapGet(node, 'kind')) ?? 'GitRepository', name, namespace: scalarText(mapGet(node, 'namespace')), range };
}
