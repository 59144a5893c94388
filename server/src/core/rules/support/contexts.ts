/** How rules name the render contexts a finding holds in, in messages and related locations. */
import { Memo } from '../../memo';
import type { ActiveContext } from '../../substitution';
import type { RuleReport } from '../rule';

/** `production/apps` or `production/apps, staging/apps`. */
export function contextList(active: readonly ActiveContext[]): string {
  const labels = [...new Set(active.map((a) => a.label))];
  return labels.length <= 3 ? labels.join(', ') : `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more`;
}

type Related = NonNullable<RuleReport['related']>[number];

/**
 * One related location per Kustomization: where the substitution comes from. Each context's
 * entry is made once and shared by every finding that names it (a big manifest has thousands),
 * which also lets the LSP layer convert it once.
 */
export function relatedKustomizations(active: readonly ActiveContext[]): Related[] {
  const seen = new Set<string>();
  const related: Related[] = [];
  for (const { context, label } of active) {
    if (seen.has(label)) continue;
    seen.add(label);
    related.push(entries.of(context, relatedOf));
  }
  return related;
}

const entries = new Memo<ActiveContext['context'], Related>();

function relatedOf(context: ActiveContext['context']): Related {
  const k = context.instance.kustomization;
  const postBuild = context.instance.postBuild;
  return postBuild
    ? { file: postBuild.file, range: postBuild.range, message: `substituted by Kustomization ${k.name} in cluster ${context.cluster.name}` }
    : { file: k.object.file, range: k.nameRange, message: `rendered by Kustomization ${k.name} in cluster ${context.cluster.name}` };
}
