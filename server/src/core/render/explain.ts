/**
 * `explain`: the render contexts of a file — which cluster, which Kustomization, whether it
 * substitutes, in which mode — with every variable, its value and its layers. Plain data
 * for the CLI's text and JSON output; Secret values are already redacted here.
 */
import type { WorkspaceView } from '../model/workspace-view';
import { substitutionOf } from '../substitution';
import { LineIndex } from '../positions';
import { displayShown, layerSource, shownLayerValue, type ShownValue } from './values';

export interface ExplainedLayer {
  /** Plain data, no Markdown: JSON outputs print it as is. */
  value: ShownValue;
  source: string;
  file: string;
  line: number;
}

export interface ExplainedContext {
  cluster: string;
  kustomization: { name: string; namespace: string; file: string; line: number };
  substitutes: boolean;
  /** Why not, when it does not: no postBuild, no variables, or an opt-out. */
  skipped?: string;
  strict: boolean;
  strictReason: string;
  strategy: 'WithVariables' | 'Always';
  variables: Array<{ name: string; value: ShownValue; layers: ExplainedLayer[] }>;
  missingSources: string[];
}

export function explainFile(workspace: WorkspaceView, file: string): ExplainedContext[] {
  const graph = workspace.fluxGraph();
  const salt = workspace.config().redactionSalt;
  const lineOf = (path: string, offset: number) => {
    const text = workspace.index.text(path);
    return text === undefined ? 0 : new LineIndex(text).positionAt(offset).line + 1;
  };
  const objects = workspace.index.objects(file);
  return graph.contextsOf(file).map((context) => {
    const { instance, cluster } = context;
    const k = instance.kustomization;
    // A file can hold several resources; the first one's opt-out speaks for the file here.
    const skip = substitutionOf([context], objects[0]).skipped[0];
    return {
      cluster: cluster.name,
      kustomization: { name: k.name, namespace: instance.namespace, file: k.object.file, line: lineOf(k.object.file, k.nameRange.start) },
      substitutes: skip === undefined,
      ...(skip ? { skipped: skip.reason } : {}),
      strict: instance.strict,
      strictReason: cluster.strictMode.reason,
      strategy: instance.postBuild?.strategy ?? 'WithVariables',
      variables: [...instance.variables.vars.values()]
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .map((variable) => ({
          name: variable.name,
          value: variable.layers.length > 0 ? shownLayerValue(variable.layers[0], salt) : noLayer,
          layers: variable.layers.map((layer) => ({ value: shownLayerValue(layer, salt), source: layerSource(layer), file: layer.file, line: lineOf(layer.file, layer.range.start) })),
        })),
      missingSources: instance.variables.sources.filter((s) => !s.object && !s.ref.optional).map((s) => `${s.ref.kind}/${s.ref.name}`),
    };
  });
}

export interface ExplainedVariable {
  name: string;
  contexts: Array<{ context: string; value: ShownValue | undefined; layers: ExplainedLayer[] }>;
}

/** A variable across every Kustomization that substitutes: its value and layers, or its absence. */
export function explainVariable(workspace: WorkspaceView, name: string): ExplainedVariable {
  const salt = workspace.config().redactionSalt;
  const lineOf = (path: string, offset: number) => {
    const text = workspace.index.text(path);
    return text === undefined ? 0 : new LineIndex(text).positionAt(offset).line + 1;
  };
  const contexts: ExplainedVariable['contexts'] = [];
  for (const cluster of workspace.fluxGraph().clusters) {
    for (const instance of cluster.instances) {
      if (!instance.postBuild) continue;
      const variable = instance.variables.vars.get(name);
      contexts.push({
        context: `${cluster.name}/${instance.kustomization.name}`,
        value: variable === undefined ? undefined : variable.layers.length > 0 ? shownLayerValue(variable.layers[0], salt) : noLayer,
        layers: (variable?.layers ?? []).map((layer) => ({ value: shownLayerValue(layer, salt), source: layerSource(layer), file: layer.file, line: lineOf(layer.file, layer.range.start) })),
      });
    }
  }
  return { name, contexts };
}

/** A variable with no layer (none is recorded): its value is not known. */
const noLayer: ShownValue = { unknown: 'no layer sets it' };

export function formatExplainedVariable(explained: ExplainedVariable): string {
  if (explained.contexts.length === 0) return `${explained.name}: no Kustomization in this workspace has postBuild.\n`;
  let out = `${explained.name}\n`;
  for (const c of explained.contexts) {
    out += c.value === undefined ? `\n${c.context}: not defined\n` : `\n${c.context}: ${displayShown(c.value)}\n`;
    c.layers.forEach((layer, i) => (out += `  ${i === 0 ? 'from' : 'overrides'} ${displayShown(layer.value)} — ${layer.source}, ${layer.file}:${layer.line}\n`));
  }
  return out;
}
