/**
 * What the editor asks at a position, answered by the domain that owns the place: Helm for
 * chart templates and values files, Flux for substituted files and their variables, Fleet
 * for `fleet.yaml`. Adapters ask here and never choose the domain themselves.
 */
import { fleetCompletionsAt } from './fleet/completion';
import { fleetHoverAt } from './fleet/hover';
import { helmHoverAt } from './helm/hover';
import { valuesDefinition, valuesReferences } from './helm/values-navigation';
import { fluxHoverAt } from './hover';
import { type Hover } from './model/index';
import type { Location, Range } from './model';
import type { WorkspaceView } from './model/workspace-view';
import { definitionsOf, referencesOf, variableAt } from './navigation';
import { variableCompletionsAt } from './variable-completion';

export function hoverAt(workspace: WorkspaceView, file: string, offset: number): Hover | undefined {
  // A chart's own files first: a `${…}` in a template is Helm's text, not a Flux variable.
  return helmHoverAt(workspace, file, offset) ?? fluxHoverAt(workspace, file, offset) ?? fleetHoverAt(workspace, file, offset);
}

export interface Completion {
  label: string;
  /** One line beside the label. */
  detail: string;
  /** Markdown. */
  documentation: string;
  /** The text the item replaces, and what it writes there. */
  range: Range;
  insertText: string;
  /** A Fleet value (an op, a field) or a Flux variable. */
  kind: 'value' | 'variable';
}

export function completionsAt(workspace: WorkspaceView, file: string, offset: number): Completion[] {
  const fleet = fleetCompletionsAt(workspace, file, offset);
  if (fleet.length > 0) return fleet.map((item) => ({ ...item, kind: 'value' as const }));
  return variableCompletionsAt(workspace, file, offset).map((item) => ({ ...item, kind: 'variable' as const }));
}

/** Go to definition: a `.Values` path's key in values.yaml, else every cluster's definition of the variable here. */
export function definitionsAt(workspace: WorkspaceView, file: string, offset: number): Location[] {
  const value = valuesDefinition(workspace, file, offset);
  if (value) return [value];
  const variable = variableAt(workspace, file, offset);
  return variable ? definitionsOf(workspace, file, variable.name) : [];
}

/** Find references: the templates reading a values key, else every definition and use of the variable here. */
export function referencesAt(workspace: WorkspaceView, file: string, offset: number): Location[] {
  const uses = valuesReferences(workspace, file, offset);
  if (uses.length > 0) return uses;
  const variable = variableAt(workspace, file, offset);
  return variable ? referencesOf(workspace, variable.name) : [];
}
