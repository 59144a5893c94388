/**
 * Does an edit leave the Flux graph as it is? The engine drops the graph on every edit of a
 * file that holds a ConfigMap or a Secret, because such objects can be variable sources. But
 * the graph reads one only when a `substituteFrom` names it: a keystroke in a manifest of
 * ConfigMaps that nothing names (scripts, app settings) cannot change any render context, and
 * rebuilding the graph for it costs tens of milliseconds in a repository of a few thousand
 * files. This module answers, conservatively, for that case only.
 */
import { Memo } from '../memo';
import type { FluxGraph } from '../flux/graph';
import type { K8sObject } from './objects';
import { changedSpan, type ChangedSpan } from './text-change';

/** What makes a file a graph input other than its ConfigMaps and Secrets (see engine.ts). */
export const otherGraphInput = /kustomize\.toolkit\.fluxcd\.io|source\.toolkit\.fluxcd\.io|fluxcd\.controlplane\.io|\bsync:|kind:\s*(ExternalSecret|ClusterExternalSecret|Kustomization|Component)\b|StrictPostBuildSubstitutions|Flux Version:/;

/**
 * The graph inputs among those whose own text rules read (Flux objects, an ExternalSecret,
 * what sets strict mode), so a workspace check never skips them. A kustomize Kustomization or
 * Component is a graph input too, but what a rule reports in one is a variable it defines
 * (holdsDefinitions), a postBuild its patches give a child Flux Kustomization
 * (writesPostBuild), or something about a `$`.
 */
export const fluxInput = /kustomize\.toolkit\.fluxcd\.io|kind:\s*(Cluster)?ExternalSecret\b|StrictPostBuildSubstitutions|Flux Version:/;

/** Longer than any of those literals, and than `kind:` or a kind name with the end after it. */
const reach = 32;

/**
 * Whether `after` matches otherGraphInput, knowing that `before`, the version it was edited
 * from, does not: only a match that overlaps the edit, or ends right before it, can be new.
 * Such a match lies within `reach` of the edit, but for the whitespace between `kind:` and the
 * kind name, which is skipped on the way out. A keystroke in a 50,000-line manifest so looks
 * at a few hundred characters instead of two megabytes.
 */
export function otherGraphInputAfterEdit(before: string, after: string, edit?: ChangedSpan): boolean {
  const { start, newEnd } = edit ?? changedSpan(before, after);
  let from = Math.max(0, start - reach);
  while (from > 0 && /\s/.test(after[from - 1])) from--;
  let to = Math.min(after.length, newEnd + reach);
  while (to < after.length && /\s/.test(after[to])) to++;
  const low = Math.max(0, from - reach);
  for (let high = Math.min(after.length, to + reach); ; high = Math.min(after.length, high + reach)) {
    const match = otherGraphInput.exec(after.slice(low, high));
    // A kind name that ends where the slice does may go on past it (`\b` looks one further).
    if (!match || high === after.length || match.index + match[0].length < high - low) return match !== null;
  }
}

const namesByGraph = new Memo<FluxGraph, Set<string>>();

/**
 * True when the graph stays right after `file` changed: the file is rendered only as a
 * resource (not a patch or a generator input), holds the same ConfigMaps and Secrets (kind,
 * namespace, name) before and after, and no `substituteFrom` of any Kustomization names any of
 * them. The caller has ruled out the other graph inputs (`otherGraphInput`) in both versions.
 */
export function editKeepsGraph(graph: FluxGraph, file: string, objectsBefore: readonly K8sObject[], objectsAfter: () => readonly K8sObject[]): boolean {
  if (graph.contextsOf(file).some((c) => c.rendered.role !== 'resource' || c.rendered.generator !== undefined)) return false;
  // Only now the new version is read: the cheap answers above need no objects.
  const afterObjects = objectsAfter();
  if (!sameSources(objectsBefore, afterObjects)) return false;
  const named = substituteFromNames(graph);
  return !named.has('$') && !afterObjects.some((o) => named.has(o.name));
}

/** The same ConfigMaps and Secrets (apiVersion, kind, namespace, name), in the same order. */
function sameSources(before: readonly K8sObject[], after: readonly K8sObject[]): boolean {
  const isSource = (o: K8sObject) => o.kind === 'ConfigMap' || o.kind === 'Secret';
  let j = 0;
  for (const a of before) {
    if (!isSource(a)) continue;
    while (j < after.length && !isSource(after[j])) j++;
    const b = after[j++];
    if (!b || a.apiVersion !== b.apiVersion || a.kind !== b.kind || a.namespace !== b.namespace || a.name !== b.name) return false;
  }
  for (; j < after.length; j++) if (isSource(after[j])) return false;
  return true;
}

/**
 * Every name a substituteFrom entry gives, as written and as patched by a parent, in any
 * cluster; `$` stands for a name with a variable in it, which could be any name.
 */
function substituteFromNames(graph: FluxGraph): Set<string> {
  return namesByGraph.of(graph, () => {
    const all = new Set<string>();
    const add = (name: string) => all.add(name.includes('$') ? '$' : name);
    for (const k of graph.kustomizations) for (const ref of k.postBuild?.substituteFrom ?? []) add(ref.name);
    for (const cluster of graph.clusters) {
      for (const instance of cluster.instances) for (const ref of instance.postBuild?.substituteFrom ?? []) add(ref.name);
    }
    return all;
  });
}
