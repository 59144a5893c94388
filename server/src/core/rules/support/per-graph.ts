/**
 * What a rule derives from the whole Flux graph, made once per graph. Rules run once per
 * file, and a repository has thousands of files: a rule that walked every instance of the
 * graph on each of them made a workspace check quadratic.
 */
import { Memo } from '../../memo';
import type { FluxGraph, KustomizationInstance } from '../../flux/graph';

const memos = new Memo<FluxGraph, Map<string, unknown>>();

export function perGraph<T>(graph: FluxGraph, key: string, build: (graph: FluxGraph) => T): T {
  const byKey = memos.of(graph, () => new Map());
  if (!byKey.has(key)) byKey.set(key, build(graph));
  return byKey.get(key) as T;
}

/**
 * Items of every instance (in cluster and instance order), by the file each is written in;
 * `itemsOf` lists an instance's items with their files.
 */
export function instanceItemsByFile<T>(graph: FluxGraph, itemsOf: (instance: KustomizationInstance) => Iterable<{ file: string; item: T }>): Map<string, T[]> {
  const byFile = new Map<string, T[]>();
  for (const cluster of graph.clusters) {
    for (const instance of cluster.instances) {
      for (const { file, item } of itemsOf(instance)) {
        const list = byFile.get(file);
        if (list) list.push(item);
        else byFile.set(file, [item]);
      }
    }
  }
  return byFile;
}

/**
 * Whether `file` holds a postBuild, or an entry of one, that an instance reads: the Flux
 * Kustomization itself, or a parent's kustomize patch (inline in a kustomization file, or a
 * patch file of its own) that gives a child its postBuild. MISSING-VAR-SOURCE and
 * SUBSTITUTION-SKIPPED report there, whatever else the file holds.
 */
export function writesPostBuild(graph: FluxGraph, file: string): boolean {
  return perGraph(graph, 'files that write a postBuild', postBuildFiles).has(file);
}

function postBuildFiles(graph: FluxGraph): Set<string> {
  const files = new Set<string>();
  for (const cluster of graph.clusters) {
    for (const instance of cluster.instances) {
      const postBuild = instance.postBuild;
      if (postBuild) {
        files.add(postBuild.file);
        for (const entry of postBuild.substitute) files.add(entry.file);
        for (const entry of postBuild.substituteFrom) files.add(entry.file);
      }
      for (const source of instance.variables.sources) files.add(source.ref.file);
    }
  }
  return files;
}
