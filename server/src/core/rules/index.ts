/**
 * The rule registry: every rule, sorted by id. A tidy test checks the order, that each rule
 * has its docs page and fixture cases, and that ids are unique.
 */
import { dollarCollapse } from './dollar-collapse';
import { dollarHalfEscaped } from './dollar-half-escaped';
import { dollarOverEscaped } from './dollar-over-escaped';
import { envsubstParse } from './envsubst-parse';
import { notSubstituted } from './not-substituted';
import type { Rule } from './rule';
import { silentDefault } from './silent-default';
import { undefinedVar } from './undefined-var';
import { unusedSuppression } from './unused-suppression';
import { yamlSyntax } from './yaml-syntax';

export const RULES: readonly Rule[] = [dollarCollapse, dollarHalfEscaped, dollarOverEscaped, envsubstParse, notSubstituted, silentDefault, undefinedVar, unusedSuppression, yamlSyntax];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((rule) => rule.id === id);
}
