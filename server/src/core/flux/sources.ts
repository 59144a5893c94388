/**
 * Where Flux reads from: the source objects a repository defines (GitRepository,
 * OCIRepository, Bucket, ExternalArtifact) and the syncs that start a cluster without a
 * Kustomization file of their own — a Flux Operator `FluxInstance`, or the values of the
 * `flux-instance` Helm chart (in a HelmRelease, a values file, a helmfile release). Only
 * Kustomizations on a source that is this repository walk this repository's files.
 */
import { Memo } from '../memo';
import type { Node } from 'yaml';
import type { Range } from '../model';
import { apiGroup, type K8sObject } from '../workspace/objects';
import { asMap, mapGet, rangeOf, scalarText, seqItems } from '../yaml/nodes';

export const sourceKinds = new Set(['GitRepository', 'OCIRepository', 'Bucket', 'ExternalArtifact']);

export interface SourceObject {
  kind: string;
  name: string;
  namespace: string;
  /** `spec.url` as written; undefined for kinds without one. */
  url: string | undefined;
  /** `spec.ref.tag`, when the source pins one. */
  tag?: string;
  file: string;
  range: Range;
}

/** A cluster's sync, as the Flux Operator (or `flux bootstrap`) sets it up: a source and a Kustomization, both named `name`. */
export interface SyncDeclaration {
  /** How the sync is declared, for `render-lens clusters`. */
  how: 'FluxInstance' | 'flux-instance HelmRelease' | 'flux-instance values';
  file: string;
  /** Where `sync.path` is written (else `sync`). */
  range: Range;
  namespace: string;
  kind: string;
  name: string;
  url: string | undefined;
  path: string;
  /** `distribution.version` of the instance (a semver range such as `2.7.x`), where it is written. */
  fluxVersion?: { text: string; file: string; range: Range };
}

export function readSourceObject(object: K8sObject): SourceObject | undefined {
  if (!sourceKinds.has(object.kind) || !apiGroup(object.apiVersion).startsWith('source.')) return undefined;
  const url = scalarText(mapGet(object.document.contents, 'spec', 'url'));
  const tag = scalarText(mapGet(object.document.contents, 'spec', 'ref', 'tag'));
  return { kind: object.kind, name: object.name, namespace: object.namespace ?? 'default', url, ...(tag ? { tag } : {}), file: object.file, range: rangeOf(mapGet(object.document.contents, 'metadata', 'name')) ?? object.range };
}

// Per document root (kept while its file's version is): the roots made from a sync stay the same objects.
const declared = new Memo<Node, SyncDeclaration[]>();

/** The syncs a document declares: a FluxInstance's `spec.sync`, or `instance.sync` in flux-instance chart values. */
export function syncDeclarations(file: string, root: Node | null, object: K8sObject | undefined): SyncDeclaration[] {
  if (!root) return [];
  return declared.of(root, () => readSyncDeclarations(file, root, object));
}

function readSyncDeclarations(file: string, root: Node, object: K8sObject | undefined): SyncDeclaration[] {
  if (object?.kind === 'FluxInstance' && apiGroup(object.apiVersion) === 'fluxcd.controlplane.io') {
    const namespace = object.namespace ?? 'flux-system';
    return declaration(file, mapGet(root, 'spec'), namespace, 'FluxInstance');
  }
  if (object?.kind === 'HelmRelease' && apiGroup(object.apiVersion) === 'helm.toolkit.fluxcd.io') {
    const spec = mapGet(root, 'spec');
    const namespace = scalarText(mapGet(spec, 'targetNamespace')) ?? object.namespace ?? 'flux-system';
    return declaration(file, mapGet(spec, 'values', 'instance'), namespace, 'flux-instance HelmRelease');
  }
  if (object) return [];
  // A values file of the chart (read by valuesFrom through a generated ConfigMap, or by a
  // helmfile), or a helmfile whose releases carry the values inline.
  const direct = declaration(file, mapGet(root, 'instance'), 'flux-system', 'flux-instance values');
  if (direct.length > 0) return direct;
  return seqItems(mapGet(root, 'releases')).flatMap((release) => {
    const namespace = scalarText(mapGet(release, 'namespace')) ?? 'flux-system';
    return seqItems(mapGet(release, 'values')).flatMap((values) => declaration(file, mapGet(values, 'instance'), namespace, 'flux-instance values'));
  });
}

/** The sync of an instance (a FluxInstance's spec, or the chart's `instance` values), with the Flux version it asks for. */
function declaration(file: string, instance: Node | undefined, namespace: string, how: SyncDeclaration['how']): SyncDeclaration[] {
  const sync = mapGet(instance, 'sync');
  if (!asMap(sync)) return [];
  const versionNode = mapGet(instance, 'distribution', 'version');
  const version = scalarText(versionNode);
  const versionRange = rangeOf(versionNode);
  const fluxVersion = version !== undefined && versionRange ? { fluxVersion: { text: version, file, range: versionRange } } : {};
  const pathNode = mapGet(sync, 'path');
  const path = scalarText(pathNode);
  const url = scalarText(mapGet(sync, 'url'));
  // A templated value (helmfile, Helm) is not a path we can follow.
  if (path === undefined || /\{\{|\$\{/.test(path)) return [];
  const range = rangeOf(pathNode) ?? rangeOf(sync);
  if (!range) return [];
  return [{ how, file, range, namespace, kind: scalarText(mapGet(sync, 'kind')) ?? 'GitRepository', name: scalarText(mapGet(sync, 'name')) ?? namespace, url, path, ...fluxVersion }];
}

/**
 * One spelling per repository: `https://github.com/o/r.git`, `ssh://git@github.com/o/r` and
 * `git@github.com:o/r` are the same repository; `oci://ghcr.io/o/r` keeps its path.
 */
export function normalizedUrl(url: string): string {
  let u = url.trim().toLowerCase();
  u = u.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  u = u.replace(/^[^@/]+@/, '');
  // scp-like `host:owner/repo` (not a port).
  u = u.replace(/^([^/:]+):(?!\d+\/)/, '$1/');
  u = u.replace(/:\d+\//, '/');
  return u.replace(/\/+$/, '').replace(/\.git$/, '');
}

export function sourceKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}
