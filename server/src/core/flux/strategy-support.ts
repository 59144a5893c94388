/**
 * `spec.postBuild.substituteStrategy` exists from kustomize-controller v1.9 (Flux 2.9). An
 * older controller does not know the field: `Always` is dropped with the rest of the unknown
 * fields, and substitution runs only when a variable is defined, as with the default. The
 * graph records what is written; these say what a cluster's Flux makes of it.
 */
import type { KustomizationInstance } from './graph';
import { unseenSourcesDefine } from './variables';

/** `v2.9.1` ≥ 2.9? An unreadable version is taken as new enough. */
export function fluxAtLeast(version: string, major: number, minor: number): boolean {
  const match = /^v?(\d+)\.(\d+)/.exec(version);
  if (!match) return true;
  const [a, b] = [Number(match[1]), Number(match[2])];
  return a > major || (a === major && b >= minor);
}

/** `substituteStrategy: Always` written for a cluster whose Flux predates it (when its version is known). */
export function alwaysIgnored(instance: KustomizationInstance): boolean {
  const version = instance.cluster.fluxVersion;
  return instance.postBuild?.strategy === 'Always' && version !== undefined && !fluxAtLeast(version, 2, 9);
}

/** Whether post-build substitution runs, honouring `Always` only where the cluster's Flux knows it. */
export function substitutesIn(instance: KustomizationInstance): boolean {
  if (!alwaysIgnored(instance)) return instance.substitutes;
  return instance.variables.vars.size > 0 || unseenSourcesDefine(instance.variables);
}
