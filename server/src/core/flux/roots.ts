/**
 * Where each cluster starts, and which Kustomizations render this repository at all.
 *
 * A Kustomization renders `spec.path` inside the artifact of its `spec.sourceRef`. Only those
 * whose source is this repository walk these files: the source a cluster's sync is set up
 * with (a FluxInstance, or a Kustomization that applies itself from here, as `flux bootstrap`
 * makes), a GitRepository whose url is this repository, or one `.render-lens.yaml` names. The
 * others render somebody else's files and never start a cluster here.
 *
 * A cluster starts where Flux does: a sync found in the repository, a Kustomization that
 * applies itself, or a cluster `.render-lens.yaml` declares. Only when none is found do the
 * Kustomizations that nothing applies become the starts (the caller's fallback).
 */
import { Memo } from '../memo';
import type { Node } from 'yaml';
import type { Range } from '../model';
import type { FileIndex } from '../workspace/file-index';
import type { K8sObject } from '../workspace/objects';
import type { FluxKustomization, SourceRef } from './flux-kustomization';
import type { ClusterOrigin } from './graph';
import { clampToRoot } from './paths';
import { treeRootOf, underRoot, type ArtifactRoot } from './artifact-roots';
import { normalizedUrl, sourceKey, type SourceObject, type SyncDeclaration } from './sources';
import type { Variable } from './variables';

/** `assumed`: nothing in the repository says so; it is the likeliest reading of a text-book layout. */
/** `root`: the folder of this repository the source's paths are read from, when not the root (a pushed artifact). */
export type SourceVerdict = { kind: 'this'; why: string; assumed?: true; root?: string } | { kind: 'external'; source: string; why: string };

export interface DeclaredCluster {
  name: string;
  /** The folder Flux renders for the cluster (its root), when declared. */
  path: string | undefined;
  file: string;
  range: Range;
  /** Variables (and names whose values are unknown) that reach the cluster from outside the repository. */
  variables: Variable[];
}

export interface DeclaredModel {
  clusters: DeclaredCluster[];
  /** Sources that are this repository, whatever their url says. */
  sources: Array<{ kind: string; name: string; namespace: string | undefined }>;
}

export interface SourceInputs {
  index: Pick<FileIndex, 'isDirectory'>;
  kustomizations: readonly FluxKustomization[];
  sources: readonly SourceObject[];
  syncs: readonly SyncDeclaration[];
  /** What each Kustomization renders when its path is read in this repository. */
  renders: ReadonlyMap<FluxKustomization, ReadonlySet<string>>;
  repositoryUrls: readonly string[];
  declared: DeclaredModel | undefined;
  /** Folders CI pushes as OCI artifacts: a sync's path may be read inside one. */
  artifactRoots: readonly ArtifactRoot[];
}

export interface ClusterStart {
  kustomization: FluxKustomization;
  origin: ClusterOrigin;
  /** The Flux version the sync's instance asks for. */
  fluxVersion?: SyncDeclaration['fluxVersion'];
}

export function classifySources(inputs: SourceInputs): { verdicts: Map<FluxKustomization, SourceVerdict>; roots: ClusterStart[] } {
  const { index, kustomizations, sources, renders, declared } = inputs;
  const urls = new Set(inputs.repositoryUrls.map(normalizedUrl));
  const thisSources = new Map<string, { why: string; root?: string }>();

  // A sync whose path is a folder here syncs this repository; one whose path is a folder of
  // an artifact CI pushes from here syncs that folder.
  const syncs: Array<{ sync: SyncDeclaration; root: string }> = [];
  for (const sync of inputs.syncs) {
    const root = treeRootOf(index, sync.path, inputs.artifactRoots);
    if (root === undefined) continue;
    syncs.push({ sync, root: root === '' ? '' : root.dir });
    const known =
      root === ''
        ? { why: `made by a ${sync.how} sync of this repository` }
        : { why: `made by a ${sync.how} sync of ${root.dir}/, which CI pushes as an OCI artifact (${root.file})`, root: root.dir };
    thisSources.set(sourceKey(sync.kind, sync.namespace, sync.name), known);
    if (sync.url && root === '') urls.add(normalizedUrl(sync.url));
  }
  for (const source of declared?.sources ?? []) thisSources.set(sourceKey(source.kind, source.namespace ?? '*', source.name), { why: 'declared in .render-lens.yaml' });

  // A Kustomization whose path (not the whole artifact) renders its own file is applied from
  // here: `flux bootstrap`'s flux-system, or a bootstrap folder applied once by hand.
  const selfApplied = kustomizations.filter((k) => {
    const path = k.path?.value;
    return path !== undefined && !path.includes('${') && clampToRoot(path).path !== '' && renders.get(k)?.has(k.object.file) === true;
  });
  for (const k of selfApplied) {
    const ref = k.sourceRef;
    if (!ref) continue;
    thisSources.set(sourceKey(ref.kind, ref.namespace ?? k.namespace, ref.name), { why: `Kustomization ${k.name} applies itself from ${k.object.file}` });
    const url = findSource(sources, ref, k.namespace)?.url;
    if (url) urls.add(normalizedUrl(url));
  }
  for (const source of sources) {
    if (source.url && urls.has(normalizedUrl(source.url))) thisSources.set(sourceKey(source.kind, source.namespace, source.name), { why: `its url ${source.url} is this repository` });
  }

  const roots = startsOf(syncs, selfApplied, declared, renders);
  // Without a start or a remote to compare with, a GitRepository whose url says nothing we
  // know is taken to be this repository when the path it is read at is a folder here.
  const guess = roots.length === 0 && urls.size === 0 ? (k: FluxKustomization) => k.path !== undefined && clampToRoot(k.path.value).path !== '' && index.isDirectory(clampToRoot(k.path.value).path) : () => false;
  const verdicts = new Map<FluxKustomization, SourceVerdict>();
  for (const k of kustomizations) verdicts.set(k, verdictOf(k, thisSources, sources, roots.length > 0, guess(k)));
  for (const root of roots) {
    if (verdicts.has(root.kustomization)) continue;
    const synced = syncs.find((s) => syncRoot(s.sync) === root.kustomization);
    const known = synced && thisSources.get(sourceKey(synced.sync.kind, synced.sync.namespace, synced.sync.name));
    verdicts.set(root.kustomization, known ? { kind: 'this', ...known } : { kind: 'this', why: `made by a ${root.origin.how} sync of this repository` });
  }
  return { verdicts, roots };
}

function verdictOf(k: FluxKustomization, thisSources: ReadonlyMap<string, { why: string; root?: string }>, sources: readonly SourceObject[], bootstrapped: boolean, pathIsHere: boolean): SourceVerdict {
  const ref = k.sourceRef;
  if (!ref) return { kind: 'this', assumed: true, why: 'no sourceRef' };
  const namespace = ref.namespace ?? k.namespace;
  const key = sourceKey(ref.kind, namespace, ref.name);
  const known = thisSources.get(key) ?? thisSources.get(sourceKey(ref.kind, '*', ref.name)) ?? (ref.namespace === undefined ? sameName(thisSources, ref) : undefined);
  if (known !== undefined) return { kind: 'this', ...known };
  const defined = findSource(sources, ref, k.namespace);
  if (defined && pathIsHere && defined.kind === 'GitRepository') return { kind: 'this', assumed: true, why: `assumed: no bootstrap or git remote says which repository this is, and ${k.path!.value} is a folder here` };
  if (defined) {
    const where = defined.url ? ` (${defined.url})` : '';
    return { kind: 'external', source: sourceKey(defined.kind, defined.namespace, defined.name), why: `${defined.kind} ${defined.name}${where} in ${defined.file} is not this repository` };
  }
  // `flux-system` is the source both bootstrap methods create; with no start found at all,
  // an undefined source is taken to be this repository (the text-book layout).
  // An OCI artifact, a bucket or an ExternalArtifact is built from somewhere we cannot see, even
  // from this repository (an ArtifactGenerator): its paths are not this repository's.
  if (ref.kind === 'GitRepository' && (!bootstrapped || ref.name === 'flux-system')) return { kind: 'this', assumed: true, why: `${ref.kind} ${ref.name} is not defined in the repository; assumed to be this repository` };
  return { kind: 'external', source: key, why: `${ref.kind} ${ref.name} is not defined in the repository (declare it under \`sources\` in .render-lens.yaml if it is this repository)` };
}

/** A source named alike in another namespace: the Kustomization's own namespace may be set later by kustomize. */
function sameName<T>(thisSources: ReadonlyMap<string, T>, ref: SourceRef): T | undefined {
  for (const [key, known] of thisSources) if (key.startsWith(`${ref.kind}/`) && key.endsWith(`/${ref.name}`)) return known;
  return undefined;
}

function findSource(sources: readonly SourceObject[], ref: SourceRef, namespace: string): SourceObject | undefined {
  const alike = sources.filter((s) => s.kind === ref.kind && s.name === ref.name);
  return alike.find((s) => s.namespace === (ref.namespace ?? namespace)) ?? (ref.namespace === undefined ? alike[0] : undefined);
}

/** One start per folder: declared clusters first, then Kustomizations that apply themselves, then syncs. */
function startsOf(syncs: ReadonlyArray<{ sync: SyncDeclaration; root: string }>, selfApplied: readonly FluxKustomization[], declared: DeclaredModel | undefined, renders: ReadonlyMap<FluxKustomization, ReadonlySet<string>>): ClusterStart[] {
  const byPath = new Map<string, ClusterStart>();
  for (const cluster of declared?.clusters ?? []) {
    if (cluster.path === undefined) continue;
    const path = clampToRoot(cluster.path).path;
    if (!byPath.has(path)) byPath.set(path, { kustomization: declaredRoot(cluster), origin: { how: 'declared in .render-lens.yaml', file: cluster.file, range: cluster.range, also: [], name: cluster.name } });
  }
  // A Kustomization that another one that applies itself renders is its child, not a start.
  const children = new Set<string>();
  for (const k of selfApplied) for (const other of selfApplied) if (other !== k && renders.get(other)?.has(k.object.file)) children.add(k.id);
  for (const k of selfApplied) {
    if (children.has(k.id)) continue;
    const path = clampToRoot(k.path!.value).path;
    const start = byPath.get(path);
    const how = /(^|\/)gotk-sync\.ya?ml$/.test(k.object.file) ? 'flux bootstrap' : 'self-applied Kustomization';
    if (start) start.origin.also.push({ file: k.object.file, range: k.nameRange });
    else byPath.set(path, { kustomization: k, origin: { how, file: k.object.file, range: k.nameRange, also: [] } });
  }
  for (const { sync, root } of syncs) {
    const path = underRoot(root, sync.path);
    const start = byPath.get(path);
    if (start) start.origin.also.push({ file: sync.file, range: sync.range });
    else byPath.set(path, { kustomization: syncRoot(sync), origin: { how: sync.how, file: sync.file, range: sync.range, also: [] }, ...(sync.fluxVersion ? { fluxVersion: sync.fluxVersion } : {}) });
  }
  return [...byPath.values()];
}

// Synthetic roots stay the same object while what they come from does: render trees are kept per root.
const syncRoots = new Memo<SyncDeclaration, FluxKustomization>();
const declaredRoots = new Memo<DeclaredCluster, FluxKustomization>();

/** The Kustomization the Flux Operator makes for a sync: named after it, in its namespace, on its source. */
export function syncRoot(sync: SyncDeclaration): FluxKustomization {
  return syncRoots.of(sync, () => synthetic(`${sync.file}#sync@${sync.range.start}`, sync.file, sync.range, sync.name, sync.namespace, sync.path, { kind: sync.kind, name: sync.name, namespace: sync.namespace, range: sync.range }));
}

function declaredRoot(cluster: DeclaredCluster): FluxKustomization {
  return declaredRoots.of(cluster, () => synthetic(`${cluster.file}#cluster:${cluster.name}`, cluster.file, cluster.range, cluster.name, 'flux-system', cluster.path ?? '', undefined));
}

function synthetic(id: string, file: string, range: Range, name: string, namespace: string, path: string, sourceRef: SourceRef | undefined): FluxKustomization {
  const object: K8sObject = {
    file,
    index: -1,
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    name,
    namespace,
    labels: new Map(),
    annotations: new Map(),
    document: { contents: null as Node | null },
    range,
  };
  return { id, object, name, namespace, nameRange: range, path: { value: path, range }, components: [], targetNamespace: undefined, postBuild: undefined, patches: [], sourceRef };
}
