/**
 * What a check looked at, per kind of field a rule reads: values Flux substitutes, Helm
 * string fields a template action renders into, Fleet comparePatches entries. A run whose counts are all zero checked
 * nothing, which is not the same as passing (`render-lens check` says so and fails).
 */
import { comparePatchEntries } from './fleet/compare-patches';
import { scalarPieces } from './helm/scalar-judge';
import { analyzeTemplate } from './helm/template-file';
import { isStringField } from './kube/schema-types';
import { fleetDocuments, isHelmOp, isFleetYaml } from './fleet/options';
import type { DocumentView } from './model/documents';

export interface CheckedCounts {
  /** Scalars (keys and values) of documents post-build substitution rewrites in some context. */
  substitutedValues: number;
  /** Fields of chart templates that Kubernetes types as strings and a `{{ … }}` action renders into. */
  helmStringFields: number;
  /** `diff.comparePatches` entries of fleet.yaml files and HelmOps. */
  fleetPatches: number;
}

export const nothingCounted: Readonly<CheckedCounts> = Object.freeze({ substitutedValues: 0, helmStringFields: 0, fleetPatches: 0 });

export function addCounts(into: CheckedCounts, more: Readonly<CheckedCounts>): void {
  into.substitutedValues += more.substitutedValues;
  into.helmStringFields += more.helmStringFields;
  into.fleetPatches += more.fleetPatches;
}

export function countedNothing(counts: Readonly<CheckedCounts>): boolean {
  return counts.substitutedValues === 0 && counts.helmStringFields === 0 && counts.fleetPatches === 0;
}

/** The counts of a YAML file's documents, each with how many scalars it holds. */
export function countsOfDocuments(file: string, views: ReadonlyArray<DocumentView & { scalarCount: number }>): CheckedCounts {
  let substitutedValues = 0;
  for (const view of views) if (view.substitution.active.length > 0) substitutedValues += view.scalarCount;
  const fleet = isFleetYaml(file) || views.some(isHelmOp) ? fleetDocuments(file, views) : [];
  const fleetPatches = fleet.reduce((n, doc) => n + comparePatchEntries(doc).length, 0);
  return { substitutedValues, helmStringFields: 0, fleetPatches };
}

/** The string fields of a chart template an action renders into: what HELM-UNQUOTED-STRING and HELM-HAND-QUOTED judge. */
export function countsOfTemplate(file: string, text: string): CheckedCounts {
  const analysis = analyzeTemplate(file, text);
  const seen = new Set<string>();
  let helmStringFields = 0;
  for (const slot of analysis.layout.slots.values()) {
    const key = `${slot.start}:${slot.end}`;
    if (slot.isKey || seen.has(key)) continue;
    seen.add(key);
    if (isStringField({ kind: slot.kind }, slot.path) && scalarPieces(slot, analysis)?.some((p) => p.kind === 'action')) helmStringFields++;
  }
  return { ...nothingCounted, helmStringFields };
}

/** `80 substituted values, 0 Helm string fields, 2 Fleet patches`. */
export function describeCounts(counts: Readonly<CheckedCounts>): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    plural(counts.substitutedValues, 'substituted value', 'substituted values'),
    plural(counts.helmStringFields, 'Helm string field', 'Helm string fields'),
    plural(counts.fleetPatches, 'Fleet patch', 'Fleet patches'),
  ].join(', ');
}
