/**
 * Where one written variable value stands: in every render context that reads it, does it
 * win, or which layer beats it? Read through the graph's public model only (clusters, their
 * instances, each instance's variable set and each variable's layers, winner first), so the
 * answer follows the model whatever builds it.
 */
import type { FluxGraph, KustomizationInstance } from '../flux/graph';
import type { VariableLayer } from '../flux/variables';
import type { Range } from '../model';

export interface Standing {
  instance: KustomizationInstance;
  /** The layer that wins in this context: the one asked about, or the one that beats it. */
  winner: VariableLayer;
  wins: boolean;
}

/** Every context that reads `name` from the value written at `file`/`range`, sorted by cluster and Kustomization. */
export function standingsOf(graph: FluxGraph, name: string, file: string, range: Range): Standing[] {
  const standings: Standing[] = [];
  for (const cluster of graph.clusters) {
    for (const instance of cluster.instances) {
      const variable = instance.postBuild ? instance.variables.vars.get(name) : undefined;
      if (!variable || variable.layers.length === 0) continue;
      const mine = variable.layers.findIndex((layer) => layer.file === file && layer.range.start < range.end && range.start < layer.range.end);
      if (mine === -1) continue;
      standings.push({ instance, winner: variable.layers[0], wins: mine === 0 });
    }
  }
  return standings.sort((a, b) => compareInstances(a.instance, b.instance));
}

export function compareInstances(a: KustomizationInstance, b: KustomizationInstance): number {
  const ka = `${a.cluster.name}\0${a.kustomization.namespace}\0${a.kustomization.name}`;
  const kb = `${b.cluster.name}\0${b.kustomization.namespace}\0${b.kustomization.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
