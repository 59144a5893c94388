/** How rules name the render contexts a finding holds in, in messages and related locations. */
import type { ActiveContext } from '../substitution';
import type { RuleReport } from './rule';

/** `production/apps` or `production/apps, staging/apps`. */
export function contextList(active: readonly ActiveContext[]): string {
  const labels = [...new Set(active.map((a) => a.label))];
  return labels.length <= 3 ? labels.join(', ') : `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more`;
}

/** One related location per Kustomization: where the substitution comes from. */
export function relatedKustomizations(active: readonly ActiveContext[]): NonNullable<RuleReport['related']> {
  const seen = new Set<string>();
  const related: NonNullable<RuleReport['related']> = [];
  for (const { context, label } of active) {
    const k = context.instance.kustomization;
    if (seen.has(label)) continue;
    seen.add(label);
    const postBuild = context.instance.postBuild;
    related.push(
      postBuild
        ? { file: postBuild.file, range: postBuild.range, message: `substituted by Kustomization ${k.name} in cluster ${context.cluster.name}` }
        : { file: k.object.file, range: k.nameRange, message: `rendered by Kustomization ${k.name} in cluster ${context.cluster.name}` },
    );
  }
  return related;
}
