/**
 * Does an edit leave the Flux graph as it is? The engine drops the graph on every edit of a
 * file that holds a ConfigMap or a Secret, because such objects can be variable sources. But
 * the graph reads one only when a `substituteFrom` names it: a keystroke in a manifest of
 * ConfigMaps that nothing names (scripts, app settings) cannot change any render context, and
 * rebuilding the graph for it costs tens of milliseconds in a repository of a few thousand
 * files. This module answers, conservatively, for that case only.
 */
import type { FluxGraph } from '../flux/graph';
import type { K8sObject } from './objects';

/** What makes a file a graph input other than its ConfigMaps and Secrets (see engine.ts). */
export const otherGraphInput = /kustomize\.toolkit\.fluxcd\.io|kind:\s*(ExternalSecret|Kustomization|Component)\b|StrictPostBuildSubstitutions|Flux Version:/;

const namesByGraph = new WeakMap<FluxGraph, Set<string>>();

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
  const identities = (objects: readonly K8sObject[]) =>
    objects
      .filter((o) => o.kind === 'ConfigMap' || o.kind === 'Secret')
      .map((o) => `${o.apiVersion}\0${o.kind}\0${o.namespace ?? ''}\0${o.name}`)
      .join('\n');
  if (identities(objectsBefore) !== identities(afterObjects)) return false;
  const named = substituteFromNames(graph);
  return !named.has('$') && !afterObjects.some((o) => named.has(o.name));
}

/**
 * Every name a substituteFrom entry gives, as written and as patched by a parent, in any
 * cluster; `$` stands for a name with a variable in it, which could be any name.
 */
function substituteFromNames(graph: FluxGraph): Set<string> {
  let names = namesByGraph.get(graph);
  if (!names) {
    const all = new Set<string>();
    const add = (name: string) => all.add(name.includes('$') ? '$' : name);
    for (const k of graph.kustomizations) for (const ref of k.postBuild?.substituteFrom ?? []) add(ref.name);
    for (const cluster of graph.clusters) {
      for (const instance of cluster.instances) for (const ref of instance.postBuild?.substituteFrom ?? []) add(ref.name);
    }
    namesByGraph.set(graph, (names = all));
  }
  return names;
}
