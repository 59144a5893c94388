/**
 * `squote` wraps a value in single quotes without escaping anything, so a value holding `'`
 * renders as broken YAML (`'it's'`). Whether a value holds one can only be told from the
 * chart's values: each `squote` action is evaluated with `values.yaml`, behind a disabled
 * `if` too, and reported when what it prints does not read back as the value.
 */
import type { RuleContext, RuleReport } from '../rules/rule';
import { codeSpan } from '../markdown';
import { chartDirOf, loadChart, type ChartFiles } from './chart';
import { executeTemplate } from './execute';
import { classifyOutput } from './output-class';
import { commandFunction } from './parse';
import { yamlVerdict } from './scalar-judge';
import type { TemplateAnalysis } from './template-file';
import { ancestorsOf, type TreeNode } from './tree';
import { Unknown } from './values';

export function* squoteReports(context: RuleContext, analysis: TemplateAnalysis): Generator<RuleReport> {
  const candidates = [...analysis.layout.slots.entries()].filter(([offset]) => {
    const node = analysis.tree.nodes.get(offset);
    return node?.type === 'output' && classifyOutput(node.pipeline, false).kind === 'quoted' && commandFunction(node.pipeline.commands[node.pipeline.commands.length - 1]) === 'squote';
  });
  if (candidates.length === 0) return;
  const files: ChartFiles = { text: (path) => (path === context.file ? context.text : context.parsedFile(path)?.text) };
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
