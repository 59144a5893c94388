/**
 * The rule registry: every rule, sorted by id. A tidy test checks the order, that each rule
 * has its docs page and fixture cases, and that ids are unique.
 */
import { dollarCollapse } from './dollar-collapse';
import { dollarHalfEscaped } from './dollar-half-escaped';
import { dollarOverEscaped } from './dollar-over-escaped';
import { envsubstParse } from './envsubst-parse';
import { fleetField } from './fleet-field';
import { fleetJsonPointer } from './fleet-json-pointer';
import { fleetPatchName } from './fleet-patch-name';
import { fleetPatchOp } from './fleet-patch-op';
import { fleetValuesTemplate } from './fleet-values-template';
import { helmHandQuoted } from './helm-hand-quoted';
import { helmUnquotedString } from './helm-unquoted-string';
import { inertValue } from './inert-value';
import { invalidVarName } from './invalid-var-name';
import { kustomizeBuild } from './kustomize-build';
import { missingVarSource } from './missing-var-source';
import { notApplied } from './not-applied';
import { notSubstituted } from './not-substituted';
import { overlayKnobMissing } from './overlay-knob-missing';
import type { Rule } from './rule';
import { silentDefault } from './silent-default';
import { substitutionSkipped } from './substitution-skipped';
import { typeChange } from './type-change';
import { undefinedVar } from './undefined-var';
import { unusedSuppression } from './unused-suppression';
import { unusedVar } from './unused-var';
import { yamlSyntax } from './yaml-syntax';

export const RULES: readonly Rule[] = [dollarCollapse, dollarHalfEscaped, dollarOverEscaped, envsubstParse, fleetField, fleetJsonPointer, fleetPatchName, fleetPatchOp, fleetValuesTemplate, helmHandQuoted, helmUnquotedString, inertValue, invalidVarName, kustomizeBuild, missingVarSource, notApplied, notSubstituted, overlayKnobMissing, silentDefault, substitutionSkipped, typeChange, undefinedVar, unusedSuppression, unusedVar, yamlSyntax];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((rule) => rule.id === id);
}
