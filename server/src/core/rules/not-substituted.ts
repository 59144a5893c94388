import { disableSubstitutionFix } from '../fixes';
import type { FluxGraph, KustomizationInstance, RenderContext } from '../flux/graph';
import { substitutesIn } from '../flux/strategy-support';
import type { K8sObject } from '../workspace/objects';
import { perGraph } from './support/per-graph';
import { copyPostBuildFix } from './support/copy-postbuild-fix';
import type { Rule } from './rule';
import type { RuleFix } from '../model/rule-edits';

/**
 * NOT-SUBSTITUTED: `${X}` for a variable the cluster knows, in a file whose Kustomization
 * does not substitute it. The literal `${X}` ships to the cluster.
 *
 * Typical causes: a manifest moved from `apps/` (whose Kustomization has postBuild) to
 * `infrastructure/` (which has none), or a Kustomization whose variables all vanished.
 * A deliberate opt-out (the `substitute: disabled` label or annotation) is respected.
 */
export const notSubstituted: Rule = {
  id: 'NOT-SUBSTITUTED',
  severity: 'warning',
  summary: 'A known variable in a file its Kustomization does not substitute: the literal ships.',
  docs: `# NOT-SUBSTITUTED

## What it does
Flags \`\${X}\` where X is a variable defined for some Kustomization of the cluster, in a file
that the Kustomizations rendering it do not substitute: they have no \`postBuild\`, or no
variable resolves for them (and the strategy is not \`Always\`). A token in a Flux
Kustomization's own \`spec.patches\` is not flagged when that Kustomization substitutes: the
patches go into what it renders, and its postBuild substitutes them there (a \`cluster-apps\`
parent handing \`CLUSTER: \${CLUSTER}\` to every child).

## Why is this bad?
The text \`\${cluster_domain}\` reaches the cluster as written: an Ingress host, an image tag or
a URL with a literal \`\${…}\` in it. Nothing fails at reconcile time, so the mistake shows up
only as broken behaviour. It usually happens when a manifest moves between directories
applied by different Kustomizations.

## Example
\`\`\`yaml
# infrastructure/ingress.yaml, applied by a Kustomization without postBuild
spec:
  rules:
    - host: grafana.\${cluster_domain}
\`\`\`

## Fix
Add \`postBuild\` (with the same \`substituteFrom\`) to the Kustomization that applies the file,
or move the file under one that substitutes: the preferred quick fix copies the \`postBuild\` of
the Kustomization that defines the variable. A resource that must keep \`\${…}\` literally should
say so with the \`kustomize.toolkit.fluxcd.io/substitute: disabled\` annotation (the other fix).
`,
  *check(context) {
    const graph = context.fluxGraph();
    for (const document of context.documents()) {
      const { active, skipped } = document.substitution;
      if (active.length > 0) continue;
      const unsubstituted = skipped.filter((s) => s.reason === 'no-postbuild' || s.reason === 'no-variables');
      if (unsubstituted.length === 0 || unsubstituted.length < skipped.length) continue;
      const ownPatchesSubstituted = substitutesOwnPatches(graph, document.object);
      for (const { site, scan, comment } of document.scalars) {
        if (comment) continue; // Comments never reach the cluster from this path.
        // A Flux Kustomization's spec.patches go into what it renders, which its own postBuild substitutes.
        if (ownPatchesSubstituted && site.path[0] === 'spec' && site.path[1] === 'patches') continue;
        for (const expansion of scan.expansions) {
          if (expansion.error !== undefined) continue;
          // A bare `${NAME}` is named without parsing it.
          const name = expansion.plainName ?? expansion.node?.name;
          if (name === undefined) continue;
          const definers = unsubstituted.flatMap((s) => definersIn(graph, s.context, name));
          if (definers.length === 0) continue;
          const renderers = [...new Set(unsubstituted.map((s) => `${s.context.cluster.name}/${s.context.instance.kustomization.name}`))];
          const fixes: RuleFix[] = [];
          const copy = unsubstituted.length === 1 ? copyPostBuildFix(context, unsubstituted[0].context.instance, definers[0].instance) : undefined;
          if (copy) fixes.push(copy);
          const keep = document.object && disableSubstitutionFix(context.text, document.object);
          if (keep) fixes.push({ ...keep, title: `Keep \`\${${name}}\` literal on purpose: ${keep.title.charAt(0).toLowerCase()}${keep.title.slice(1)}`, preferred: false });
          yield {
            range: site.rangeOf(expansion.start, expansion.end),
            message:
              `\`${site.value.slice(expansion.start, expansion.end)}\` reaches the cluster literally: ${renderers.join(', ')} ` +
              `${renderers.length === 1 ? 'applies' : 'apply'} this file without substitution, though \`${name}\` is defined for ${[...new Set(definers.map((d) => d.label))].join(', ')}.`,
            related: unsubstituted.map((s) => ({
              file: s.context.instance.kustomization.object.file,
              range: s.context.instance.kustomization.nameRange,
              message: s.reason === 'no-postbuild' ? 'this Kustomization has no postBuild' : 'no variable resolves for this Kustomization',
            })),
            fixes,
          };
        }
      }
    }
  },
};

/** Does the Flux Kustomization `object` substitute (in some cluster) what its spec.patches patch? */
function substitutesOwnPatches(graph: FluxGraph, object: K8sObject | undefined): boolean {
  if (!object || object.kind !== 'Kustomization') return false;
  const substituting = perGraph(graph, 'substituting-kustomizations', () => new Set(graph.clusters.flatMap((c) => c.instances.filter((i) => i.substitutes).map((i) => i.kustomization.id))));
  return substituting.has(`${object.file}#${object.index}`);
}

/** The Kustomizations of the same cluster that define `name` (asked per expansion: worked out once per graph, cluster and name). */
function definersIn(graph: FluxGraph, context: RenderContext, name: string): ReadonlyArray<{ label: string; instance: KustomizationInstance }> {
  const cluster = context.cluster;
  if (!graph.clusters.includes(cluster)) return [];
  // Cluster names are unique within a graph.
  return perGraph(graph, `definers\0${cluster.name}\0${name}`, () => cluster.instances.filter((i) => substitutesIn(i) && i.variables.vars.has(name)).map((i) => ({ label: `${cluster.name}/${i.kustomization.name}`, instance: i })));
}
