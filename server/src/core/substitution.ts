/**
 * Which documents of a file the controller substitutes, in which render contexts, and why
 * the others are skipped. Rules read this; they never reach into the Flux graph themselves.
 */
import type { RenderContext } from './flux/graph';
import { substitutesIn } from './flux/strategy-support';
import type { KustomizeFile } from './flux/kustomize-file';
import type { Variable } from './flux/variables';
import type { K8sObject } from './workspace/objects';

export const substituteKey = 'kustomize.toolkit.fluxcd.io/substitute';

export type SkipReason = 'no-postbuild' | 'no-variables' | 'label' | 'annotation';

export interface ActiveContext {
  context: RenderContext;
  strict: boolean;
  /** `strict` is Flux ≥ 2.9's default, assumed: the repository does not show the cluster's version. */
  strictAssumed: boolean;
  /** The variable the controller would use for `name`, if defined. */
  variable(name: string): Variable | undefined;
  /** True when a source's keys cannot be known, so any name may be defined. */
  opaque: boolean;
  /** The sources that could define a name no visible layer defines (when `opaque`). */
  openBecause: readonly string[];
  /** `cluster/kustomization`, for messages. */
  label: string;
}

export interface SkippedContext {
  context: RenderContext;
  reason: SkipReason;
  /** Where the opt-out is written, when it is a label or annotation. */
  at?: { file: string; key: string };
}

export interface DocumentSubstitution {
  active: ActiveContext[];
  skipped: SkippedContext[];
}

export function contextLabel(context: RenderContext): string {
  return `${context.cluster.name}/${context.instance.kustomization.name}`;
}

const disabled = (map: ReadonlyMap<string, string> | undefined) => map?.get(substituteKey) === 'disabled';

/**
 * All that substitutionOf reads of an object besides its file: objects of one file with the
 * same answer are substituted alike (the engine works a file's out once per answer, not once
 * per document).
 */
export function optOutOf(object: K8sObject | undefined): 'no object' | 'label' | 'annotation' | 'none' {
  if (!object) return 'no object';
  if (disabled(object.labels)) return 'label';
  return disabled(object.annotations) ? 'annotation' : 'none';
}

/** The opt-out, if a label or annotation on the object or inherited from kustomize sets it. */
function optOut(object: K8sObject | undefined, chain: readonly KustomizeFile[], generator: RenderContext['rendered']['generator']): SkippedContext['at'] & { reason: 'label' | 'annotation' } | undefined {
  const own = optOutOf(object);
  if (object && (own === 'label' || own === 'annotation')) return { reason: own, file: object.file, key: substituteKey };
  for (const k of chain) {
    if (disabled(k.commonLabels)) return { reason: 'label', file: k.file, key: substituteKey };
    if (disabled(k.commonAnnotations)) return { reason: 'annotation', file: k.file, key: substituteKey };
  }
  if (generator) {
    const owner = chain[chain.length - 1];
    if (disabled(generator.labels) || disabled(owner?.generatorLabels)) return { reason: 'label', file: owner?.file ?? '', key: substituteKey };
    if (disabled(generator.annotations) || disabled(owner?.generatorAnnotations)) return { reason: 'annotation', file: owner?.file ?? '', key: substituteKey };
  }
  return undefined;
}

/** How one document (or a whole generator input, with `object` undefined) is substituted. */
export function substitutionOf(contexts: readonly RenderContext[], object: K8sObject | undefined): DocumentSubstitution {
  const result: DocumentSubstitution = { active: [], skipped: [] };
  for (const context of contexts) {
    const { instance, rendered } = context;
    // An explicit opt-out is the most telling reason, so it is checked first.
    const out = optOut(object, rendered.chain, rendered.generator);
    if (out) {
      result.skipped.push({ context, reason: out.reason, at: { file: out.file, key: out.key } });
      continue;
    }
    if (!instance.postBuild) {
      result.skipped.push({ context, reason: 'no-postbuild' });
      continue;
    }
    if (!substitutesIn(instance)) {
      result.skipped.push({ context, reason: 'no-variables' });
      continue;
    }
    const vars = instance.variables.vars;
    result.active.push({ context, strict: instance.strict, strictAssumed: instance.strict && context.cluster.strictMode.assumed === true, variable: (name) => vars.get(name), opaque: instance.variables.opaque, openBecause: instance.variables.openBecause, label: contextLabel(context) });
  }
  return result;
}

/** The same contexts active, and skipped for the same reasons at the same places. */
export function sameSubstitution(a: DocumentSubstitution, b: DocumentSubstitution): boolean {
  return (
    a.active.length === b.active.length &&
    a.skipped.length === b.skipped.length &&
    a.active.every((x, i) => x.context === b.active[i].context) &&
    a.skipped.every((x, i) => x.context === b.skipped[i].context && x.reason === b.skipped[i].reason && x.at?.file === b.skipped[i].at?.file && x.at?.key === b.skipped[i].at?.key)
  );
}
