/**
 * Completion after `${` in a substituted file: the variables the file's render contexts
 * define, each with what it holds in every context and where that value is written. Secret
 * values are never shown (a short hash stands in, as in hovers).
 */
import type { WorkspaceView } from './model/workspace-view';
import type { Range } from './model';
import type { Variable } from './flux/variables';
import { displayLayerValue, layerLocation, layerSource } from './render/values';
import type { ActiveContext } from './substitution';

export interface VariableCompletion {
  /** The variable's name, as inserted. */
  label: string;
  /** One line beside the label: the value, or how many contexts disagree. */
  detail: string;
  /** Markdown: the value and its source in each context. */
  documentation: string;
  /** The name typed so far (after `${`), which the item replaces. */
  range: Range;
  /** The name, and the closing brace unless one follows already. */
  insertText: string;
}

/** `${` and the name typed so far, at the end of the text before the cursor; the `$` run must be odd (live). */
const openExpression = /(\$+)\{([_A-Za-z][_A-Za-z0-9]*)?$/;
const nameChars = /^[_A-Za-z0-9]*/;

export function variableCompletionsAt(workspace: WorkspaceView, file: string, offset: number): VariableCompletion[] {
  const text = workspace.index.text(file);
  if (text === undefined) return [];
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const typed = openExpression.exec(text.slice(lineStart, offset));
  if (!typed || typed[1].length % 2 === 0) return [];
  for (const document of workspace.documentsOf(file, offset)) {
    const [start, , end] = document.document.range;
    if (offset < start || offset > end) continue;
    // In a scalar only: the controller drops comments before it substitutes.
    const inScalar = document.scalars.some(({ site, comment }) => !comment && offset > site.range.start && offset <= site.range.end);
    if (!inScalar || document.substitution.active.length === 0) return [];
    const nameStart = offset - (typed[2]?.length ?? 0);
    const nameEnd = offset + (nameChars.exec(text.slice(offset))?.[0].length ?? 0);
    const closed = text[nameEnd] === '}';
    return variableNames(document.substitution.active).map((name) => ({
      label: name,
      ...describe(workspace, name, document.substitution.active),
      range: { start: nameStart, end: nameEnd },
      insertText: closed ? name : `${name}}`,
    }));
  }
  return [];
}

function variableNames(active: readonly ActiveContext[]): string[] {
  const names = new Set<string>();
  for (const context of active) for (const name of context.context.instance.variables.vars.keys()) names.add(name);
  return [...names].sort();
}

function describe(workspace: WorkspaceView, name: string, active: readonly ActiveContext[]): { detail: string; documentation: string } {
  const textOf = (file: string) => workspace.index.text(file);
  const lines: string[] = [];
  const shown = new Set<string>();
  for (const context of active) {
    const variable: Variable | undefined = context.variable(name);
    if (!variable || variable.layers.length === 0) {
      lines.push(`- ${context.label}: not defined`);
      shown.add('not defined');
      continue;
    }
    const winner = variable.layers[0];
    const value = displayLayerValue(winner);
    shown.add(value);
    lines.push(`- ${context.label}: ${value} from ${layerSource(winner)} — ${layerLocation(winner, textOf, true)}`);
  }
  const detail = shown.size === 1 ? [...shown][0].replace(/^`+ ?|\s?`+$/g, '') : `differs across ${active.length} contexts`;
  return { detail, documentation: [`**${name}**`, '', ...lines].join('\n') };
}
