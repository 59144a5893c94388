/**
 * Hover for Fleet files: what each lookup of a `${ … }` values template reads, what a
 * comparePatches op does, and how Fleet matches a comparePatches name. It reads the same
 * analysis as the rules, so a hover and a diagnostic can never disagree.
 */
import { isScalar } from 'yaml';
import type { WorkspaceView } from '../model/workspace-view';
import type { Hover } from '../model/index';
import type { Range } from '../model';
import { comparePatchEntries } from './compare-patches';
import { fleetDocuments, type FleetDocument } from './options';
import { isPatchOp, patchOpDocs, unsupportedPatchOpMessage } from './patch-ops';
import { valuesTemplateProblems } from '../rules/fleet-values-template';
import { readTemplate, valuesTemplates, type TemplateLookup } from './values-template';
import { nodeRange } from './yaml';

const within = (range: Range, offset: number) => offset >= range.start && offset < Math.max(range.end, range.start + 1);

export function fleetHoverAt(workspace: WorkspaceView, file: string, offset: number): Hover | undefined {
  for (const doc of fleetDocuments(file, workspace.documentsOf(file))) {
    const hover = templateHover(doc, offset) ?? patchHover(doc, offset);
    if (hover) return hover;
  }
  return undefined;
}

function templateHover(doc: FleetDocument, offset: number): Hover | undefined {
  for (const source of valuesTemplates(doc)) {
    const analysis = readTemplate(source);
    const action = analysis.actions.find((range) => within(range, offset));
    if (!action) continue;
    const lookup = analysis.lookups.filter((l) => within(l.range, offset)).sort((a, b) => a.range.end - a.range.start - (b.range.end - b.range.start))[0];
    const inAction = analysis.lookups.filter((l) => l.range.start >= action.start && l.range.end <= action.end);
    const shown = lookup ? [lookup] : inAction;
    const lines = [`**Fleet values template** — rendered by Fleet per cluster (\`${source.where}\`)`, ''];
    for (const l of shown) lines.push(`- \`.${l.path.join('.')}\`: ${explain(l)}`);
    if (shown.length > 0) lines.push('');
    lines.push(
      'Fleet renders the values as one Go template with `${ }` delimiters and `missingkey=error`, then reads the result back as YAML 1.1. ' +
        'It skips templating with `helm.disablePreProcess: true`, and for a cluster without exportable labels.',
    );
    const problems = valuesTemplateProblems(analysis).filter((p) => p.range.start >= action.start && p.range.end <= action.end);
    for (const problem of problems) lines.push('', `⚠ ${problem.message}`);
    return { range: lookup?.range ?? action, markdown: lines.join('\n') };
  }
  return undefined;
}

/** What a lookup reads from the Cluster resource, in words. */
export function explain(lookup: TemplateLookup): string {
  const [field, key, ...rest] = lookup.path;
  const missing = (what: string, fn: string) =>
    `A cluster without ${what} fails the render (\`missingkey=error\`); \`\${ ${fn} }\` gives "" there instead.`;
  switch (field) {
    case 'ClusterName':
      return 'the name of the Fleet `Cluster` resource the bundle is deployed to (its `metadata.name` in the Fleet workspace), not a name the downstream cluster knows itself by.';
    case 'ClusterNamespace':
      return 'the namespace of the Fleet `Cluster` resource — the Fleet workspace, such as `fleet-default` — not the namespace the chart is installed into.';
    case 'ClusterLabels':
    case 'ClusterAnnotations': {
      const what = field === 'ClusterLabels' ? 'label' : 'annotation';
      if (key === undefined) return `every ${what} of the Fleet \`Cluster\` resource, as a map (Fleet leaves out the ones it does not export).`;
      return `the ${what} \`${key}\` of the Fleet \`Cluster\` resource. ${missing(`this ${what}`, `get .${field} "${key}"`)}`;
    }
    case 'ClusterValues': {
      const path = [key, ...rest].filter((p) => p !== undefined).join('.');
      return `${path ? `\`templateValues.${path}\`` : '`templateValues`'} from the spec of the Fleet \`Cluster\` resource. A key some clusters lack fails the render there (\`missingkey=error\`).`;
    }
    default:
      return 'not part of Fleet\'s template context.';
  }
}

function patchHover(doc: FleetDocument, offset: number): Hover | undefined {
  for (const entry of comparePatchEntries(doc)) {
    for (const { op } of entry.operations) {
      const range = nodeRange(op.node);
      if (!range || !within(range, offset) || op.value === undefined) continue;
      const text = isPatchOp(op.value) ? patchOpDocs[op.value as keyof typeof patchOpDocs] : `Fleet cannot apply this: ${unsupportedPatchOpMessage(op.value)}.`;
      return { range, markdown: `**comparePatches op \`${op.value}\`**\n\n${text}` };
    }
    const range = nodeRange(entry.name.node);
    if (range && isScalar(entry.name.node) && within(range, offset)) {
      return {
        range,
        markdown:
          '**comparePatches name**\n\nFleet applies the patch to a resource whose name equals this, or else matches it as an unanchored Go (RE2) regular expression: ' +
          'no lookbehind, lookahead or backreferences. An empty name matches every name.',
      };
    }
  }
  return undefined;
}
