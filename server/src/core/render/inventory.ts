/**
 * Per-Kustomization inventory (`render-lens clusters --inventory`): for each Kustomization of
 * each cluster, the files it renders and substitutes, the variables it defines and those its
 * files use, the `$$` escapes in them, and the findings in them by rule — the review a team
 * does before it turns strict substitution on, or moves an app to another Kustomization.
 */
import type { WorkspaceView } from '../model/workspace-view';
import { scanTemplate } from '../envsubst';
import type { KustomizationInstance } from '../flux/graph';
import type { Finding } from '../model';
import { LineIndex } from '../positions';

export interface KustomizationInventory {
  cluster: string;
  kustomization: string;
  file: string;
  line: number;
  substitutes: boolean;
  /** Files it renders (resources, patches, generator inputs), sorted. */
  files: string[];
  /** Names its variable set defines. */
  defined: string[];
  /** Names `${…}` reads in its files. */
  used: string[];
  /** Used names its variable set does not define (unknown where the set is open). */
  undefinedUsed: string[];
  /** `$$` runs (escapes Flux collapses) in its files. */
  escapes: number;
  /** Findings in its files, by rule id. */
  hazards: Record<string, number>;
}

export function describeInventory(workspace: WorkspaceView, findings: readonly Finding[]): KustomizationInventory[] {
  const byFile = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = byFile.get(finding.file);
    if (list) list.push(finding);
    else byFile.set(finding.file, [finding]);
  }
  const scans = new Map<string, { used: Set<string>; escapes: number }>();
  const scanOf = (file: string) => {
    let scan = scans.get(file);
    if (!scan) {
      const template = scanTemplate(workspace.index.text(file) ?? '');
      const used = new Set(template.expansions.flatMap((e) => e.names));
      let escapes = 0;
      for (let i = 0; i < template.runs.length; i++) if (template.runs.count(i) >= 2) escapes++;
      scans.set(file, (scan = { used, escapes }));
    }
    return scan;
  };
  const graph = workspace.fluxGraph();
  return graph.clusters.flatMap((cluster) => cluster.instances.map((instance) => inventoryOf(workspace, cluster.name, instance, scanOf, byFile)));
}

function inventoryOf(
  workspace: WorkspaceView,
  cluster: string,
  instance: KustomizationInstance,
  scanOf: (file: string) => { used: Set<string>; escapes: number },
  byFile: ReadonlyMap<string, Finding[]>,
): KustomizationInventory {
  const k = instance.kustomization;
  const files = [...instance.tree.files.keys()].sort();
  const used = new Set<string>();
  let escapes = 0;
  const hazards: Record<string, number> = {};
  for (const file of files) {
    const scan = scanOf(file);
    scan.used.forEach((name) => used.add(name));
    escapes += scan.escapes;
    for (const finding of byFile.get(file) ?? []) hazards[finding.rule] = (hazards[finding.rule] ?? 0) + 1;
  }
  const text = workspace.index.text(k.object.file);
  const defined = [...instance.variables.vars.keys()].sort();
  return {
    cluster,
    kustomization: `${instance.namespace}/${k.name}`,
    file: k.object.file,
    line: text === undefined ? 0 : new LineIndex(text).positionAt(k.nameRange.start).line + 1,
    substitutes: instance.substitutes,
    files,
    defined,
    used: [...used].sort(),
    undefinedUsed: [...used].filter((name) => !instance.variables.vars.has(name)).sort(),
    escapes,
    hazards: Object.fromEntries(Object.entries(hazards).sort(([a], [b]) => a.localeCompare(b))),
  };
}

export function formatInventory(inventory: readonly KustomizationInventory[]): string {
  let out = '';
  for (const k of inventory) {
    out += `${k.cluster}/${k.kustomization.split('/')[1]} (Kustomization ${k.kustomization}, ${k.file}:${k.line})${k.substitutes ? '' : ' — does not substitute'}\n`;
    out += `  ${k.files.length} file${k.files.length === 1 ? '' : 's'}; ${k.defined.length} variable${k.defined.length === 1 ? '' : 's'} defined, ${k.used.length} used`;
    out += k.undefinedUsed.length > 0 ? ` (not defined: ${k.undefinedUsed.join(', ')})` : '';
    out += `; ${k.escapes} \`$$\` escape${k.escapes === 1 ? '' : 's'}\n`;
    const hazards = Object.entries(k.hazards);
    if (hazards.length > 0) out += `  findings: ${hazards.map(([rule, n]) => `${rule} ${n}`).join(', ')}\n`;
  }
  return out;
}
