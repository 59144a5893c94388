import { commandFunction, type Pipeline } from '../gotemplate/ast';
import { actionAt } from '../gotemplate/lexer';
import { ancestorsOf, type TreeNode } from '../gotemplate/tree';
import { chartDirOf, loadChart, type ChartFiles } from '../helm/chart';
import { executeTemplate } from '../helm/execute';
import type { FieldSlot } from '../helm/key-paths';
import { classifyOutput } from '../helm/output-class';
import { printfQuoted, replaceWithQuoted } from '../helm/quote-fixes';
import { scalarPieces, yamlVerdict, type ScalarPiece } from '../helm/scalar-judge';
import { analyzeTemplate, type TemplateAnalysis } from '../helm/template-file';
import { Unknown } from '../helm/values';
import { helmValuesOf } from '../helm/values-worlds';
import { codeSpan } from '../markdown';
import type { Rule, RuleContext, RuleReport } from './rule';
import type { RuleFix } from '../model/rule-edits';

/** Functions whose output is a number: nothing in it can close a quote. */
const numeric = new Set(['int', 'int64', 'float64', 'len', 'add', 'add1', 'sub', 'mul', 'div', 'mod', 'max', 'min', 'atoi', 'round', 'floor', 'ceil']);

function printsNumber(pipeline: Pipeline): boolean {
  return numeric.has(commandFunction(pipeline.commands[pipeline.commands.length - 1]) ?? '');
}

/**
 * Names of values that hold free text, where a `"` or `\` is ordinary: secrets, prose,
 * expressions, documents. An image, a port, a duration or a host name never holds one, and
 * hand-quoting those (`image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"`) is
 * safe; a hint there is noise.
 */
const freeText = /pass(word|wd|phrase)?|secret|token|credential|descr|message|msg|comment|note|text|summary|title|banner|query|regexp?|pattern|expr|script|json|body|content|template|dsn|html/i;
/** …unless the name says it holds a name, an address or a reference (`existingPasswordSecret`, `secretName`, `alertQueryUrl`). */
const reference = /(name|url|uri|key|ref|file|path|dir)$|^existing/i;
const namesFreeText = (name: string) => freeText.test(name) && !reference.test(name);

/** Whether the field is an annotation (where JSON and prose live) or named like free text, or a value the actions read is. */
function holdsFreeText(path: FieldSlot['path'], pieces: readonly ScalarPiece[]): boolean {
  const field = path[path.length - 1];
  if (path.length >= 3 && path[path.length - 3] === 'metadata' && path[path.length - 2] === 'annotations') return true;
  if (typeof field === 'string' && namesFreeText(field)) return true;
  return pieces.some((p) => p.pipeline !== undefined && namesRead(p.pipeline).some(namesFreeText));
}

/** The last name of each field or variable a pipeline reads: `.Values.auth.password` → `password`. */
function namesRead(pipeline: Pipeline): string[] {
  const names: string[] = [];
  for (const command of pipeline.commands) {
    for (const arg of command.args) {
      if (arg.kind === 'field' || arg.kind === 'variable') names.push(arg.path.length > 0 ? arg.path[arg.path.length - 1] : arg.kind === 'variable' ? arg.name.slice(1) : '');
      else if (arg.kind === 'pipeline') names.push(...namesRead(arg.pipeline), ...arg.path.slice(-1));
    }
  }
  return names;
}

/**
 * HELM-HAND-QUOTED: a chart template wraps an action in YAML quotes by hand,
 * `"{{ .Values.x }}"`. The output is a string, but the value is pasted between the quotes
 * unescaped, so a `"` or `\` in it breaks the YAML (and `'` in a single-quoted one).
 * `| quote` escapes the value the way Go does and is always safe.
 */
export const helmHandQuoted: Rule = {
  id: 'HELM-HAND-QUOTED',
  severity: 'hint',
  target: 'helm-template',
  summary: 'A template action quoted by hand: a `"` or `\\` in the value breaks the YAML.',
  docs: `# HELM-HAND-QUOTED

## What it does
In a Helm chart template, flags a quoted YAML scalar whose text comes from an action that
passes a value through: \`"{{ .Values.x }}"\`, \`'{{ .Values.x }}'\`, \`"{{ .Values.a }}-x"\`,
where the value can hold a quote or a backslash: an annotation, or a field or value named
like free text (a password, secret or token, a description, message or comment, a query,
pattern or expression, a script, JSON, a template). Hand-quoted images, ports, durations and
host names are left alone: they never hold one, and the idiom is safe there.
These are hints: the output is a string, and only some values break it. Two cases are
certain and reported as errors:
- \`"{{ .Values.x | quote }}"\`, quoted twice: it renders \`""x""\`, which is never valid YAML;
- \`{{ .Values.x | squote }}\` where the chart's \`values.yaml\` gives a value with \`'\`:
  \`squote\` does not escape, so \`it's\` renders \`'it's'\` and the render fails.

## Why is this bad?
The quotes make the output a string, which is what the field needs, but the value is pasted
between them as it is. A value with \`"\` or \`\\\` — a JSON snippet in an annotation, a Windows
path, a regular expression — ends the string early or starts an escape, and the render
aborts with \`error converting YAML to JSON: yaml: line N: did not find expected key\` (or
\`found unknown escape character\`), naming the template rather than the value.

## Example
\`\`\`yaml
metadata:
  annotations:
    example.com/config: "{{ .Values.config }}"   # config: '{"a": 1}' breaks the render
\`\`\`

## Fix
Let Helm quote: \`{{ .Values.config | quote }}\`. \`quote\` escapes with Go's rules, so every
value re-reads as the same string. A scalar with literal text around the action becomes one
action: \`{{ printf "%v-x" .Values.a | quote }}\`. Prefer \`quote\` over \`squote\`.
`,
  *check(context) {
    const analysis = analyzeTemplate(context.file, context.text);
    const seen = new Set<string>();
    for (const slot of analysis.layout.slots.values()) {
      const key = `${slot.start}:${slot.end}`;
      if (slot.isKey || (slot.style !== 'double' && slot.style !== 'single') || seen.has(key)) continue;
      seen.add(key);
      const pieces = scalarPieces(slot, analysis);
      if (!pieces) continue;
      const actions = pieces.filter((p) => p.kind === 'action');
      const quotedTwice = actions.find((p) => p.output?.kind === 'quoted');
      const passes = actions.some((p) => (p.output?.kind === 'value' && !printsNumber(p.pipeline!)) || p.output?.kind === 'structured');
      if (!quotedTwice && !passes) continue;
      const range = { start: slot.start, end: slot.end };
      const source = codeSpan(context.text.slice(slot.start, slot.end));
      const single = pieces.length === 1 ? pieces[0] : undefined;
      const action = single && actionAt(analysis.tree.scan.actions, single.start);
      if (quotedTwice && slot.style === 'double') {
        const fixes: RuleFix[] = single && action ? [{ title: 'Remove the hand quotes: `quote` already quotes', edits: [replaceWithQuoted(context.text, range, action, single.pipeline!)], preferred: true }] : [];
        // Whatever the value, `""…""` never parses: this one is certain, so it is an error.
        yield { range, severity: 'error', message: `${source} is quoted twice: \`quote\` writes its own quotes, which end the hand-quoted string early (\`""…""\`): not valid YAML whatever the value.`, fixes };
        continue;
      }
      if (!passes || !holdsFreeText(slot.path, pieces)) continue;
      const fixes: RuleFix[] = [];
      if (single && action) fixes.push({ title: 'Replace the hand quotes with `| quote`', edits: [replaceWithQuoted(context.text, range, action, single.pipeline!)], preferred: true });
      else {
        const edit = printfQuoted(context.text, range, pieces);
        if (edit) fixes.push({ title: 'Build the string in one action: `printf … | quote`', edits: [edit], preferred: true });
      }
      const breaking = slot.style === 'double' ? 'a `"` or `\\` in the value' : "a `'` in the value";
      yield { range, message: `${source} is quoted by hand: the value is pasted between the quotes unescaped, so ${breaking} breaks the YAML. Use \`| quote\`.`, fixes } satisfies RuleReport;
    }
    yield* squoteReports(context, analysis);
  },
};

/**
 * `squote` wraps a value in single quotes without escaping anything, so a value holding `'`
 * renders as broken YAML (`'it's'`). Whether a value holds one can only be told from the
 * chart's values: each `squote` action is evaluated with `values.yaml`, behind a disabled
 * `if` too, and reported when what it prints does not read back as the value.
 */
function* squoteReports(context: RuleContext, analysis: TemplateAnalysis): Generator<RuleReport> {
  const candidates = [...analysis.layout.slots.entries()].filter(([offset]) => {
    const node = analysis.tree.nodes.get(offset);
    return node?.type === 'output' && classifyOutput(node.pipeline, false).kind === 'quoted' && commandFunction(node.pipeline.commands[node.pipeline.commands.length - 1]) === 'squote';
  });
  if (candidates.length === 0) return;
  // Texts as they are, not parsed as YAML: templates are Go templates, and values are read as Helm reads them.
  const files: ChartFiles = { text: (path) => (path === context.file ? context.text : context.derived(path, 'text', (text) => text)), helmValues: (path) => helmValuesOf(context, path) };
  const dir = chartDirOf(context.file, files);
  if (dir === undefined) return;
  // Loaded once per chart and check (its values parse is the cost), then given this file's own tree.
  const loaded = context.shared(`helm-chart:${dir}`, () => loadChart(dir, files));
  const chart = { ...loaded, trees: new Map(loaded.trees), defines: new Map(loaded.defines) };
  chart.trees.set(context.file, analysis.tree);
  for (const define of analysis.tree.defines) chart.defines.set(define.name, define);
  for (const [offset] of candidates) {
    const node = analysis.tree.nodes.get(offset);
    if (node?.type !== 'output') continue;
    const steps = ancestorsOf(analysis.tree.body, offset);
    if (!steps) continue;
    const rendered = executeTemplate(chart, context.file, { force: new Map<TreeNode, number>(steps.map((s) => [s.node, s.branch])) });
    const run = rendered.runs.find((r) => r.action === offset && r.file === context.file);
    if (!run || run.value instanceof Unknown || run.text === '') continue;
    const verdict = yamlVerdict(run.text);
    const inner = run.text.slice(1, -1);
    if (verdict.ok && verdict.value === inner) continue;
    const last = node.pipeline.commands[node.pipeline.commands.length - 1];
    const fn = last.args[0];
    const problem = verdict.ok ? `reads back as ${codeSpan(String(verdict.value))}` : `is not valid YAML (\`${verdict.error}\`)`;
    yield {
      // The chart's own values break the render: certain, not a style hint.
      severity: verdict.ok ? 'warning' : 'error',
      range: { start: fn.start, end: fn.end },
      message: `\`squote\` does not escape: with the chart's values this renders ${codeSpan(run.text)}, which ${problem}. Use \`quote\`, which escapes.`,
      fixes: [{ title: 'Use `quote` instead of `squote`', edits: [{ range: { start: fn.start, end: fn.end }, newText: 'quote' }], preferred: true }],
    };
  }
}
