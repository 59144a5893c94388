/**
 * The Flux model as Render Lens sees it, for users to check and correct: each cluster, where
 * it starts and how that was found, what it renders from, its variable sources (with file and
 * line, or why they are not visible), the Kustomizations on other sources and those nothing
 * applies. `render-lens clusters` and "Render Lens: Show Clusters" print it.
 */
import type { WorkspaceView } from '../model/workspace-view';
import type { Cluster, ExternalKustomization, FluxGraph } from '../flux/graph';
import type { FluxKustomization } from '../flux/flux-kustomization';
import type { Range } from '../model';
import { LineIndex } from '../positions';
import { treeRootOf } from '../flux/artifact-roots';

export interface Place {
  file: string;
  line: number;
}

export interface ClusterVariableSource {
  kind: string;
  name: string;
  /** The namespaces it is read in (each Kustomization looks in its own). */
  namespaces: string[];
  /** How many Kustomizations of the cluster read it. */
  readBy: number;
  /** Where it is defined, when the cluster applies it from the repository. */
  at?: Place;
  /** Why it is not visible (or why its keys are not). */
  unseen?: string;
}

export interface ClusterReport {
  name: string;
  found: string;
  root: Place & { path: string };
  alsoDeclaredAt: Place[];
  sources: string[];
  strict: boolean;
  strictReason: string;
  fluxVersion: string | null;
  kustomizations: number;
  variableSources: ClusterVariableSource[];
  declaredVariables: string[];
  external: ExternalReport[];
}

export interface ExternalReport {
  kustomization: string;
  at: Place;
  source: string;
  why: string;
}

export interface ClustersReport {
  version: 1;
  clusters: ClusterReport[];
  /** Every Kustomization on another source: what it renders is not in this repository. */
  external: ExternalReport[];
  /** Kustomizations on this repository that no cluster applies. */
  unapplied: Array<{ kustomization: string; at: Place }>;
  /** Files with a Flux Kustomization that their folder's kustomization.yaml does not list. */
  unlisted: string[];
  /**
   * FluxInstance syncs whose path is no folder of this repository: they sync another tree
   * (often an OCI artifact CI builds from a subfolder of this one), so they start no cluster.
   */
  otherTrees: Array<{ at: Place; how: string; source: string; path: string }>;
}

export function describeClusters(workspace: WorkspaceView): ClustersReport {
  const graph = workspace.fluxGraph();
  const place = placer(workspace);
  const external = (e: ExternalKustomization): ExternalReport => ({ kustomization: `${e.kustomization.namespace}/${e.kustomization.name}`, at: place(e.kustomization.object.file, e.kustomization.nameRange), source: e.source, why: e.why });
  return {
    version: 1,
    clusters: graph.clusters.map((cluster) => describeCluster(graph, cluster, place, external)),
    external: graph.external.map(external),
    unapplied: graph.unapplied.map((k) => ({ kustomization: `${k.namespace}/${k.name}`, at: place(k.object.file, k.nameRange) })),
    unlisted: [...graph.unlisted],
    otherTrees: graph.syncs
      .filter((sync) => treeRootOf(workspace.index, sync.path, graph.artifactRoots) === undefined)
      .map((sync) => ({ at: place(sync.file, sync.range), how: sync.how, source: `${sync.kind} ${sync.url ?? `${sync.namespace}/${sync.name}`}`, path: sync.path })),
  };
}

function describeCluster(graph: FluxGraph, cluster: Cluster, place: (file: string, range: Range) => Place, external: (e: ExternalKustomization) => ExternalReport): ClusterReport {
  const sources = new Map<string, ClusterVariableSource>();
  for (const instance of cluster.instances) {
    for (const { ref, object, note } of instance.variables.sources) {
      const at = object ? place(object.file, object.range) : undefined;
      const unseen = object?.opaque
        ? 'its keys come from outside the repository (dataFrom or a template)'
        : object
          ? undefined
          : (note ?? (ref.optional ? 'optional, and not applied from the repository' : 'not applied from the repository (made by hand, Terraform or a bootstrap script?)'));
      // One entry per object as written: a component applied in every namespace is one file.
      const key = `${ref.kind}/${ref.name}/${at ? `${at.file}:${at.line}` : ''}/${unseen ?? ''}`;
      let source = sources.get(key);
      if (!source) sources.set(key, (source = { kind: ref.kind, name: ref.name, namespaces: [], readBy: 0, ...(at ? { at } : {}), ...(unseen ? { unseen } : {}) }));
      if (!source.namespaces.includes(instance.namespace)) source.namespaces.push(instance.namespace);
      source.readBy++;
    }
  }
  for (const source of sources.values()) source.namespaces.sort();
  const used = new Set(cluster.instances.map((i) => i.kustomization));
  return {
    name: cluster.name,
    found: cluster.origin.how,
    root: { ...place(cluster.origin.file, cluster.origin.range), path: cluster.root.path?.value ?? '' },
    alsoDeclaredAt: cluster.origin.also.map((at) => place(at.file, at.range)),
    sources: [...new Set([...used].map((k) => sourceLabel(graph, k)))].sort(),
    strict: cluster.strictMode.strict,
    strictReason: cluster.strictMode.reason,
    fluxVersion: cluster.fluxVersion ?? null,
    kustomizations: cluster.instances.length,
    variableSources: [...sources.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name) || (a.at?.file ?? '').localeCompare(b.at?.file ?? '')),
    declaredVariables: cluster.declaredVariables.map((v) => v.name).sort(),
    external: cluster.external.map(external),
  };
}

function sourceLabel(graph: FluxGraph, k: FluxKustomization): string {
  const ref = k.sourceRef;
  const verdict = graph.sourceOf(k);
  const name = ref ? `${ref.kind} ${ref.namespace ?? k.namespace}/${ref.name}` : 'no sourceRef';
  return `${name}: ${verdict.why}`;
}

function placer(workspace: WorkspaceView): (file: string, range: Range) => Place {
  const lines = new Map<string, LineIndex | undefined>();
  return (file, range) => {
    if (!lines.has(file)) {
      const text = workspace.index.text(file);
      lines.set(file, text === undefined ? undefined : new LineIndex(text));
    }
    return { file, line: (lines.get(file)?.positionAt(range.start).line ?? 0) + 1 };
  };
}

export function formatClusters(report: ClustersReport): string {
  let out = '';
  if (report.clusters.length === 0) {
    const why = report.otherTrees.length > 0 ? 'every FluxInstance sync names a path that is no folder of this repository (below)' : 'no FluxInstance, flux bootstrap sync or Flux Kustomization on this repository';
    out += `No Flux cluster found: ${why}.\n`;
  }
  if (report.otherTrees.length > 0) {
    out += 'Syncs of another tree (their path is no folder of this repository, nor of a folder its CI pushes with `flux push artifact --path`):\n';
    for (const t of report.otherTrees) out += `  ${t.at.file}:${t.at.line} — ${t.how} syncs ${t.source} at ${t.path}, not a folder here\n`;
    out += '\n';
  }
  for (const c of report.clusters) {
    out += `${c.name}\n`;
    out += `  starts at ${c.root.path || './'} — ${c.found}, ${c.root.file}:${c.root.line}\n`;
    for (const also of c.alsoDeclaredAt) out += `    also declared at ${also.file}:${also.line}\n`;
    for (const source of c.sources) out += `  source: ${source}\n`;
    out += `  ${c.kustomizations} Kustomization${c.kustomizations === 1 ? '' : 's'}; ${c.strict ? 'strict' : 'not strict'} (${c.strictReason})\n`;
    if (c.variableSources.length > 0) out += '  variables from:\n';
    for (const v of c.variableSources) {
      const where = v.at ? `${v.at.file}:${v.at.line}` : 'not visible';
      const namespaces = v.namespaces.length === 1 ? `in ${v.namespaces[0]}` : `in ${v.namespaces.length} namespaces`;
      out += `    ${v.kind} ${v.name} — ${where}${v.unseen ? ` (${v.unseen})` : ''}; read by ${v.readBy} Kustomization${v.readBy === 1 ? '' : 's'} ${namespaces}\n`;
    }
    if (c.declaredVariables.length > 0) out += `  declared in .render-lens.yaml: ${c.declaredVariables.join(', ')}\n`;
    for (const e of c.external) out += `  renders another source: ${e.kustomization} (${e.at.file}:${e.at.line}) — ${e.why}\n`;
    out += '\n';
  }
  const others = report.external.filter((e) => !report.clusters.some((c) => c.external.some((x) => x.at.file === e.at.file && x.at.line === e.at.line)));
  if (others.length > 0) {
    out += 'On other sources (never walked here):\n';
    for (const e of others) out += `  ${e.kustomization} (${e.at.file}:${e.at.line}) — ${e.why}\n`;
    out += '\n';
  }
  if (report.unapplied.length > 0) {
    out += 'On this repository, applied by no cluster (not checked as part of one):\n';
    for (const u of report.unapplied) out += `  ${u.kustomization} (${u.at.file}:${u.at.line})${report.unlisted.includes(u.at.file) ? ' — no kustomization.yaml lists this file' : ''}\n`;
  }
  return out;
}
