/**
 * What a chart's templates tell each other, for judging outputs (output-scope.ts): the
 * `.Chart` fields Chart.yaml sets, and, for a named template, what its callers pass.
 *
 * Inside `define "x.route"`, `.labelApp` is whatever `include "x.route" (dict "labelApp" …)`
 * passes: the action is judged by the callers the chart holds, each in its own file's scope.
 * A define nobody in the chart includes (a library chart's helper) keeps its dot unknown.
 */
import { chartDirOf, chartMetadataOf } from './chart';
import { either, termClass, type OutputClass } from './output-class';
import { outputScope, type ScopeChart } from './output-scope';
import { includeSitesOf, type ChartReader, type IncludeSite } from './include-sites';
import { commandFunction } from '../gotemplate/ast';
import { analyzeTemplate, type TemplateAnalysis } from './template-file';
import type { GoStruct } from './values';


const value: OutputClass = { kind: 'value' };
const rootFields = new Set(['Values', 'Chart', 'Release', 'Capabilities', 'Template', 'Files', 'Subcharts']);

/** The chart view of the template under check: one per check, shared by every scope it opens. */
export function chartScope(context: ChartReader): ScopeChart {
  const metadata = (path: string) => context.derived(path, 'helm-chart-metadata', chartMetadataOf);
  const dir = chartDirOf(context.file, { text: (path) => (metadata(path) ? '' : undefined) });
  let chart: GoStruct | undefined | null = null;
  const analyses = new Map<string, TemplateAnalysis | undefined>();
  const scopes = new Map<string, ReturnType<typeof outputScope>>();
  const pending = new Set<string>();
  const analysisOf = (file: string) => {
    if (!analyses.has(file)) {
      const text = file === context.file ? context.text : context.derived(file, 'text', (t) => t);
      analyses.set(file, text === undefined ? undefined : analyzeTemplate(file, text));
    }
    return analyses.get(file);
  };
  const view: ScopeChart = {
    field(name) {
      if (chart === null) chart = dir === undefined ? undefined : metadata(dir === '' ? 'Chart.yaml' : `${dir}/Chart.yaml`);
      const printed = chart?.fields.get(name);
      return typeof printed === 'string' ? { kind: 'literal', text: printed } : undefined;
    },
    callerField(define, path) {
      if (dir === undefined || rootFields.has(path[0])) return undefined;
      const key = `${define}\u0000${path.join('.')}`;
      if (pending.has(key)) return undefined;
      const sites = includeSitesOf(dir, context, analysisOf).get(define);
      if (!sites || sites.length === 0) return undefined;
      pending.add(key);
      try {
        return either(sites.map((site) => passed(site, path)));
      } finally {
        pending.delete(key);
      }
    },
  };
  function scopeOf(file: string) {
    let scope = scopes.get(file);
    const analysis = analysisOf(file);
    if (!scope && analysis) scopes.set(file, (scope = outputScope(analysis.tree, analysis.rebound, view)));
    return scope;
  }
  /** What `.a` is in the define when this caller includes it: a `dict` entry, or unknown. */
  function passed(site: IncludeSite, path: readonly string[]): OutputClass | undefined {
    const data = site.data;
    if (data?.kind !== 'pipeline' || data.path.length > 0 || data.pipeline.commands.length !== 1) return value;
    const command = data.pipeline.commands[0];
    if (commandFunction(command) !== 'dict') return value;
    const args = command.args.slice(1);
    const at = args.findIndex((a, i) => i % 2 === 0 && a.kind === 'string' && a.value === path[0]);
    // A key the dict lacks prints nothing: Helm renders the missing value as empty.
    if (at < 0) return path.length === 1 ? { kind: 'literal', text: '' } : value;
    if (path.length > 1 || args[at + 1] === undefined) return value;
    const analysis = analysisOf(site.file);
    return analysis && termClass(args[at + 1], analysis.rebound(site.offset), scopeOf(site.file), site.offset);
  }
  return view;
}
