/**
 * The hover's word on values for an action in a string field: which entry of the chart's
 * values (values.yaml or a ci/ file) re-types the field when rendered bare, or that every
 * value the chart gives stays a string — and what an override would do.
 */
import type { WorkspaceView } from '../model/workspace-view';
import { fieldName } from '../kube/field-types';
import { fieldAt } from '../kube/schema-types';
import { fileLineLink } from '../links';
import { codeSpan } from '../markdown';
import { GoMap } from '../goyaml/v2/value';
import { chartScope } from './chart-scope';
import type { ChartReader } from './include-sites';
import type { FieldSlot } from './key-paths';
import { outputScope } from './output-scope';
import { scalarPieces, takesProbe } from './scalar-judge';
import type { TemplateAction } from '../gotemplate/lexer';
import { analyzeTemplate } from './template-file';
import type { Candidate } from './value-sources';
import { valuesJudge } from './values-judge';
import { printed, Unknown } from './values';
import { entryLine, entryName, type ValuesEntry } from './values-worlds';

const override = 'rendered bare, an override such as `8080` or `true` would arrive as a number or a bool: `| quote` keeps any value a string';

/**
 * What a hover reads of the workspace around a template: values files and helpers are read
 * once for it (the chart load and the values note alike), as a check reads them once per file
 * version.
 */
export function hoverChartReader(workspace: WorkspaceView, file: string, text: string): ChartReader {
  const kept = new Map<string, unknown>();
  const keep = <T>(key: string, build: () => T): T => (kept.has(key) ? kept.get(key) : kept.set(key, build()).get(key)) as T;
  return {
    file,
    text,
    derived: <T>(other: string, key: string, compute: (text: string) => T) => {
      const found = workspace.index.text(other);
      return found === undefined ? undefined : keep(`${key}\u0000${other}`, () => compute(found));
    },
    filesUnder: (under: string) => workspace.index.files().filter((f) => under === '' || f.startsWith(`${under}/`)),
    shared: keep,
  };
}

export function valuesNote(workspace: WorkspaceView, context: ChartReader, dir: string, action: TemplateAction, slot: FieldSlot | undefined): string[] {
  if (!slot || slot.isKey || slot.style !== 'plain') return [];
  const field = fieldAt({ kind: slot.kind }, slot.path, workspace.workspaceSchemas());
  if (field?.type !== 'string' || field.enumerated) return [];
  const { file, text } = context;
  const analysis = analyzeTemplate(file, text);
  const pieces = scalarPieces(slot, analysis, outputScope(analysis.tree, analysis.rebound, chartScope(context)));
  const piece = pieces?.find((p) => p.start === action.start);
  if (!pieces || !piece || !takesProbe(piece.output)) return [];
  const judgement = valuesJudge(context, dir)(analysis, pieces, field);
  if (!judgement) return [];
  const name = codeSpan(fieldName(slot.path));
  const link = (entry: ValuesEntry) => `${codeSpan(entryName(entry))} (${fileLineLink(entry.file, entryLine(context, entry) ?? 1)})`;
  if (judgement.kind === 'retypes') {
    const source = judgement.candidate.entry ? link(judgement.candidate.entry) : "the template's own default";
    const how = judgement.how;
    const what = how.kind === 'structure' ? `is a ${how.what}, printed as Go's ${codeSpan(judgement.rendered)}` : `${shown(judgement.candidate)}renders ${codeSpan(judgement.rendered)}, ${how.kind === 'invalid' ? 'which is not valid YAML' : `which YAML reads as a ${how.verdict.type}`}`;
    return ['', `**Values:** ${source} ${what}; ${name} must be a string (HELM-UNQUOTED-STRING).`];
  }
  if (judgement.kind === 'strings') {
    if (judgement.entries.length === 0) return [];
    return ['', `**Values:** ${judgement.entries.slice(0, 3).map(link).join(', ')} keep${judgement.entries.length === 1 ? 's' : ''} ${name} a string; ${override}.`];
  }
  return ['', `**Values:** no values file of the chart shows what ${codeSpan(text.slice(judgement.target.start, judgement.target.end))} prints (${judgement.reason}); ${override}.`];
}

/** "is `8080`: it " — the value, when it prints as one line. */
function shown(candidate: Candidate): string {
  const value = candidate.value;
  if (value instanceof Unknown || value instanceof GoMap || Array.isArray(value)) return '';
  return `is ${codeSpan(printed(value) || '""')}: it `;
}
