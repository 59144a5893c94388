/**
 * What a check looked at, per kind of field a rule reads: values Flux substitutes, Helm
 * template actions, Fleet comparePatches entries. A run whose counts are all zero checked
 * nothing, which is not the same as passing (`render-lens check` says so and fails).
 */
import { comparePatchEntries } from './fleet/compare-patches';
import { fleetDocuments, isHelmOp, isFleetYaml } from './fleet/options';
import type { DocumentView } from './rules/rule';

export interface CheckedCounts {
  /** Scalars (keys and values) of documents post-build substitution rewrites in some context. */
  substitutedValues: number;
  /** `{{ … }}` actions of Helm chart templates. */
  helmActions: number;
  /** `diff.comparePatches` entries of fleet.yaml files and HelmOps. */
  fleetPatches: number;
}

export const nothingCounted: Readonly<CheckedCounts> = Object.freeze({ substitutedValues: 0, helmActions: 0, fleetPatches: 0 });

export function addCounts(into: CheckedCounts, more: Readonly<CheckedCounts>): void {
  into.substitutedValues += more.substitutedValues;
  into.helmActions += more.helmActions;
  into.fleetPatches += more.fleetPatches;
}

export function countedNothing(counts: Readonly<CheckedCounts>): boolean {
  return counts.substitutedValues === 0 && counts.helmActions === 0 && counts.fleetPatches === 0;
}

/** The counts of a YAML file's documents, each with how many scalars it holds. */
export function countsOfDocuments(file: string, views: ReadonlyArray<DocumentView & { scalarCount: number }>): CheckedCounts {
  let substitutedValues = 0;
  for (const view of views) if (view.substitution.active.length > 0) substitutedValues += view.scalarCount;
  const fleet = isFleetYaml(file) || views.some(isHelmOp) ? fleetDocuments(file, views) : [];
  const fleetPatches = fleet.reduce((n, doc) => n + comparePatchEntries(doc).length, 0);
  return { substitutedValues, helmActions: 0, fleetPatches };
}

/** `80 substituted values, 0 Helm template actions, 2 Fleet patches`. */
export function describeCounts(counts: Readonly<CheckedCounts>): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    plural(counts.substitutedValues, 'substituted value', 'substituted values'),
    plural(counts.helmActions, 'Helm template action', 'Helm template actions'),
    plural(counts.fleetPatches, 'Fleet patch', 'Fleet patches'),
  ].join(', ');
}
