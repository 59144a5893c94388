/**
 * A kustomize `kustomization.yaml`, reduced to what decides which files are rendered and
 * how: every reference keeps its source range so problems point at the line that made them.
 */
import { Memo } from '../memo';
import type { Node, Scalar } from 'yaml';
import type { Range } from '../model';
import { asScalar, mapEntries, mapGet, mergedStringMap, rangeOf, scalarText, seqItems } from '../yaml/nodes';

/** The label or annotation that makes kustomize-controller skip substitution for a resource. */
export const substituteKey = 'kustomize.toolkit.fluxcd.io/substitute';

export interface Ref {
  value: string;
  range: Range;
}

export interface GeneratorSpec {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  namespace: string | undefined;
  range: Range;
  /** `files`: `key=path` or `path`; the key defaults to the file's base name. */
  files: Array<Ref & { key: string; path: string }>;
  envs: Ref[];
  literals: Array<Ref & { key: string; literal: string }>;
  labels: ReadonlyMap<string, string>;
  annotations: ReadonlyMap<string, string>;
  /** `create` (default) makes a new object; `merge`/`replace` change one of the same name from a base. */
  behavior: 'create' | 'merge' | 'replace';
  /**
   * kustomize appends a content hash to the name unless `disableNameSuffixHash: true` (in the
   * generator's options or generatorOptions). Flux looks variables up by the exact name, so a
   * hashed ConfigMap is never found by its plain name.
   */
  hashSuffix: boolean;
  /** Where `kustomize.toolkit.fluxcd.io/substitute: disabled` reaches the generated object. */
  optOut: Range | undefined;
}

export interface InlinePatch {
  /** The patch text, and where it sits in the kustomization file. */
  text: string;
  range: Range;
  target: PatchTarget | undefined;
  /** The scalar holding the patch, to map positions inside it back to the file. */
  node: Scalar | undefined;
}

export interface PatchTarget {
  kind?: string;
  name?: string;
  namespace?: string;
  group?: string;
  version?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

export interface KustomizeFile {
  file: string;
  /** `kind: Component`: its patches and transformers run on the including kustomization's resources. */
  isComponent: boolean;
  resources: Ref[];
  components: Ref[];
  /** `patches[].path`, `patchesStrategicMerge` paths and `patchesJson6902[].path`. */
  patchFiles: Array<Ref & { target: PatchTarget | undefined }>;
  inlinePatches: InlinePatch[];
  generators: GeneratorSpec[];
  generatorLabels: ReadonlyMap<string, string>;
  generatorAnnotations: ReadonlyMap<string, string>;
  /** commonLabels, labels[].pairs and commonAnnotations: they reach every resource. */
  commonLabels: ReadonlyMap<string, string>;
  commonAnnotations: ReadonlyMap<string, string>;
  namespace: string | undefined;
  namePrefix: string;
  nameSuffix: string;
  /** Where commonLabels/labels/commonAnnotations carry the substitute opt-out to every resource. */
  optOut: Range | undefined;
  /** The components this kustomization includes, as read by the walk (filled in by render-tree). */
  componentFiles: KustomizeFile[];
}

function refs(node: Node | undefined): Ref[] {
  return seqItems(node).flatMap((item) => {
    const value = scalarText(item);
    const range = rangeOf(item);
    return value !== undefined && range ? [{ value, range }] : [];
  });
}

function target(node: Node | undefined): PatchTarget | undefined {
  if (!node) return undefined;
  const get = (key: string) => scalarText(mapGet(node, key));
  return {
    kind: get('kind'),
    name: get('name'),
    namespace: get('namespace'),
    group: get('group'),
    version: get('version'),
    labelSelector: get('labelSelector'),
    annotationSelector: get('annotationSelector'),
  };
}

/** The `kustomize.toolkit.fluxcd.io/substitute: disabled` entry of a labels/annotations map. */
export function optOutIn(...maps: Array<Node | undefined>): Range | undefined {
  for (const map of maps) {
    for (const { key, keyNode, value } of mapEntries(map)) {
      if (key !== substituteKey || scalarText(value) !== 'disabled') continue;
      const start = rangeOf(keyNode)?.start;
      const end = rangeOf(value)?.end;
      if (start !== undefined && end !== undefined) return { start, end };
    }
  }
  return undefined;
}

function generators(node: Node | undefined, kind: 'ConfigMap' | 'Secret', options: Node | undefined): GeneratorSpec[] {
  const noHash = (n: Node | undefined) => scalarText(mapGet(n, 'disableNameSuffixHash')) === 'true';
  return seqItems(node).map((item) => {
    const own = mapGet(item, 'options');
    const behavior = scalarText(mapGet(item, 'behavior'));
    const files = refs(mapGet(item, 'files')).map((ref) => {
      const eq = ref.value.indexOf('=');
      const path = eq === -1 ? ref.value : ref.value.slice(eq + 1);
      const key = eq === -1 ? (path.split('/').pop() ?? path) : ref.value.slice(0, eq);
      return { ...ref, key, path };
    });
    const envs = refs(mapGet(item, 'envs'));
    const env = mapGet(item, 'env');
    const envText = scalarText(env);
    if (envText !== undefined && rangeOf(env)) envs.push({ value: envText, range: rangeOf(env)! });
    const literals = refs(mapGet(item, 'literals')).map((ref) => {
      const eq = ref.value.indexOf('=');
      return { ...ref, key: eq === -1 ? ref.value : ref.value.slice(0, eq), literal: eq === -1 ? '' : ref.value.slice(eq + 1) };
    });
    return {
      kind,
      name: scalarText(mapGet(item, 'name')) ?? '',
      namespace: scalarText(mapGet(item, 'namespace')),
      range: rangeOf(item) ?? { start: 0, end: 0 },
      files,
      envs,
      literals,
      labels: mergedStringMap(mapGet(options, 'labels'), mapGet(own, 'labels')),
      annotations: mergedStringMap(mapGet(options, 'annotations'), mapGet(own, 'annotations')),
      behavior: behavior === 'merge' || behavior === 'replace' ? behavior : 'create',
      hashSuffix: !noHash(own) && !noHash(options),
      optOut: optOutIn(mapGet(own, 'labels'), mapGet(own, 'annotations'), mapGet(options, 'labels'), mapGet(options, 'annotations')),
    };
  });
}

// A base is read by every overlay that lists it, in every graph built while it is unchanged:
// read each root node once. Each reader gets its own componentFiles (the walk fills them in).
const readFiles = new Memo<object, KustomizeFile>();

export function readKustomizeFile(file: string, root: Node | null | undefined): KustomizeFile {
  if (root === null || root === undefined) return readUncached(file, root);
  return { ...readFiles.ofAlong(root, file, () => readUncached(file, root)), componentFiles: [] };
}

function readUncached(file: string, root: Node | null | undefined): KustomizeFile {
  const patchFiles: KustomizeFile['patchFiles'] = [];
  const inlinePatches: InlinePatch[] = [];
  for (const item of seqItems(mapGet(root, 'patches')).concat(seqItems(mapGet(root, 'patchesJson6902')))) {
    const path = mapGet(item, 'path');
    const patch = mapGet(item, 'patch');
    const pathText = scalarText(path);
    if (pathText !== undefined && rangeOf(path)) patchFiles.push({ value: pathText, range: rangeOf(path)!, target: target(mapGet(item, 'target')) });
    const patchText = scalarText(patch);
    if (patchText !== undefined && rangeOf(patch)) inlinePatches.push({ text: patchText, range: rangeOf(patch)!, target: target(mapGet(item, 'target')), node: asScalar(patch) });
  }
  for (const ref of refs(mapGet(root, 'patchesStrategicMerge'))) {
    // An entry is a path, or (rarely) the patch itself inline.
    if (/\n/.test(ref.value) || /^\s*(apiVersion|kind):/m.test(ref.value)) inlinePatches.push({ text: ref.value, range: ref.range, target: undefined, node: undefined });
    else patchFiles.push({ ...ref, target: undefined });
  }
  const labelPairs = seqItems(mapGet(root, 'labels')).map((entry) => mapGet(entry, 'pairs'));
  const commonLabels = mergedStringMap(mapGet(root, 'commonLabels'), ...labelPairs);
  const generatorOptions = mapGet(root, 'generatorOptions');
  return {
    file,
    isComponent: scalarText(mapGet(root, 'kind')) === 'Component',
    resources: refs(mapGet(root, 'resources')).concat(refs(mapGet(root, 'bases'))),
    components: refs(mapGet(root, 'components')),
    patchFiles,
    inlinePatches,
    generators: generators(mapGet(root, 'configMapGenerator'), 'ConfigMap', generatorOptions).concat(generators(mapGet(root, 'secretGenerator'), 'Secret', generatorOptions)),
    generatorLabels: mergedStringMap(mapGet(generatorOptions, 'labels')),
    generatorAnnotations: mergedStringMap(mapGet(generatorOptions, 'annotations')),
    commonLabels,
    commonAnnotations: mergedStringMap(mapGet(root, 'commonAnnotations')),
    namespace: scalarText(mapGet(root, 'namespace')),
    namePrefix: scalarText(mapGet(root, 'namePrefix')) ?? '',
    nameSuffix: scalarText(mapGet(root, 'nameSuffix')) ?? '',
    optOut: optOutIn(mapGet(root, 'commonLabels'), ...labelPairs, mapGet(root, 'commonAnnotations')),
    componentFiles: [],
  };
}

