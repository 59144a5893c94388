import { alwaysIgnored, fluxAtLeast, substitutesIn } from '../flux/strategy-support';
import { isMap } from 'yaml';
import { insertIntoBlockMap, parsedForEdit } from '../fixes';
import type { PostBuild } from '../flux/flux-kustomization';
import type { KustomizationInstance } from '../flux/graph';
import type { Range } from '../model';
import { mapGet, mapPair, rangeOf } from '../yaml/nodes';
import { instanceItemsByFile, perGraph } from './support/per-graph';
import type { Rule, RuleContext, RuleReport } from './rule';
import type { RuleFix } from '../model/rule-edits';
import { firstLine, instanceLabel, labelList } from './support/variable-definitions';

/**
 * SUBSTITUTION-SKIPPED: `postBuild` is there, but no variable resolves and the strategy is
 * the default `WithVariables`, so the controller does not substitute at all.
 *
 * `$${x}` then reaches the cluster as `$${x}`, `${x:=default}` stays literal and strict mode
 * never fires. It usually means an optional source that is absent, or a source that is empty.
 * `substituteStrategy: Always` (Flux 2.9) makes substitution run regardless.
 */
export const substitutionSkipped: Rule = {
  id: 'SUBSTITUTION-SKIPPED',
  severity: 'information',
  summary: '`postBuild` with no variables and the default strategy: nothing is substituted.',
  docs: `# SUBSTITUTION-SKIPPED

## What it does
Flags \`spec.postBuild\` of a Flux Kustomization when, in some cluster, no variable resolves —
no inline \`substitute\` entry, and every \`substituteFrom\` object optional and absent, or
empty — and \`substituteStrategy\` is not \`Always\`. The message says in which clusters and
why.

## The contract
\`substituteStrategy: Always\` counts only where the cluster's Flux knows it: kustomize-controller
v1.9 (Flux 2.9) and later. On a cluster whose Flux version (from
\`flux-system/gotk-components.yaml\`) is older, the field is dropped as unknown: the finding says
it is ignored there, and Render Lens does not apply it (no substitution with no variables).

## Why is this bad?
With the default strategy (\`WithVariables\`) kustomize-controller runs substitution only when
there is at least one variable. With none, it skips the step entirely, so the manifests
reach the cluster exactly as written:

- \`$\${x}\` stays \`$\${x}\` instead of becoming \`\${x}\`;
- \`\${replicas:=2}\` stays literal instead of using the default, and the apply fails or ships
  the text;
- strict mode never fires, so an undefined \`\${x}\` ships as is.

The same manifests behave differently the day the optional ConfigMap appears in the cluster,
which makes the difference easy to miss in review.

## Example
\`\`\`yaml
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: cluster-overrides
        optional: true     # absent in this cluster: no variables at all
\`\`\`

## Fix
Set \`substituteStrategy: Always\` under \`postBuild\` (kustomize-controller v1.9 / Flux 2.9 and
later; older clusters ignore the field), so substitution runs even without variables; or
define at least one variable; or remove \`postBuild\` if nothing needs substituting.
`,
  *check(context) {
    const skipped = new Map<string, { postBuild: PostBuild; instances: KustomizationInstance[]; reasons: string[] }>();
    const withPostBuild = perGraph(context.fluxGraph(), 'instances by postBuild file', (g) => instanceItemsByFile(g, (instance) => (instance.postBuild ? [{ file: instance.postBuild.file, item: instance }] : [])));
    for (const instance of withPostBuild.get(context.file) ?? []) {
      const postBuild = instance.postBuild!;
      if (substitutesIn(instance)) continue;
      // A missing source that is not optional fails the reconcile instead (MISSING-VAR-SOURCE).
      if (instance.variables.sources.some((s) => !s.object && !s.ref.optional && (s.ref.kind === 'ConfigMap' || s.ref.kind === 'Secret'))) continue;
      const key = `${postBuild.range.start}:${postBuild.range.end}`;
      const entry = skipped.get(key) ?? { postBuild, instances: [], reasons: [] };
      skipped.set(key, entry);
      entry.instances.push(instance);
      entry.reasons.push(`${instance.cluster.name}: ${whyNoVariables(instance)}`);
    }
    for (const { postBuild, instances, reasons } of skipped.values()) {
      const labels = labelList(instances.map(instanceLabel));
      const old = instances.filter((i) => i.cluster.fluxVersion !== undefined && !fluxAtLeast(i.cluster.fluxVersion, 2, 9));
      const ignored = instances.filter(alwaysIgnored);
      const report: RuleReport = {
        range: postBuildKey(context, postBuild) ?? firstLine(context.text, postBuild.range),
        message:
          ignored.length > 0
            ? `substituteStrategy: Always is ignored in ${labelList(ignored.map((i) => i.cluster.name))}: Flux ${labelList(ignored.map((i) => i.cluster.fluxVersion!))} predates it (it arrived in Flux 2.9), ` +
              `so with no variable defined (${why(reasons)}) Flux skips substitution for ${labels}: \`$\${…}\` stays \`$\${…}\` and a default like \`\${x:=1}\` stays literal.`
            : `Flux skips substitution for ${labels}: no variable is defined (${why(reasons)}) and substituteStrategy is not Always, ` +
              'so `$${…}` stays `$${…}` and a default like `${x:=1}` stays literal.',
        related: instances.flatMap((i) =>
          i.variables.sources.filter((s) => !s.object).map((s) => ({ file: s.ref.file, range: s.ref.range, message: `optional ${s.ref.kind} ${s.ref.name} is not in ${i.cluster.name}` })),
        ),
      };
      if (ignored.length > 0) {
        // Said above; the fix is upgrading Flux, which no edit here does.
      } else if (old.length > 0) {
        report.message += ` Setting substituteStrategy: Always needs Flux 2.9 or later; ${labelList(old.map((i) => i.cluster.name))} runs ${labelList(old.map((i) => i.cluster.fluxVersion!))}.`;
      } else {
        const fix = alwaysFix(context, instances[0]);
        if (fix) report.fixes = [fix];
      }
      yield report;
    }
  },
};

function whyNoVariables(instance: KustomizationInstance): string {
  const sources = instance.variables.sources;
  if (sources.length === 0) return 'postBuild has no substitute or substituteFrom entries';
  const parts = sources.map(({ ref, object }) =>
    object ? `${ref.kind} ${ref.name} has no data` : ref.kind === 'ConfigMap' || ref.kind === 'Secret' ? `optional ${ref.kind} ${ref.name} is not in the repository` : `kind ${ref.kind || '(none)'} is ignored`,
  );
  return parts.join(', ');
}

/** `cluster: reason` per cluster, or the reason alone when every cluster has the same. */
function why(reasons: readonly string[]): string {
  const unique = [...new Set(reasons)];
  const bare = [...new Set(unique.map((r) => r.slice(r.indexOf(': ') + 2)))];
  return bare.length === 1 ? bare[0] : unique.join('; ');
}

/** The `postBuild` key of the Kustomization document, when the postBuild is written there. */
function postBuildKey(context: RuleContext, postBuild: PostBuild): Range | undefined {
  for (const document of context.parsed.documents) {
    const pair = mapPair(mapGet(document.contents, 'spec'), 'postBuild');
    const value = rangeOf(pair?.value);
    if (pair && value && value.start === postBuild.range.start) return rangeOf(pair.key);
  }
  return undefined;
}

/** Adds `substituteStrategy: Always` to the Kustomization's own block-style postBuild. */
function alwaysFix(context: RuleContext, instance: KustomizationInstance): RuleFix | undefined {
  const k = instance.kustomization;
  if (instance.postBuild?.file !== k.object.file || k.object.file !== context.file || !parsedForEdit(context.parsed)) return undefined;
  const node = mapGet(context.parsed.documents[k.object.index]?.contents, 'spec', 'postBuild');
  if (!isMap(node) || rangeOf(node)?.start !== instance.postBuild.range.start) return undefined;
  const edit = insertIntoBlockMap(context.text, node, 'substituteStrategy', 'Always');
  if (!edit) return undefined;
  return {
    title: 'Set substituteStrategy: Always (substitute even when no variable is defined)',
    edits: [{ range: { start: edit.offset, end: edit.offset }, newText: edit.newText }],
    preferred: true,
  };
}
