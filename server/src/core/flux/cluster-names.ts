/**
 * Clusters are named as their users name them: by the folder that tells their starts apart
 * (`clusters/<name>`, `kubernetes/<name>/flux/...`), never by a Kustomization's name, which is
 * `flux-system` or `cluster-apps` in every cluster of a repository.
 */
import type { Cluster } from './graph';
import { clampToRoot, dirname } from './paths';

/** Folder names that say what a folder holds, not which cluster it is. */
const generic = new Set([
  'kubernetes', 'k8s', 'kube', 'flux', 'flux-system', 'fluxcd', 'cluster', 'clusters', 'apps', 'bootstrap', 'base', 'gitops',
  'deploy', 'deployments', 'manifests', 'infrastructure', 'infra', 'config', 'configs', 'sync', 'kustomize', 'main-cluster',
]);

export function nameClusters(clusters: readonly Cluster[]): void {
  const paths = clusters.map(startPath);
  const taken = new Set<string>();
  clusters.forEach((cluster, i) => {
    const name = cluster.origin.name ?? namedFolder(cluster) ?? distinguishing(paths, i) ?? lastSpecific(paths[i]) ?? paths[i][paths[i].length - 1] ?? 'cluster';
    let unique = name;
    for (let n = 2; taken.has(unique); n++) unique = `${name}-${n}`;
    taken.add(unique);
    cluster.name = unique;
  });
}

/** The folder a cluster starts from: its root's spec.path, or the folder of roots nothing applies. */
function startPath(cluster: Cluster): string[] {
  const root = cluster.root;
  const path = cluster.origin.how === 'Kustomizations nothing applies' ? dirname(root.object.file) : clampToRoot(root.path?.value ?? '').path;
  return path.split('/').filter((s) => s !== '');
}

function namedFolder(cluster: Cluster): string | undefined {
  for (const candidate of [clampToRoot(cluster.root.path?.value ?? '').path, cluster.root.object.file]) {
    const match = /(?:^|\/)clusters\/([^/]+)\//.exec(`${candidate}/`);
    if (match && !/\.ya?ml$/.test(match[1])) return match[1];
  }
  return undefined;
}

/**
 * The folder that tells this cluster's path from the one most like it: `kubernetes/main/flux`
 * beside `kubernetes/utility/flux` and `devenv/oci/flux` is `main`, not `kubernetes`; two
 * clusters under `kubernetes/helios/` that differ only below it are both `helios`.
 */
function distinguishing(paths: readonly string[][], i: number): string | undefined {
  const own = paths[i];
  let deepest = -1;
  paths.forEach((other, j) => {
    if (j === i) return;
    let at = 0;
    while (at < own.length && other[at] === own[at]) at++;
    if (at < own.length) deepest = Math.max(deepest, at);
  });
  // A folder that says what it holds (`apps`, `flux`) names no cluster: the one above it may.
  for (let at = deepest; at >= 0; at--) if (!generic.has(own[at].toLowerCase())) return own[at];
  return deepest >= 0 ? own[deepest] : undefined;
}

function lastSpecific(path: readonly string[]): string | undefined {
  for (let at = path.length - 1; at >= 0; at--) if (!generic.has(path[at].toLowerCase())) return path[at];
  return undefined;
}
