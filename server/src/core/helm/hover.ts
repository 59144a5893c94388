/**
 * Hover on a chart template action: what it renders with the chart's `values.yaml`, the
 * line Helm writes, and what YAML makes of it — its type, or the exact error Helm prints.
 * An action behind a disabled `if` is evaluated as if the branch were taken, and says so;
 * what cannot be evaluated statically is named, not guessed.
 */
import type { WorkspaceView } from '../model/workspace-view';
import type { Hover } from '../model/index';
import { fieldName } from '../kube/field-types';
import { isStringField } from '../kube/schema-types';
import { fileLineLink } from '../links';
import { LineIndex } from '../positions';
import { codeSpan } from '../markdown';
import { formatFloat64G } from '../goyaml/v2/go-number';
import { GoFloat, GoInt, GoMap } from '../goyaml/v2/value';
import { chartDirOf, loadChart, templateName, withValuesFile, type Chart } from './chart';
import { executeTemplate, type ActionRun, type Rendered } from './execute';
import type { FieldSlot } from './key-paths';
import { manifestAt, readManifest, splitManifests } from './manifests';
import { valuesPaths } from './output-class';
import type { ActionNode, Pipeline } from '../gotemplate/ast';
import { yamlVerdict, type YamlVerdict } from './scalar-judge';
import { actionAt, type TemplateAction } from '../gotemplate/lexer';
import { analyzeTemplate } from './template-file';
import { ancestorsOf, type TreeNode } from '../gotemplate/tree';
import { describeValue, isTrue, Unknown, type TValue } from './values';
import { hoverChartReader, valuesNote } from './values-hover';
import { helmValuesOf } from './values-worlds';
import { engineChartFiles, valuesKey } from './values-navigation';

export function helmHoverAt(workspace: WorkspaceView, file: string, offset: number): Hover | undefined {
  if (!workspace.isHelmTemplate(file)) return undefined;
  const text = workspace.index.text(file);
  if (text === undefined) return undefined;
  const reader = hoverChartReader(workspace, file, text);
  const files = { ...engineChartFiles(workspace), helmValues: (path: string) => helmValuesOf(reader, path) };
  const dir = chartDirOf(file, files);
  if (dir === undefined) return undefined;
  const action = actionAt(analyzeTemplate(file, text).tree.scan.actions, offset);
  if (!action || action.comment) return undefined;
  const chart = loadChart(dir, files);
  const tree = chart.trees.get(file);
  const node = tree?.nodes.get(action.start);
  if (!tree || !node) return undefined;
  const range = { start: action.start, end: action.end };
  const title = `**${codeSpan(text.slice(action.start, action.end))}** — Helm template`;
  const lines = [title, ''];
  if (node.type === 'error') return { range, markdown: [...lines, node.limit ? `Not evaluated: ${node.message}.` : `Helm cannot parse this: \`${node.message}\`.`].join('\n') };
  const steps = ancestorsOf(tree.body, action.start);
  if (!steps) {
    lines.push('Inside a `define`: what it renders depends on the data each `include` passes.');
    return { range, markdown: lines.join('\n') };
  }
  const force = new Map<TreeNode, number>(steps.map((s) => [s.node, s.branch]));
  const rendered = executeTemplate(chart, file, { force });
  lines.push(...branchNotes(text, steps, rendered));
  if (chart.valuesError) lines.push(`\`${chart.valuesFile}\` does not parse: \`${chart.valuesError}\`.`, '');
  const pipeline = pipelineOf(node);
  if (node.type === 'output' && pipeline) {
    lines.push(...outputLines(workspace, chart, file, text, action, pipeline, rendered));
    lines.push(...valuesNote(workspace, reader, dir, action, analyzeTemplate(file, text).layout.slots.get(action.start)));
  } else if (pipeline) lines.push(...conditionLines(workspace, chart, file, text, action, pipeline, rendered, node.type));
  // The same action with each extra values file the user pointed a setting at (e.g. ci/*.yaml).
  if (node.type === 'output' && pipeline) {
    for (const valuesFile of workspace.helmValuesFiles(dir)) {
      const variant = withValuesFile(chart, valuesFile, files);
      lines.push('', '---', '', `**With \`${valuesFile}\`** (on top of values.yaml):`, '');
      lines.push(...outputLines(workspace, variant, file, text, action, pipeline, executeTemplate(variant, file, { force })));
    }
  }
  return { range, markdown: lines.join('\n').trimEnd() };
}

function pipelineOf(node: ActionNode): Pipeline | undefined {
  if (node.type === 'else') return node.chain?.pipeline;
  return 'pipeline' in node ? node.pipeline : undefined;
}

/** Which enclosing conditions the chart's values do not satisfy. */
function branchNotes(text: string, steps: ReturnType<typeof ancestorsOf> & object, rendered: Rendered): string[] {
  const notes: string[] = [];
  for (const step of steps) {
    const state = rendered.naturally.get(step.node);
    if (state === 'taken' || state === undefined) continue;
    const opener = step.node.type === 'range' ? step.node.action : step.branch >= 0 ? step.node.branches[step.branch].action : step.node.action;
    const source = codeSpan(text.slice(opener.start, opener.end));
    notes.push(state === 'unknown' ? `Whether ${source} holds cannot be evaluated statically.` : step.node.type === 'range' ? `${source} has nothing to iterate over with the chart's values.` : `Not rendered with the chart's values: ${source} ${step.branch >= 0 ? 'is false' : 'is not reached'}.`);
  }
  if (notes.length > 0) notes.push('Evaluated as if it were rendered:', '');
  return notes;
}

function outputLines(workspace: WorkspaceView, chart: Chart, file: string, text: string, action: TemplateAction, pipeline: Pipeline, rendered: Rendered): string[] {
  const analysis = analyzeTemplate(file, text);
  const lines: string[] = [];
  const runs = rendered.runs.filter((r) => r.file === file && r.action === action.start);
  const run = runs[0];
  lines.push(...valuesRead(workspace, chart, pipeline, analysis.rebound(action.start)));
  if (!run) {
    if (rendered.failure) lines.push(`Helm fails: \`${rendered.failure.message}\``);
    else if (pipeline.declarations.length > 0) lines.push('Assigns a variable; prints nothing.');
    else lines.push('Not rendered with the chart\'s values.');
    return lines;
  }
  lines.push(renders(run, runs.length));
  if (run.value instanceof GoFloat && /e[+-]/.test(run.text)) lines.push('', 'Numbers from values files are float64 in Helm: large ones print in exponent form. `| int` prints the digits.');
  if (rendered.failure) {
    lines.push('', `Helm fails further on: \`${rendered.failure.message}\``);
    return lines;
  }
  // An unknown that may span lines leaves nothing meaningful to show on the line.
  if (run.outStart === undefined || run.outEnd === undefined || (run.value instanceof Unknown && !run.value.oneLine)) return lines;
  const out = rendered.text;
  // `nindent` output starts on a new line: show the lines it writes, not the one before.
  const from = run.text.startsWith('\n') ? run.outStart + 1 : run.outStart;
  const lineStart = out.lastIndexOf('\n', from - 1) + 1;
  const nl = out.indexOf('\n', run.outEnd);
  const resulting = out.slice(lineStart, nl < 0 ? out.length : nl);
  lines.push('', '```yaml', resulting, '```');
  lines.push('', yamlLine(chart, file, resulting, run, rendered, analysis.layout.slots.get(action.start)));
  return lines;
}

function renders(run: ActionRun, count: number): string {
  const times = count > 1 ? ` (rendered ${count} times; the first is shown)` : '';
  if (run.value instanceof Unknown) return `Cannot be evaluated statically: ${run.value.reason}${times}.`;
  if (run.text === '') return `Renders nothing${run.value === null ? ' (no value)' : ''}${times}.`;
  if (run.text.includes('\n')) return `Renders ${run.text.replace(/^\n/, '').split('\n').length} lines${times}.`;
  return `Renders ${codeSpan(run.text)}${times}.`;
}

/** The `.Values` paths the action reads, each with its value and where values.yaml sets it. */
function valuesRead(workspace: WorkspaceView, chart: Chart, pipeline: Pipeline, rebound: boolean): string[] {
  const paths = valuesPaths(pipeline, rebound);
  if (paths.length === 0) return [];
  const document = workspace.index.parsed(chart.valuesFile)?.documents[0];
  const index = new LineIndex(workspace.index.text(chart.valuesFile) ?? '');
  const lines = paths.map((path) => {
    const value = lookup(chart.values, path);
    const key = document && valuesKey(document, path);
    const where = key && key.depth === path.length ? ` (${fileLineLink(chart.valuesFile, index.positionAt(key.range.start).line + 1)})` : ` — not set in ${chart.valuesFile}`;
    return `- \`.Values.${path.join('.')}\`: ${value === undefined ? 'cannot be read' : describeValue(value)}${where}`;
  });
  return [...lines, ''];
}

function lookup(values: TValue, path: readonly string[]): TValue | undefined {
  let value: TValue | undefined = values;
  for (const name of path) {
    if (value instanceof Unknown) return value;
    if (!(value instanceof GoMap)) return undefined;
    value = (value.get(name) ?? null) as TValue;
  }
  return value;
}

/** What go-yaml makes of the line: its type, or Helm's error when the manifest does not read. */
function yamlLine(chart: Chart, file: string, resulting: string, run: ActionRun, rendered: Rendered, slot: FieldSlot | undefined): string {
  const manifest = manifestAt(splitManifests(rendered.text), run.outStart!);
  if (!manifest) return 'YAML: the line is empty after trimming, so there is nothing to read.';
  const uncertain = rendered.pieces.some((p) => p.unknown === 'multi-line' && p.outStart < manifest.end && p.outEnd > manifest.start);
  const read = uncertain ? undefined : readManifest(manifest, templateName(chart, file));
  // go-yaml counts from the manifest's first line; parser errors point one line early.
  const lineNo = rendered.text.slice(manifest.start, Math.max(manifest.start, run.outStart!)).split('\n').length;
  const errorLine = read && !read.ok ? Number(/line (\d+):/.exec(read.error)?.[1] ?? 0) : 0;
  const failsHere = read !== undefined && !read.ok && (errorLine === lineNo || errorLine === lineNo - 1);
  if (failsHere) return `YAML: Helm fails here — \`${read.helmError}\``;
  const elsewhere = read && !read.ok ? `\n\nThe manifest fails elsewhere: \`${read.helmError}\`` : '';
  if (resulting.includes('\n')) {
    if (uncertain) return 'YAML: not checked: parts of the manifest cannot be evaluated statically.';
    return read?.ok ? 'YAML: the manifest reads without error.' : `YAML: the manifest fails elsewhere: \`${read?.helmError}\``;
  }
  const local = lineVerdict(resulting);
  if (!local.ok) return `YAML: go-yaml cannot read this line: \`error converting YAML to JSON: ${local.error}\`${uncertain ? ' (the line number is not known: parts of the manifest cannot be evaluated statically)' : ''}.${elsewhere}`;
  if (run.value instanceof Unknown) return `YAML: its type depends on what cannot be evaluated here.${elsewhere}`;
  return `YAML: ${verdictText(local)}${requirement(slot, local)}${elsewhere}`;
}

/** The line on its own: `key: value`, `- value` or `- key: value`, de-indented. */
function lineVerdict(line: string): YamlVerdict {
  let body = line.trim();
  while (/^- /.test(body)) body = body.slice(2).trimStart();
  const colon = /^((?:"[^"]*"|'[^']*'|[^\s#'"][^#]*?)):(?:\s+|$)/.exec(body);
  return yamlVerdict(colon ? body.slice(colon[0].length) : body);
}

function verdictText(verdict: YamlVerdict & { ok: true }): string {
  const value = verdict.value;
  if (verdict.type === 'null') return 'null.';
  if (verdict.type === 'string') return `the string ${codeSpan(JSON.stringify(value))}.`;
  if (value instanceof GoInt) return `the number ${codeSpan(value.value.toString())}.`;
  if (value instanceof GoFloat) return `the number ${codeSpan(formatFloat64G(value.value))}.`;
  return `the ${verdict.type} ${codeSpan(String(value))}.`;
}

function requirement(slot: FieldSlot | undefined, verdict: YamlVerdict & { ok: true }): string {
  if (!slot || slot.isKey || verdict.type === 'string' || slot.style === 'injected') return '';
  if (!isStringField({ kind: slot.kind }, slot.path)) return '';
  return ` ${codeSpan(fieldName(slot.path))} must be a string: the object is rejected (see HELM-UNQUOTED-STRING).`;
}

function conditionLines(workspace: WorkspaceView, chart: Chart, file: string, text: string, action: TemplateAction, pipeline: Pipeline, rendered: Rendered, type: ActionNode['type']): string[] {
  const analysis = analyzeTemplate(file, text);
  const lines = valuesRead(workspace, chart, pipeline, analysis.rebound(action.start));
  if (!rendered.conditions.has(action.start)) {
    lines.push(rendered.failure ? `Helm fails: \`${rendered.failure.message}\`` : 'Not evaluated with the chart\'s values: an earlier branch is taken.');
    return lines;
  }
  const value = rendered.conditions.get(action.start)!;
  if (value instanceof Unknown) {
    lines.push(`Cannot be evaluated statically: ${value.reason}.`);
    return lines;
  }
  const truth = isTrue(value);
  const what = type === 'range' ? (truth ? 'has items: the body is rendered for each.' : 'is empty: the body is not rendered.') : truth ? 'holds: this branch is rendered.' : 'does not hold: this branch is not rendered.';
  lines.push(`Evaluates to ${describeValue(value)}, which ${what}`);
  return lines;
}
