/**
 * Whether something renders a file: a Flux tree (as a resource, patch, generator input or
 * kustomization file), a Helm chart, or a Fleet bundle. YAML nothing renders — Ansible,
 * Terraform inputs, a `tmp/` dump — is not Render Lens' to judge: it gets no YAML-SYNTAX.
 */
import { dirname } from '../../flux/paths';
import type { RuleContext } from '../rule';

export function isConsumed(context: Pick<RuleContext, 'file' | 'fluxGraph' | 'derived'>): boolean {
  const graph = context.fluxGraph();
  if (graph.contextsOf(context.file).length > 0) return true;
  // A kustomization file a tree reads (its patch bodies are rendered, checked or not).
  if (graph.patchContextsOf(context.file).length > 0) return true;
  // A chart (Chart.yaml) or a Fleet bundle (fleet.yaml) in this folder or one above it.
  for (let dir = dirname(context.file); ; dir = dirname(dir)) {
    const prefix = dir === '' ? '' : `${dir}/`;
    if (['Chart.yaml', 'fleet.yaml'].some((name) => context.derived(`${prefix}${name}`, 'exists', () => true) === true)) return true;
    if (dir === '') return false;
  }
}
