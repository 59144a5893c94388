/**
 * The values-aware judgement of a plain scalar in a string field that users do not commonly
 * fill with numbers or booleans (names, paths, hosts, intervals): the scalar is rendered with
 * what the chart's own values give each action — values.yaml, then each ci/ values file — and
 * it re-types only when one of those values makes go-yaml read something other than a string
 * there, or when a map or a list is printed as Go's `map[…]` / `[…]` text.
 *
 * A falsy value behind a condition that needs that same value to be true (`{{ if .Values.x }}
 * name: {{ .Values.x }}`) never renders, and is not judged.
 */
import type { FieldInfo } from '../kube/schema-types';
import { fitOf, type ArrivingValue } from '../kube/field-verdict';
import { formatFloat64G } from '../goyaml/v2/go-number';
import { GoFloat, GoInt, GoMap } from '../goyaml/v2/value';
import type { ChartReader } from './include-sites';
import { standIns, takesProbe, yamlVerdict, type ScalarPiece, type YamlVerdict } from './scalar-judge';
import type { TemplateAnalysis } from './template-file';
import { ancestorsOf } from '../gotemplate/tree';
import { ValueSources, type Candidate } from './value-sources';
import { GoStruct, isTrue, printed, Unknown } from './values';
import { valuesWorlds, type ValuesEntry } from './values-worlds';

export type ValuesJudgement =
  /** A value the chart gives makes the field something else than a string. */
  | { kind: 'retypes'; target: ScalarPiece; candidate: Candidate; rendered: string; how: Retyping }
  /** Every value the chart gives keeps the field a string. */
  | { kind: 'strings'; entries: ValuesEntry[] }
  /** At least one action's value is not shown by the chart (no default anywhere). */
  | { kind: 'open'; target: ScalarPiece; reason: string };

export type Retyping =
  | { kind: 'type'; verdict: YamlVerdict & { ok: true } }
  | { kind: 'invalid'; error: string }
  | { kind: 'structure'; what: 'map' | 'list' };

export type ValuesJudge = (analysis: TemplateAnalysis, pieces: readonly ScalarPiece[], field: FieldInfo) => ValuesJudgement | undefined;

/** A judge for the template under check, with one evaluator per values world, kept for all its scalars. */
export function valuesJudge(context: ChartReader, dir: string): ValuesJudge {
  let sources: ValueSources[] | undefined;
  return (analysis, pieces, field) => judgeByValues(context, (sources ??= valuesWorlds(context, dir).map((world) => new ValueSources(context, dir, world))), analysis, pieces, field);
}

function judgeByValues(context: ChartReader, worlds: readonly ValueSources[], analysis: TemplateAnalysis, pieces: readonly ScalarPiece[], field: FieldInfo): ValuesJudgement | undefined {
  const fixed = pieces.map((p) => (p.kind === 'text' ? context.text.slice(p.start, p.end) : takesProbe(p.output) ? undefined : standIns(p.output!, '1')?.[0]));
  if (fixed.some((t, i) => t === undefined && !takesProbe(pieces[i].output))) return undefined;
  const targets = pieces.filter((p) => takesProbe(p.output));
  const entries: ValuesEntry[] = [];
  let unknown: { target: ScalarPiece; reason: string } | undefined;
  for (const sources of worlds) {
    const sets = targets.map((p) => sources.action(p.pipeline!, { file: context.file, offset: p.start }));
    // The other actions print the first value they are given, or a string when none is known.
    const base = sets.map((set) => set.map(scalarText).find((t) => t !== undefined) ?? 'x');
    for (let i = 0; i < targets.length; i++) {
      const guards = guardPaths(sources, analysis, context.file, targets[i].start);
      for (const candidate of sets[i]) {
        const value = candidate.value;
        if (value instanceof Unknown || candidate.unset) {
          unknown ??= { target: targets[i], reason: value instanceof Unknown ? value.reason : 'not set in the chart\'s values' };
          continue;
        }
        if (!isTrue(value) && candidate.entry && guards.has(candidate.entry.path.join('.'))) continue;
        if (value instanceof GoMap || Array.isArray(value)) return { kind: 'retypes', target: targets[i], candidate, rendered: printed(value), how: { kind: 'structure', what: value instanceof GoMap ? 'map' : 'list' } };
        if (value instanceof GoStruct) continue;
        let t = -1;
        const rendered = pieces.map((_, k) => (fixed[k] !== undefined ? fixed[k] : ++t === i ? printed(value) : base[t])).join('');
        const how = plainWord(rendered) ? undefined : retyping(yamlVerdict(rendered), field);
        if (how) return { kind: 'retypes', target: targets[i], candidate, rendered, how };
        if (candidate.entry && !entries.some((e) => e.file === candidate.entry!.file && e.path.join('.') === candidate.entry!.path.join('.'))) entries.push(candidate.entry);
      }
    }
  }
  return unknown ? { kind: 'open', ...unknown } : { kind: 'strings', entries };
}

/** The text a known scalar value prints; undefined for what is not known or not a scalar. */
function scalarText(candidate: Candidate): string | undefined {
  const value = candidate.value;
  if (value instanceof Unknown || value instanceof GoMap || Array.isArray(value) || value instanceof GoStruct) return undefined;
  return printed(value);
}

/**
 * A word or path go-yaml v2 surely reads as a string (`http`, `/data`, `web.example.com`):
 * most values are, and reading each through the YAML decoder cost a chart repository's check a
 * few hundred milliseconds. Only the bool and null words start with a letter and re-type.
 */
function plainWord(text: string): boolean {
  return /^[A-Za-z/][\w/.-]*$/.test(text) && !typedWords.has(text);
}

const typedWords = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'null', 'Null', 'NULL']);

/** How go-yaml's reading of the rendered scalar fails the field, judged as the API server judges it. */
function retyping(verdict: YamlVerdict, field: FieldInfo): Retyping | undefined {
  if (!verdict.ok) return { kind: 'invalid', error: verdict.error };
  // An empty default (`""`, `~`) is a placeholder users fill: bare it is null, which leaves an
  // optional field out; in a required one the missing value is the fault, not the quoting.
  if (verdict.type === 'string' || verdict.type === 'null') return undefined;
  return fitOf(field, arriving(verdict)) === 'mismatch' ? { kind: 'type', verdict } : undefined;
}

function arriving(verdict: YamlVerdict & { ok: true }): ArrivingValue {
  const value = verdict.value;
  const type = verdict.type === 'map' ? 'object' : verdict.type === 'list' ? 'array' : verdict.type;
  const display = value instanceof GoInt ? value.value.toString() : value instanceof GoFloat ? formatFloat64G(value.value) : String(value);
  return { type, display };
}

/** The values paths the conditions around the action need to be true. */
function guardPaths(sources: ValueSources, analysis: TemplateAnalysis, file: string, offset: number): Set<string> {
  const define = analysis.tree.defines.find((d) => offset > d.action.start && offset < d.end);
  const steps = ancestorsOf(define ? define.body : analysis.tree.body, offset) ?? [];
  const paths = new Set<string>();
  for (const { node, branch } of steps) {
    if (node.type !== 'cond' || branch < 0) continue;
    const b = node.branches[branch];
    for (const path of sources.truthyPaths(b.pipeline, { file, offset: b.action.start })) paths.add(path);
  }
  return paths;
}
