/**
 * `render-lens export`: every render context's variables as a complete, diffable snapshot —
 * the winning layer under a stable name, its file and line, where to write to change it, the
 * value (a Secret's only as a hash prefix, so exports can be committed and still show a
 * rotation), and the lower layers that set it and lost. Sorted, so two exports of the same
 * repository are byte-identical. Read through the graph's public model alone.
 */
import type { FluxGraph, KustomizationInstance } from '../flux/graph';
import type { VariableLayer } from '../flux/variables';
import { LineIndex } from '../positions';
import { compareInstances } from '../render/layer-standing';
import { shownLayerValue, type ShownValue } from '../render/values';

export const exportVersion = 1;

export interface ExportedLayer {
  /** Stable: `inline substitute`, `substituteFrom[n] ConfigMap NAME, base object`, `… overlay patch`, `parent patch: …`. */
  layer: string;
  file: string;
  line: number;
  value: ShownValue;
}

export interface ExportedVariable extends ExportedLayer {
  name: string;
  /**
   * Where an edit changes what this context receives: the winning layer, with the other
   * contexts the same edit changes (where that layer wins too), `cluster/kustomization`, sorted.
   */
  write_to: { file: string; line: number; also_changes: string[] };
  /** The lower layers that set the variable and lost, the next in line first. */
  also_set_by: ExportedLayer[];
}

export interface ExportedContext {
  cluster: string;
  kustomization: { namespace: string; name: string; file: string; line: number };
  /** Does post-build substitution run (postBuild, and variables or strategy Always)? */
  substitutes: boolean;
  strict: boolean;
  /** A source Render Lens cannot read: a variable not listed may still be defined. */
  open: boolean;
  variables: ExportedVariable[];
}

export interface VariablesExport {
  version: number;
  contexts: ExportedContext[];
}

export function exportVariables(graph: FluxGraph, textOf: (file: string) => string | undefined): VariablesExport {
  const indexes = new Map<string, LineIndex | undefined>();
  const lineOf = (file: string, offset: number) => {
    if (!indexes.has(file)) {
      const text = textOf(file);
      indexes.set(file, text === undefined ? undefined : new LineIndex(text));
    }
    const index = indexes.get(file);
    return index ? index.positionAt(offset).line + 1 : 0;
  };
  const instances = graph.clusters.flatMap((cluster) => cluster.instances.filter((instance) => instance.postBuild !== undefined)).sort(compareInstances);
  // Which contexts each written value wins in: an edit there changes all of them.
  const winsIn = new Map<string, string[]>();
  const place = (name: string, layer: VariableLayer) => `${name}\0${layer.file}\0${layer.range.start}`;
  for (const instance of instances) {
    for (const variable of instance.variables.vars.values()) {
      if (variable.layers.length === 0) continue;
      const key = place(variable.name, variable.layers[0]);
      winsIn.set(key, [...(winsIn.get(key) ?? []), labelOf(instance)]);
    }
  }
  const contexts = instances.map((instance): ExportedContext => {
    const k = instance.kustomization;
    const exported = (layer: VariableLayer): ExportedLayer => ({ layer: layerName(instance, layer), file: layer.file, line: lineOf(layer.file, layer.range.start), value: shownLayerValue(layer) });
    const variables = [...instance.variables.vars.values()]
      .filter((variable) => variable.layers.length > 0)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((variable): ExportedVariable => {
        const [winner, ...lost] = variable.layers;
        const top = exported(winner);
        const also = (winsIn.get(place(variable.name, winner)) ?? []).filter((label) => label !== labelOf(instance)).sort();
        return { name: variable.name, ...top, write_to: { file: top.file, line: top.line, also_changes: also }, also_set_by: lost.map(exported) };
      });
    return {
      cluster: instance.cluster.name,
      kustomization: { namespace: instance.namespace, name: k.name, file: k.object.file, line: lineOf(k.object.file, k.nameRange.start) },
      substitutes: instance.substitutes,
      strict: instance.strict,
      open: instance.variables.opaque,
      variables,
    };
  });
  return { version: exportVersion, contexts };
}

function labelOf(instance: KustomizationInstance): string {
  return `${instance.cluster.name}/${instance.kustomization.name}`;
}

/** The layer's stable name: which postBuild entry it comes through, and how the object got the value. */
function layerName(instance: KustomizationInstance, layer: VariableLayer): string {
  const own = instance.kustomization.object.file;
  if (layer.source === 'inline') return layer.file === own ? 'inline substitute' : 'parent patch: inline substitute';
  const sources = instance.variables.sources;
  let entry = -1;
  for (let i = 0; i < sources.length; i++) if (sources[i].object?.kind === layer.source && sources[i].object?.name === layer.objectName) entry = i;
  const how = layer.via === 'data' ? 'base object' : layer.via === 'stringData' ? 'base object stringData' : layer.via === 'patch' ? 'overlay patch' : layer.via;
  const name = `substituteFrom[${entry}] ${layer.source} ${layer.objectName}, ${how}`;
  return entry >= 0 && sources[entry].ref.file !== own ? `parent patch: ${name}` : name;
}

/** The export as text: one line per fact, so a diff of two exports reads as what changed. */
export function formatExport(exported: VariablesExport): string {
  let out = '';
  for (const c of exported.contexts) {
    const k = c.kustomization;
    out += `${c.cluster}/${k.name} (Kustomization ${k.namespace}/${k.name}, ${k.file}:${k.line})${c.substitutes ? '' : ' — does not substitute'}${c.open ? ' — open: a source cannot be read' : ''}\n`;
    for (const v of c.variables) {
      const also = v.write_to.also_changes.length > 0 ? ` (also changes ${v.write_to.also_changes.join(', ')})` : '';
      out += `  ${v.name} = ${show(v.value)}\n    set by ${v.layer} — ${v.file}:${v.line}\n    write to ${v.write_to.file}:${v.write_to.line}${also}\n`;
      for (const lost of v.also_set_by) out += `    also set by ${lost.layer}: ${show(lost.value)} — ${lost.file}:${lost.line}\n`;
    }
  }
  return out;
}

/** A value in full (a diff must see every character), quoted; what stands in for one otherwise. */
function show(value: ShownValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if ('redacted' in value) return `secret, sha256 ${value.sha256}`;
  if ('encrypted' in value) return 'encrypted';
  return `unknown (${value.unknown})`;
}
