/**
 * A kustomize `kustomization.yaml`, reduced to what decides which files are rendered and
 * how: every reference keeps its source range so problems point at the line that made them.
 */
import type { Node, Scalar } from 'yaml';
import type { Range } from '../model';
import { asScalar, mapGet, rangeOf, scalarText, seqItems, stringMap } from '../yaml/nodes';

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
  labels: Map<string, string>;
  annotations: Map<string, string>;
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
  labelSelector?: string;
}

export interface KustomizeFile {
  file: string;
  resources: Ref[];
  components: Ref[];
  /** `patches[].path`, `patchesStrategicMerge` paths and `patchesJson6902[].path`. */
  patchFiles: Array<Ref & { target: PatchTarget | undefined }>;
  inlinePatches: InlinePatch[];
  generators: GeneratorSpec[];
  generatorLabels: Map<string, string>;
  generatorAnnotations: Map<string, string>;
  /** commonLabels, labels[].pairs and commonAnnotations: they reach every resource. */
  commonLabels: Map<string, string>;
  commonAnnotations: Map<string, string>;
  namespace: string | undefined;
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
  return { kind: get('kind'), name: get('name'), namespace: get('namespace'), group: get('group'), labelSelector: get('labelSelector') };
}

function generators(node: Node | undefined, kind: 'ConfigMap' | 'Secret'): GeneratorSpec[] {
  return seqItems(node).map((item) => {
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
      labels: stringMap(mapGet(item, 'options', 'labels')),
      annotations: stringMap(mapGet(item, 'options', 'annotations')),
    };
  });
}

export function readKustomizeFile(file: string, root: Node | null | undefined): KustomizeFile {
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
  const commonLabels = stringMap(mapGet(root, 'commonLabels'));
  for (const entry of seqItems(mapGet(root, 'labels'))) for (const [k, v] of stringMap(mapGet(entry, 'pairs'))) commonLabels.set(k, v);
  return {
    file,
    resources: refs(mapGet(root, 'resources')).concat(refs(mapGet(root, 'bases'))),
    components: refs(mapGet(root, 'components')),
    patchFiles,
    inlinePatches,
    generators: generators(mapGet(root, 'configMapGenerator'), 'ConfigMap').concat(generators(mapGet(root, 'secretGenerator'), 'Secret')),
    generatorLabels: stringMap(mapGet(root, 'generatorOptions', 'labels')),
    generatorAnnotations: stringMap(mapGet(root, 'generatorOptions', 'annotations')),
    commonLabels,
    commonAnnotations: stringMap(mapGet(root, 'commonAnnotations')),
    namespace: scalarText(mapGet(root, 'namespace')),
  };
}

