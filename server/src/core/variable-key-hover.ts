/**
 * Hover on a key of a ConfigMap or Secret that Flux reads as variables (or on an inline
 * `substitute` entry): which render contexts read it, where it wins, and where it loses and
 * to which layer. The same standings INERT-VALUE judges by; Secret values are never shown.
 */
import type { WorkspaceView } from './model/workspace-view';
import type { VariableLayer } from './flux/variables';
import type { Hover } from './model/index';
import { standingsOf } from './render/layer-standing';
import { displayLayerValue, layerLocation, layerSource } from './render/values';

export function variableKeyHover(workspace: WorkspaceView, file: string, offset: number): Hover | undefined {
  const found = layerAt(workspace, file, offset);
  if (!found) return undefined;
  const { name, layer } = found;
  const textOf = (f: string) => workspace.index.text(f);
  const standings = standingsOf(workspace.fluxGraph(), name, layer.file, layer.range);
  const lines = [`**\`${name}\`**: a Flux variable (${layerSource(layer)}), ${displayLayerValue(layer)} here.`, ''];
  const wins = standings.filter((s) => s.wins);
  lines.push(
    wins.length === 0
      ? `No context receives this value: every one that reads it takes another layer, so editing it changes nothing (INERT-VALUE).`
      : `Read by ${standings.length} context${standings.length === 1 ? '' : 's'}; it wins in ${wins.length}:`,
  );
  for (const { instance, winner, wins: mine } of standings) {
    const label = `${instance.cluster.name}/${instance.kustomization.name}`;
    lines.push(mine ? `- ${label}: **wins**` : `- ${label}: loses to ${displayLayerValue(winner)} from ${layerSource(winner)} — ${layerLocation(winner, textOf)}`);
  }
  return { range: layer.range, markdown: lines.join('\n') };
}

/** The variable layer written at `offset` of `file`, as some context reads it. */
function layerAt(workspace: WorkspaceView, file: string, offset: number): { name: string; layer: VariableLayer } | undefined {
  for (const cluster of workspace.fluxGraph().clusters) {
    for (const instance of cluster.instances) {
      if (!instance.postBuild) continue;
      for (const variable of instance.variables.vars.values()) {
        for (const layer of variable.layers) {
          if (layer.file === file && offset >= layer.range.start && offset <= layer.range.end) return { name: variable.name, layer };
        }
      }
    }
  }
  return undefined;
}
