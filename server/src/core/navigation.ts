/**
 * Navigation for variables: which variable is under the cursor, where it is defined (every
 * layer, winner first), where it is used, and the edits that rename it everywhere.
 */
import type { WorkspaceView } from './model/workspace-view';
import type { Edit, Location, Range } from './model';

/** Flux accepts only these names as variable keys, so a rename must produce one. */
export const validVariableName = /^[_A-Za-z][_A-Za-z0-9]*$/;

/** The variable named at `offset`: a name inside `${…}`, or a definition key. */
export function variableAt(workspace: WorkspaceView, file: string, offset: number): { name: string; range: Range } | undefined {
  for (const document of workspace.documentsOf(file, offset)) {
    for (const { site, scan } of document.scalars) {
      if (offset < site.range.start || offset > site.range.end) continue;
      for (const expansion of scan.expansions) {
        for (const ref of expansion.refs) {
          const range = site.rangeOf(ref.start, ref.end);
          if (offset >= range.start && offset <= range.end) return { name: ref.name, range };
        }
      }
    }
  }
  const definition = definitionsIn(workspace).find((d) => d.file === file && offset >= d.range.start && offset <= d.range.end);
  return definition ? { name: definition.name, range: definition.range } : undefined;
}

/** Every layer that defines a variable, as written (the key's range holds exactly the name). */
function definitionsIn(workspace: WorkspaceView, only?: string): Array<Location & { name: string }> {
  const seen = new Set<string>();
  const out: Array<Location & { name: string }> = [];
  for (const cluster of workspace.fluxGraph().clusters) {
    for (const instance of cluster.instances) {
      for (const variable of instance.variables.vars.values()) {
        if (only !== undefined && variable.name !== only) continue;
        for (const layer of variable.layers) {
          const key = `${layer.file}:${layer.range.start}`;
          if (seen.has(key) || workspace.index.text(layer.file)?.slice(layer.range.start, layer.range.end) !== variable.name) continue;
          seen.add(key);
          out.push({ name: variable.name, file: layer.file, range: layer.range });
        }
      }
    }
  }
  return out;
}

/** Where `name` is defined for the contexts of `file` (winner first), else anywhere. */
export function definitionsOf(workspace: WorkspaceView, file: string, name: string): Location[] {
  const located: Location[] = [];
  for (const context of workspace.fluxGraph().contextsOf(file)) {
    for (const layer of context.instance.variables.vars.get(name)?.layers ?? []) {
      if (!located.some((l) => l.file === layer.file && l.range.start === layer.range.start)) located.push({ file: layer.file, range: layer.range });
    }
  }
  return located.length > 0 ? located : definitionsIn(workspace, name);
}

/** Every use of `name` inside `${…}` in substituted documents, and every definition key. */
export function referencesOf(workspace: WorkspaceView, name: string): Location[] {
  const out: Location[] = [];
  for (const file of workspace.index.files()) {
    if (!workspace.isChecked(file) || !workspace.index.text(file)?.includes(name)) continue;
    for (const document of workspace.documentsOf(file)) {
      if (document.substitution.active.length === 0) continue;
      for (const { site, scan, comment } of document.scalars) {
        if (comment) continue;
        for (const expansion of scan.expansions) for (const ref of expansion.refs) if (ref.name === name) out.push({ file, range: site.rangeOf(ref.start, ref.end) });
      }
    }
  }
  return [...definitionsIn(workspace, name), ...out];
}

/** Edits that rename a variable at its definitions and uses; undefined if `to` is not a valid name. */
export function renameVariable(workspace: WorkspaceView, from: string, to: string): Edit[] | undefined {
  if (!validVariableName.test(to)) return undefined;
  return referencesOf(workspace, from).map((location) => ({ file: location.file, range: location.range, newText: to }));
}
